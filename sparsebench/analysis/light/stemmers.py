"""Lucene's light stemmers and GermanNormalizationFilter, ported to Python.

The classes of lucene-analysis-common 9.9.1 behind GermanAnalyzer, SpanishAnalyzer,
FrenchAnalyzer, ItalianAnalyzer and PortugueseAnalyzer: GermanNormalizationFilter and
the UniNE stemmers of Jacques Savoy GermanLightStemmer, SpanishLightStemmer,
FrenchLightStemmer, ItalianLightStemmer and PortugueseLightStemmer (all code:
PortugueseAnalyzer uses this one, not the RSLP PortugueseStemmer and its rules file).

Each function takes and returns a word as UTF-16 code units (code_units.py) and keeps
its Java method's rules in their order, each with its Java length test (`len > k` of
the units), so the two read side by side. Where the Java rewrites units at len - k and
shortens the word, the comment gives the Java and the code the resulting slice.
Character.isLetter(char) is str.isalpha of one unit: False for a surrogate, as in Java,
and the same letters as Java 21's (the runtime of Anserini 1.7.1) from Python 3.11 on.

Derived from Apache Lucene (the classes named above), licensed under the Apache License,
Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0); Copyright The Apache Software
Foundation; the UniNE stemmers after BSD-licensed reference implementations by Jacques
Savoy and Ljiljana Dolamic. See sparsebench/resources/lucene/light/NOTICE.
"""

from __future__ import annotations

import re

# -- GermanNormalizationFilter -------------------------------------------------------------

_N, _V, _U = 0, 1, 2  # ordinary; stops 'u' from entering the umlaut state; umlaut state
_GERMAN_NORMALIZED = re.compile("[eäöüß]")  # no other character is changed
_UMLAUTS = {"ä": "a", "ö": "o", "ü": "u"}


def german_normalize(s: str) -> str:
    """ß -> ss; ä ö ü -> a o u; ae oe -> a o; ue -> u but after a vowel or q (German2)."""
    if not _GERMAN_NORMALIZED.search(s):
        return s
    out = []
    state = _N
    for c in s:
        if c in "ao":
            state = _U
        elif c == "u":
            state = _U if state == _N else _V
        elif c == "e":
            dropped = state == _U  # Java: StemmerUtil.delete(buffer, i--, length)
            state = _V
            if dropped:
                continue
        elif c in "iqy":
            state = _V
        elif c in "äöü":
            c = _UMLAUTS[c]
            state = _V
        elif c == "ß":
            c = "ss"  # Java: 's' here, a second 's' inserted after, and past it
            state = _N
        else:
            state = _N
        out.append(c)
    return "".join(out)


# -- GermanLightStemmer ----------------------------------------------------------------------

_GERMAN_ACCENTS = str.maketrans("äàáâöòóôïìíîüùúû", "aaaaooooiiiiuuuu")
_ST_ENDING = "bdfghklmnt"  # stEnding(ch)


def german_light(s: str) -> str:
    return _german_step2(_german_step1(s.translate(_GERMAN_ACCENTS)))


def _german_step1(s: str) -> str:
    n = len(s)
    if n > 5 and s.endswith("ern"):
        return s[:-3]
    if n > 4 and s[-2] == "e" and s[-1] in "mnrs":
        return s[:-2]
    if n > 3 and s[-1] == "e":
        return s[:-1]
    if n > 3 and s[-1] == "s" and s[-2] in _ST_ENDING:
        return s[:-1]
    return s


def _german_step2(s: str) -> str:
    n = len(s)
    if n > 5 and s.endswith("est"):
        return s[:-3]
    if n > 4 and s[-2] == "e" and s[-1] in "rn":
        return s[:-2]
    if n > 4 and s.endswith("st") and s[-3] in _ST_ENDING:
        return s[:-2]
    return s


# -- SpanishLightStemmer, ItalianLightStemmer ------------------------------------------------

_ROMANCE_ACCENTS = str.maketrans("àáâäòóôöèéêëùúûüìíîï", "aaaaooooeeeeuuuuiiii")


def spanish_light(s: str) -> str:
    if len(s) < 5:
        return s
    s = s.translate(_ROMANCE_ACCENTS)
    last = s[-1]
    if last in "oae":
        return s[:-1]
    if last == "s":
        if s.endswith("eses"):
            return s[:-2]
        if s.endswith("ces"):  # s[len-3] = 'z'; return len - 2
            return s[:-3] + "z"
        if s[-2] in "oae":
            return s[:-2]
    return s


def italian_light(s: str) -> str:
    if len(s) < 6:
        return s
    s = s.translate(_ROMANCE_ACCENTS)
    last, before = s[-1], s[-2]
    if last == "e":
        return s[:-2] if before in "ih" else s[:-1]
    if last == "i":
        return s[:-2] if before in "hi" else s[:-1]
    if last in "ao":
        return s[:-2] if before == "i" else s[:-1]
    return s


# -- FrenchLightStemmer --------------------------------------------------------------------


def french_light(s: str) -> str:
    if len(s) > 5 and s[-1] == "x":  # -aux but -eaux: s[len-2] = 'l'; then len--
        s = s[:-2] + "l" if s[-3] == "a" and s[-2] == "u" and s[-4] != "e" else s[:-1]
    if len(s) > 3 and s[-1] == "x":
        s = s[:-1]
    if len(s) > 3 and s[-1] == "s":
        s = s[:-1]

    n = len(s)
    if n > 9 and s.endswith("issement"):  # len -= 6; s[len-1] = 'r'
        return _french_norm(s[:-7] + "r")
    if n > 8 and s.endswith("issant"):  # len -= 4; s[len-1] = 'r'
        return _french_norm(s[:-5] + "r")
    if n > 6 and s.endswith("ement"):
        s = s[:-4]
        if len(s) > 3 and s.endswith("ive"):  # len--; s[len-1] = 'f'
            s = s[:-2] + "f"
        return _french_norm(s)
    if n > 11 and s.endswith("ficatrice"):  # len -= 5; s[len-2..len-1] = "er"
        return _french_norm(s[:-7] + "er")
    if n > 10 and s.endswith("ficateur"):  # len -= 4; s[len-2..len-1] = "er"
        return _french_norm(s[:-6] + "er")
    if n > 9 and s.endswith("catrice"):  # len -= 3; s[len-4..len-1] = "quer"
        return _french_norm(s[:-7] + "quer")
    if n > 8 and s.endswith("cateur"):  # len -= 2; s[len-4..len-1] = "quer"
        return _french_norm(s[:-6] + "quer")
    if n > 8 and s.endswith("atrice"):  # len -= 4; s[len-2..len-1] = "er"
        return _french_norm(s[:-6] + "er")
    if n > 7 and s.endswith("ateur"):  # len -= 3; s[len-2..len-1] = "er"
        return _french_norm(s[:-5] + "er")
    if n > 6 and s.endswith("trice"):  # len--; s[len-3..len-1] = "eur"; no return
        s = s[:-4] + "eur"
    n = len(s)
    if n > 5 and s.endswith("ième"):
        return _french_norm(s[:-4])
    if n > 7 and s.endswith("teuse"):  # len -= 2; s[len-1] = 'r'
        return _french_norm(s[:-3] + "r")
    if n > 6 and s.endswith("teur"):  # len--; s[len-1] = 'r'
        return _french_norm(s[:-2] + "r")
    if n > 5 and s.endswith("euse"):
        return _french_norm(s[:-2])
    if n > 8 and s.endswith("ère"):  # len--; s[len-2] = 'e'
        return _french_norm(s[:-3] + "er")
    if n > 7 and s.endswith("ive"):  # len--; s[len-1] = 'f'
        return _french_norm(s[:-2] + "f")
    if n > 4 and (s.endswith("folle") or s.endswith("molle")):  # len -= 2; s[len-1] = 'u'
        return _french_norm(s[:-3] + "u")
    if n > 9 and s.endswith("nnelle"):
        return _french_norm(s[:-5])
    if n > 9 and s.endswith("nnel"):
        return _french_norm(s[:-3])
    if n > 4 and s.endswith("ète"):  # len--; s[len-2] = 'e'; no return
        s = s[:-3] + "et"
    if len(s) > 8 and s.endswith("ique"):  # no return
        s = s[:-4]
    n = len(s)
    if n > 8 and s.endswith("esse"):
        return _french_norm(s[:-3])
    if n > 7 and s.endswith("inage"):
        return _french_norm(s[:-3])
    if n > 9 and s.endswith("isation"):
        s = s[:-7]
        if len(s) > 5 and s.endswith("ual"):  # s[len-2] = 'e'
            s = s[:-2] + "el"
        return _french_norm(s)
    if n > 9 and s.endswith("isateur"):
        return _french_norm(s[:-7])
    if n > 8 and s.endswith("ation"):
        return _french_norm(s[:-5])
    if n > 8 and s.endswith("ition"):
        return _french_norm(s[:-5])
    return _french_norm(s)


_FRENCH_ACCENTS = str.maketrans("àáâôèéêùûîç", "aaaoeeeuuic")
_DOUBLED = re.compile(r"(.)\1", re.DOTALL)


def _french_norm(s: str) -> str:
    if len(s) > 4:
        s = s.translate(_FRENCH_ACCENTS)
        if _DOUBLED.search(s):
            s = _undouble_letters(s)
    if len(s) > 4 and s.endswith("ie"):
        s = s[:-2]
    if len(s) > 4:
        if s[-1] == "r":
            s = s[:-1]
        if s[-1] == "e":
            s = s[:-1]
        if s[-1] == "e":
            s = s[:-1]
        if s[-1] == s[-2] and s[-1].isalpha():
            s = s[:-1]
    return s


def _undouble_letters(s: str) -> str:
    """A letter repeated is kept once (not a digit, mark or surrogate): the Java loop
    `if (s[i] == ch && Character.isLetter(ch)) len = delete(s, i--, len)`."""
    out = [s[0]]
    ch = s[0]
    for c in s[1:]:
        if c == ch and ch.isalpha():
            continue
        out.append(c)
        ch = c
    return "".join(out)


# -- PortugueseLightStemmer ------------------------------------------------------------------

_PORTUGUESE_ACCENTS = str.maketrans("àáâäãòóôöõèéêëùúûüìíîïç", "aaaaaoooooeeeeuuuuiiiic")


def portuguese_light(s: str) -> str:
    if len(s) < 4:
        return s
    s = _portuguese_remove_suffix(s)
    if len(s) > 3 and s[-1] == "a":
        s = _portuguese_norm_feminine(s)
    if len(s) > 4 and s[-1] in "eao":
        s = s[:-1]
    return s.translate(_PORTUGUESE_ACCENTS)


def _portuguese_remove_suffix(s: str) -> str:
    n = len(s)
    if n > 4 and s.endswith("es") and s[-3] in "rslz":
        return s[:-2]
    if n > 3 and s.endswith("ns"):  # s[len-2] = 'm'; return len - 1
        return s[:-2] + "m"
    if n > 4 and (s.endswith("eis") or s.endswith("éis")):  # s[len-3..len-2] = "el"
        return s[:-3] + "el"
    if n > 4 and s.endswith("ais"):  # s[len-2] = 'l'; return len - 1
        return s[:-2] + "l"
    if n > 4 and s.endswith("óis"):  # s[len-3..len-2] = "ol"; return len - 1
        return s[:-3] + "ol"
    if n > 4 and s.endswith("is"):  # s[len-1] = 'l'
        return s[:-1] + "l"
    if n > 3 and (s.endswith("ões") or s.endswith("ães")):  # len--; s[len-2..len-1] = "ão"
        return s[:-3] + "ão"
    if n > 6 and s.endswith("mente"):
        return s[:-5]
    if n > 3 and s[-1] == "s":
        return s[:-1]
    return s


def _portuguese_norm_feminine(s: str) -> str:
    n = len(s)
    if n > 7 and s.endswith(("inha", "iaca", "eira")):  # s[len-1] = 'o'
        return s[:-1] + "o"
    if n > 6:
        if s.endswith(("osa", "ica", "ida", "ada", "iva", "ama")):  # s[len-1] = 'o'
            return s[:-1] + "o"
        if s.endswith("ona"):  # s[len-3..len-2] = "ão"; return len - 1
            return s[:-3] + "ão"
        if s.endswith("ora"):
            return s[:-1]
        if s.endswith("esa"):  # s[len-3] = 'ê'; return len - 1
            return s[:-3] + "ês"
        if s.endswith("na"):  # s[len-1] = 'o'
            return s[:-1] + "o"
    return s
