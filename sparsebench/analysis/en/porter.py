"""Lucene's Porter stemmer (org.apache.lucene.analysis.en.PorterStemmer), ported to Python.

This is the stemmer of Lucene's PorterStemFilter, which Anserini's DefaultEnglishAnalyzer
(and so every Anserini/Pyserini BM25 baseline in English) applies. It is Martin Porter's
own reference implementation ("Release 3" of his Java stemmer, as adapted for Lucene),
which departs from the 1980 paper and from the Snowball "porter" algorithm (PyStemmer's
'porter') in a few places:

* words of one or two characters are never stemmed ("us", "as", "is" stay as they are);
* step 2 has logi -> log ("technology" -> "technolog") and bli -> ble where Snowball has
  abli -> able ("possibly" -> "possibl");
* after removing -ed/-ing, any double consonant other than l, s and z is undoubled
  ("specced" -> "spec"), not only bb dd ff gg mm nn pp rr tt;
* every character other than a, e, i, o, u (and y after a vowel) counts as a consonant:
  digits, punctuation, accented and non-Latin letters alike.

The port keeps the structure of the Java source method by method, so it can be read
side by side with it; it works on UTF-16 code units, as Java does (a character outside
the Basic Multilingual Plane counts as two consonants). Checked against the Lucene 9.9.1
jar on 78,680 real words and 304,824 synthetic words: no difference.

Derived from Apache Lucene, PorterStemmer.java, licensed under the Apache License,
Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0); Copyright The Apache Software
Foundation. See sparsebench/resources/lucene/NOTICE.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis.filters import remembered

_HAS_ASCII_LOWERCASE = re.compile("[a-z]")


# Consonant (c) / vowel (v) pattern of a word: a e i o u are vowels, y is resolved after.
_VOWELS = str.maketrans({"a": "v", "e": "v", "i": "v", "o": "v", "u": "v", "v": "c"})
_OTHER = re.compile("[^vy]")


def _pattern(word: str) -> str:
    """'c' where PorterStemmer.cons(i) is true, 'v' elsewhere: y is a consonant at the
    start of the word or after a vowel, a vowel after a consonant."""
    pattern = _OTHER.sub("c", word.translate(_VOWELS))
    if "y" not in pattern:
        return pattern
    chars = list(pattern)
    for i, ch in enumerate(chars):
        if ch == "y":
            chars[i] = "c" if i == 0 or chars[i - 1] == "v" else "v"
    return "".join(chars)


class _Porter:
    """The stemmer's state for one word. Java keeps a buffer b with the word in b[0..k]
    (k0, the start, is always 0 here) and the end of the stem in j; here b is the string
    b[0..k], so k is len(b) - 1, and every change of k cuts or extends b (Java never
    reads its buffer beyond k)."""

    __slots__ = ("b", "k", "j", "_cv", "_cv_of")

    def __init__(self, word: str) -> None:
        self.b = word
        self.k = len(word) - 1
        self.j = 0
        self._cv_of: str | None = None
        self._cv = ""

    def cv(self) -> str:
        """The consonant/vowel pattern of b (cons(i) is cv()[i] == 'c')."""
        if self._cv_of is not self.b:
            self._cv = _pattern(self.b)
            self._cv_of = self.b
        return self._cv

    def m(self) -> int:
        """The number of consonant sequences between 0 and j (Porter's measure): the
        vowel-to-consonant changes in b[0..j]."""
        return self.cv()[: self.j + 1].count("vc")

    def vowelinstem(self) -> bool:
        return "v" in self.cv()[: self.j + 1]

    def doublec(self, j: int) -> bool:
        """True if j, j-1 hold the same consonant."""
        if j < 1:
            return False
        if self.b[j] != self.b[j - 1]:
            return False
        return self.cv()[j] == "c"

    def cvc(self, i: int) -> bool:
        """True if i-2, i-1, i is consonant - vowel - consonant and the last is not w, x, y."""
        if i < 2 or self.cv()[i - 2 : i + 1] != "cvc":
            return False
        return self.b[i] not in ("w", "x", "y")

    def ends(self, s: str) -> bool:
        if not self.b.endswith(s):
            return False
        self.j = self.k - len(s)
        return True

    def setto(self, s: str) -> None:
        """Set b[j+1 .. k] to s, readjusting k."""
        self.b = self.b[: self.j + 1] + s
        self.k = self.j + len(s)

    def r(self, s: str) -> None:
        if self.m() > 0:
            self.setto(s)

    def cut(self, k: int) -> None:
        """k = the given end."""
        self.b = self.b[: k + 1]
        self.k = k

    def step1(self) -> None:
        """Plurals and -ed, -ing (Porter's steps 1a and 1b)."""
        if self.b[self.k] == "s":
            if self.ends("sses"):
                self.cut(self.k - 2)
            elif self.ends("ies"):
                self.setto("i")
            elif self.b[self.k - 1] != "s":
                self.cut(self.k - 1)
        if self.ends("eed"):
            if self.m() > 0:
                self.cut(self.k - 1)
        elif (self.ends("ed") or self.ends("ing")) and self.vowelinstem():
            self.cut(self.j)
            if self.ends("at"):
                self.setto("ate")
            elif self.ends("bl"):
                self.setto("ble")
            elif self.ends("iz"):
                self.setto("ize")
            elif self.doublec(self.k):
                if self.b[self.k] not in ("l", "s", "z"):
                    self.cut(self.k - 1)
            elif self.m() == 1 and self.cvc(self.k):
                self.setto("e")

    def step2(self) -> None:
        """Terminal y to i when there is another vowel in the stem (step 1c)."""
        if self.ends("y") and self.vowelinstem():
            self.b = self.b[:-1] + "i"

    def step3(self) -> None:
        """Double suffixes to single ones (Porter's step 2). In each group the first
        suffix that matches ends the step, whether or not its measure allows the change."""
        if self.k == 0:
            return
        for suffix, replacement in _STEP3.get(self.b[self.k - 1], ()):
            if self.ends(suffix):
                self.r(replacement)
                return

    def step4(self) -> None:
        """-ic-, -full, -ness etc. (Porter's step 3)."""
        for suffix, replacement in _STEP4.get(self.b[self.k], ()):
            if self.ends(suffix):
                self.r(replacement)
                return

    def step5(self) -> None:
        """-ant, -ence etc., in context <c>vcvc<v> (Porter's step 4)."""
        if self.k == 0:
            return
        group = self.b[self.k - 1]
        if group == "o":
            if not (
                (self.ends("ion") and self.j >= 0 and self.b[self.j] in ("s", "t"))
                or self.ends("ou")
            ):
                return
        elif not any(self.ends(suffix) for suffix in _STEP5.get(group, ())):
            return
        if self.m() > 1:
            self.cut(self.j)

    def step6(self) -> None:
        """Remove a final -e, and -ll -> -l, if m() > 1 (Porter's step 5)."""
        self.j = self.k
        if self.b[self.k] == "e":
            a = self.m()
            if a > 1 or (a == 1 and not self.cvc(self.k - 1)):
                self.cut(self.k - 1)
        if self.b[self.k] == "l" and self.doublec(self.k) and self.m() > 1:
            self.cut(self.k - 1)

    def stem(self) -> str:
        if self.k > 1:  # words of one or two code units are left alone
            self.step1()
            self.step2()
            self.step3()
            self.step4()
            self.step5()
            self.step6()
        return self.b


# Step 3 and 4 rules grouped by the character the Java switch selects on, in source order.
_STEP3 = {
    "a": (("ational", "ate"), ("tional", "tion")),
    "c": (("enci", "ence"), ("anci", "ance")),
    "e": (("izer", "ize"),),
    "l": (("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous")),
    "o": (("ization", "ize"), ("ation", "ate"), ("ator", "ate")),
    "s": (("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous")),
    "t": (("aliti", "al"), ("iviti", "ive"), ("biliti", "ble")),
    "g": (("logi", "log"),),
}
_STEP4 = {
    "e": (("icate", "ic"), ("ative", ""), ("alize", "al")),
    "i": (("iciti", "ic"),),
    "l": (("ical", "ic"), ("ful", "")),
    "s": (("ness", ""),),
}
_STEP5 = {  # group "o" (-ion after s or t, -ou) is handled in step5 itself
    "a": ("al",),
    "c": ("ance", "ence"),
    "e": ("er",),
    "i": ("ic",),
    "l": ("able", "ible"),
    "n": ("ant", "ement", "ment", "ent"),
    "s": ("ism",),
    "t": ("ate", "iti"),
    "u": ("ous",),
    "v": ("ive",),
    "z": ("ize",),
}


def stem(word: str) -> str:
    """Lucene's PorterStemmer.stem of one word (lowercase it first, as Lucene's chain does)."""
    if len(word) < 3 and word.isascii():
        return word
    if not _HAS_ASCII_LOWERCASE.search(word):
        return word  # every rule needs a lowercase ASCII letter: nothing can change
    if word.isascii() or max(word) <= "\uffff":
        return _Porter(word).stem()
    # Outside the BMP Java sees two code units (two consonants) per character.
    units = word.encode("utf-16-le", "surrogatepass")
    chars = "".join(
        chr(int.from_bytes(units[i : i + 2], "little")) for i in range(0, len(units), 2)
    )
    stemmed = _Porter(chars).stem()
    return stemmed.encode("utf-16-le", "surrogatepass").decode("utf-16-le")


class PorterStemmer:
    """Lucene's Porter stemmer with PyStemmer's batch interface, remembering the words it
    has stemmed (shared by all instances; the cache restarts past a million words)."""

    _cache: dict[str, str] = {}

    def stemWord(self, word: str) -> str:  # noqa: N802 (PyStemmer's name)
        return self.stemWords([word])[0]

    def stem_array(self, words: pa.Array) -> pa.Array:
        """The stems of a string array. Words of fewer than three bytes or without a
        lowercase ASCII letter stay as they are and are not looked at in Python."""
        candidates = pc.and_(
            pc.greater_equal(pc.binary_length(words), 3),
            pc.match_substring_regex(words, "[a-z]"),
        )
        candidates = pc.fill_null(candidates, False)
        if not pc.any(candidates).as_py():
            return words
        stems = self.stemWords(pc.filter(words, candidates).to_pylist())
        return pc.replace_with_mask(words, candidates, pa.array(stems, type=pa.string()))

    def stemWords(self, words: Iterable[str]) -> list[str]:  # noqa: N802 (PyStemmer's name)
        return remembered(words, stem, PorterStemmer._cache)
