"""Lucene's light stemmers and GermanNormalizationFilter, ported to Python.

The classes of lucene-analysis-common 9.9.1 behind GermanAnalyzer, SpanishAnalyzer,
FrenchAnalyzer, ItalianAnalyzer and PortugueseAnalyzer: GermanNormalizationFilter and
Jacques Savoy's UniNE stemmers GermanLightStemmer, SpanishLightStemmer,
FrenchLightStemmer, ItalianLightStemmer and PortugueseLightStemmer (all code:
PortugueseAnalyzer uses this one, not the RSLP PortugueseStemmer and its rules file).
Each function keeps the structure of its Java method, so the two read side by side: it
edits a buffer of UTF-16 code units in place and returns the new length, as the Java
does on its char[] (stemmer_util.py). Character.isLetter(char) is str.isalpha of one
unit (False for a surrogate, as in Java; the same letters as Java 21's, the runtime of
Anserini 1.7.1, from Python 3.11 on, whose Unicode is 14).

Java throws on a negative index where Python counts from the end: every index below is
guarded, as in the Java, by a length test that keeps it in [0, len).

Derived from Apache Lucene (the classes named above, and StemmerUtil), licensed under
the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0); Copyright
The Apache Software Foundation; the UniNE stemmers Copyright (c) 2005 Jacques Savoy
(BSD licence). See sparsebench/resources/lucene/light/NOTICE.
"""

from __future__ import annotations

from sparsebench.encode.lucene.stemmer_util import delete, ends_with

# -- GermanNormalizationFilter -------------------------------------------------------------

_N, _V, _U = 0, 1, 2  # ordinary; stops 'u' from entering the umlaut state; umlaut state


def german_normalize(s: list[str], n: int) -> int:
    """ß -> ss; ä ö ü -> a o u; ae oe -> a o; ue -> u but after a vowel or q (German2)."""
    state = _N
    i = 0
    while i < n:
        c = s[i]
        if c in "ao":
            state = _U
        elif c == "u":
            state = _U if state == _N else _V
        elif c == "e":
            if state == _U:
                n = delete(s, i, n)
                i -= 1
            state = _V
        elif c in "iqy":
            state = _V
        elif c == "ä":
            s[i] = "a"
            state = _V
        elif c == "ö":
            s[i] = "o"
            state = _V
        elif c == "ü":
            s[i] = "u"
            state = _V
        elif c == "ß":
            s[i] = "s"
            i += 1
            s.insert(i, "s")  # Java grows the buffer and shifts the rest right
            n += 1
            state = _N
        else:
            state = _N
        i += 1
    return n


# -- GermanLightStemmer ----------------------------------------------------------------------

_GERMAN_ACCENTS = str.maketrans("äàáâöòóôïìíîüùúû", "aaaaooooiiiiuuuu")


def _st_ending(c: str) -> bool:
    return c in "bdfghklmnt"


def german_light(s: list[str], n: int) -> int:
    s[:n] = "".join(s[:n]).translate(_GERMAN_ACCENTS)
    n = _german_step1(s, n)
    return _german_step2(s, n)


def _german_step1(s: list[str], n: int) -> int:
    if n > 5 and s[n - 3] == "e" and s[n - 2] == "r" and s[n - 1] == "n":
        return n - 3
    if n > 4 and s[n - 2] == "e" and s[n - 1] in "mnrs":
        return n - 2
    if n > 3 and s[n - 1] == "e":
        return n - 1
    if n > 3 and s[n - 1] == "s" and _st_ending(s[n - 2]):
        return n - 1
    return n


def _german_step2(s: list[str], n: int) -> int:
    if n > 5 and s[n - 3] == "e" and s[n - 2] == "s" and s[n - 1] == "t":
        return n - 3
    if n > 4 and s[n - 2] == "e" and (s[n - 1] == "r" or s[n - 1] == "n"):
        return n - 2
    if n > 4 and s[n - 2] == "s" and s[n - 1] == "t" and _st_ending(s[n - 3]):
        return n - 2
    return n


# -- SpanishLightStemmer, ItalianLightStemmer ------------------------------------------------

_ROMANCE_ACCENTS = str.maketrans("àáâäòóôöèéêëùúûüìíîï", "aaaaooooeeeeuuuuiiii")


def spanish_light(s: list[str], n: int) -> int:
    if n < 5:
        return n
    s[:n] = "".join(s[:n]).translate(_ROMANCE_ACCENTS)
    last = s[n - 1]
    if last in "oae":
        return n - 1
    if last == "s":
        if s[n - 2] == "e" and s[n - 3] == "s" and s[n - 4] == "e":
            return n - 2
        if s[n - 2] == "e" and s[n - 3] == "c":
            s[n - 3] = "z"
            return n - 2
        if s[n - 2] in "oae":
            return n - 2
    return n


def italian_light(s: list[str], n: int) -> int:
    if n < 6:
        return n
    s[:n] = "".join(s[:n]).translate(_ROMANCE_ACCENTS)
    last, before = s[n - 1], s[n - 2]
    if last == "e":
        return n - 2 if before in "ih" else n - 1
    if last == "i":
        return n - 2 if before in "hi" else n - 1
    if last in "ao":
        return n - 2 if before == "i" else n - 1
    return n


# -- FrenchLightStemmer --------------------------------------------------------------------


def french_light(s: list[str], n: int) -> int:
    if n > 5 and s[n - 1] == "x":
        if s[n - 3] == "a" and s[n - 2] == "u" and s[n - 4] != "e":
            s[n - 2] = "l"
        n -= 1
    if n > 3 and s[n - 1] == "x":
        n -= 1
    if n > 3 and s[n - 1] == "s":
        n -= 1

    if n > 9 and ends_with(s, n, "issement"):
        n -= 6
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 8 and ends_with(s, n, "issant"):
        n -= 4
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 6 and ends_with(s, n, "ement"):
        n -= 4
        if n > 3 and ends_with(s, n, "ive"):
            n -= 1
            s[n - 1] = "f"
        return _french_norm(s, n)
    if n > 11 and ends_with(s, n, "ficatrice"):
        n -= 5
        s[n - 2] = "e"
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 10 and ends_with(s, n, "ficateur"):
        n -= 4
        s[n - 2] = "e"
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 9 and ends_with(s, n, "catrice"):
        n -= 3
        s[n - 4] = "q"
        s[n - 3] = "u"
        s[n - 2] = "e"
        return _french_norm(s, n)  # s[n - 1] is 'r' already
    if n > 8 and ends_with(s, n, "cateur"):
        n -= 2
        s[n - 4] = "q"
        s[n - 3] = "u"
        s[n - 2] = "e"
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 8 and ends_with(s, n, "atrice"):
        n -= 4
        s[n - 2] = "e"
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 7 and ends_with(s, n, "ateur"):
        n -= 3
        s[n - 2] = "e"
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 6 and ends_with(s, n, "trice"):  # no return: the rules below see -teur
        n -= 1
        s[n - 3] = "e"
        s[n - 2] = "u"
        s[n - 1] = "r"
    if n > 5 and ends_with(s, n, "ième"):
        return _french_norm(s, n - 4)
    if n > 7 and ends_with(s, n, "teuse"):
        n -= 2
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 6 and ends_with(s, n, "teur"):
        n -= 1
        s[n - 1] = "r"
        return _french_norm(s, n)
    if n > 5 and ends_with(s, n, "euse"):
        return _french_norm(s, n - 2)
    if n > 8 and ends_with(s, n, "ère"):
        n -= 1
        s[n - 2] = "e"
        return _french_norm(s, n)
    if n > 7 and ends_with(s, n, "ive"):
        n -= 1
        s[n - 1] = "f"
        return _french_norm(s, n)
    if n > 4 and (ends_with(s, n, "folle") or ends_with(s, n, "molle")):
        n -= 2
        s[n - 1] = "u"
        return _french_norm(s, n)
    if n > 9 and ends_with(s, n, "nnelle"):
        return _french_norm(s, n - 5)
    if n > 9 and ends_with(s, n, "nnel"):
        return _french_norm(s, n - 3)
    if n > 4 and ends_with(s, n, "ète"):  # no return
        n -= 1
        s[n - 2] = "e"
    if n > 8 and ends_with(s, n, "ique"):  # no return
        n -= 4
    if n > 8 and ends_with(s, n, "esse"):
        return _french_norm(s, n - 3)
    if n > 7 and ends_with(s, n, "inage"):
        return _french_norm(s, n - 3)
    if n > 9 and ends_with(s, n, "isation"):
        n -= 7
        if n > 5 and ends_with(s, n, "ual"):
            s[n - 2] = "e"
        return _french_norm(s, n)
    if n > 9 and ends_with(s, n, "isateur"):
        return _french_norm(s, n - 7)
    if n > 8 and ends_with(s, n, "ation"):
        return _french_norm(s, n - 5)
    if n > 8 and ends_with(s, n, "ition"):
        return _french_norm(s, n - 5)
    return _french_norm(s, n)


_FRENCH_ACCENTS = str.maketrans("àáâôèéêùûîç", "aaaoeeeuuic")


def _french_norm(s: list[str], n: int) -> int:
    if n > 4:
        s[:n] = "".join(s[:n]).translate(_FRENCH_ACCENTS)
        ch = s[0]
        i = 1
        while i < n:  # a doubled letter (not digit, not mark) undoubled
            if s[i] == ch and ch.isalpha():
                n = delete(s, i, n)
                i -= 1
            else:
                ch = s[i]
            i += 1
    if n > 4 and ends_with(s, n, "ie"):
        n -= 2
    if n > 4:
        if s[n - 1] == "r":
            n -= 1
        if s[n - 1] == "e":
            n -= 1
        if s[n - 1] == "e":
            n -= 1
        if s[n - 1] == s[n - 2] and s[n - 1].isalpha():
            n -= 1
    return n


# -- PortugueseLightStemmer ------------------------------------------------------------------

_PORTUGUESE_ACCENTS = str.maketrans("àáâäãòóôöõèéêëùúûüìíîïç", "aaaaaoooooeeeeuuuuiiiic")


def portuguese_light(s: list[str], n: int) -> int:
    if n < 4:
        return n
    n = _portuguese_remove_suffix(s, n)
    if n > 3 and s[n - 1] == "a":
        n = _portuguese_norm_feminine(s, n)
    if n > 4 and s[n - 1] in "eao":
        n -= 1
    s[:n] = "".join(s[:n]).translate(_PORTUGUESE_ACCENTS)
    return n


def _portuguese_remove_suffix(s: list[str], n: int) -> int:
    if n > 4 and ends_with(s, n, "es") and s[n - 3] in "rslz":
        return n - 2
    if n > 3 and ends_with(s, n, "ns"):
        s[n - 2] = "m"
        return n - 1
    if n > 4 and (ends_with(s, n, "eis") or ends_with(s, n, "éis")):
        s[n - 3] = "e"
        s[n - 2] = "l"
        return n - 1
    if n > 4 and ends_with(s, n, "ais"):
        s[n - 2] = "l"
        return n - 1
    if n > 4 and ends_with(s, n, "óis"):
        s[n - 3] = "o"
        s[n - 2] = "l"
        return n - 1
    if n > 4 and ends_with(s, n, "is"):
        s[n - 1] = "l"
        return n
    if n > 3 and (ends_with(s, n, "ões") or ends_with(s, n, "ães")):
        n -= 1
        s[n - 2] = "ã"
        s[n - 1] = "o"
        return n
    if n > 6 and ends_with(s, n, "mente"):
        return n - 5
    if n > 3 and s[n - 1] == "s":
        return n - 1
    return n


def _portuguese_norm_feminine(s: list[str], n: int) -> int:
    if n > 7 and any(ends_with(s, n, suffix) for suffix in ("inha", "iaca", "eira")):
        s[n - 1] = "o"
        return n
    if n > 6:
        if any(ends_with(s, n, suffix) for suffix in ("osa", "ica", "ida", "ada", "iva", "ama")):
            s[n - 1] = "o"
            return n
        if ends_with(s, n, "ona"):
            s[n - 3] = "ã"
            s[n - 2] = "o"
            return n - 1
        if ends_with(s, n, "ora"):
            return n - 1
        if ends_with(s, n, "esa"):
            s[n - 3] = "ê"
            return n - 1
        if ends_with(s, n, "na"):
            s[n - 1] = "o"
            return n
    return n
