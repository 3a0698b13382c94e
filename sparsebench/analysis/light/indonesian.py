"""Lucene's IndonesianStemmer (lucene-analysis-common 9.9.1), ported to Python.

Fadillah Tala's stemmer (A Study of Stemming Effects on Information Retrieval in Bahasa
Indonesia): particles (-kah -lah -pun), possessive pronouns (-ku -mu -nya), then, with
stemDerivational (IndonesianStemFilter's default, and so IndonesianAnalyzer's), first-
and second-order prefixes and derivational suffixes; every rule needs more than two
vowels (the "syllables") left. The methods keep the Java's rules in order, on a word as
UTF-16 code units (code_units.py); StemmerUtil.deleteN(text, 0, length, k) is text[k:].

Derived from Apache Lucene, IndonesianStemmer.java, licensed under the Apache License,
Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0); Copyright The Apache Software
Foundation. See sparsebench/resources/lucene/light/NOTICE.
"""

from __future__ import annotations

_REMOVED_KE = 1
_REMOVED_PENG = 2
_REMOVED_DI = 4
_REMOVED_MENG = 8
_REMOVED_TER = 16
_REMOVED_BER = 32
_REMOVED_PE = 64
_VOWELS = "aeiou"


class IndonesianStemmer:
    """One word's stemming: the stemmer keeps the vowels left and the prefixes removed
    while it stems (as the Java instance does between its methods)."""

    def __init__(self, stem_derivational: bool = True):
        self.stem_derivational = stem_derivational
        self.num_syllables = 0
        self.flags = 0

    def stem(self, text: str) -> str:
        self.flags = 0
        self.num_syllables = sum(map(text.count, _VOWELS))
        if self.num_syllables > 2:
            text = self._remove_particle(text)
        if self.num_syllables > 2:
            text = self._remove_possessive_pronoun(text)
        if self.stem_derivational:
            text = self._stem_derivational(text)
        return text

    def _stem_derivational(self, text: str) -> str:
        old_length = len(text)
        if self.num_syllables > 2:
            text = self._remove_first_order_prefix(text)
        if old_length != len(text):  # a rule fired
            old_length = len(text)
            if self.num_syllables > 2:
                text = self._remove_suffix(text)
            if old_length != len(text) and self.num_syllables > 2:  # a rule fired
                text = self._remove_second_order_prefix(text)
        else:
            if self.num_syllables > 2:
                text = self._remove_second_order_prefix(text)
            if self.num_syllables > 2:
                text = self._remove_suffix(text)
        return text

    def _remove_particle(self, text: str) -> str:
        if text.endswith(("kah", "lah", "pun")):
            self.num_syllables -= 1
            return text[:-3]
        return text

    def _remove_possessive_pronoun(self, text: str) -> str:
        if text.endswith(("ku", "mu")):
            self.num_syllables -= 1
            return text[:-2]
        if text.endswith("nya"):
            self.num_syllables -= 1
            return text[:-3]
        return text

    def _removed(self, rest: str, flag: int = 0) -> str:
        """A prefix removed: `rest` is what is left of the word."""
        self.flags |= flag
        self.num_syllables -= 1
        return rest

    def _remove_first_order_prefix(self, text: str) -> str:
        removed = self._removed
        if text.startswith("meng"):
            return removed(text[4:], _REMOVED_MENG)
        if text.startswith("meny") and len(text) > 4 and text[4] in _VOWELS:
            return removed("s" + text[4:], _REMOVED_MENG)  # text[3] = 's'; deleteN 3
        if text.startswith(("men", "mem")):
            return removed(text[3:], _REMOVED_MENG)
        if text.startswith("me"):
            return removed(text[2:], _REMOVED_MENG)
        if text.startswith("peng"):
            return removed(text[4:], _REMOVED_PENG)
        if text.startswith("peny") and len(text) > 4 and text[4] in _VOWELS:
            return removed("s" + text[4:], _REMOVED_PENG)  # text[3] = 's'; deleteN 3
        if text.startswith("peny"):
            return removed(text[4:], _REMOVED_PENG)
        if text.startswith("pen") and len(text) > 3 and text[3] in _VOWELS:
            return removed("t" + text[3:], _REMOVED_PENG)  # text[2] = 't'; deleteN 2
        if text.startswith(("pen", "pem")):
            return removed(text[3:], _REMOVED_PENG)
        if text.startswith("di"):
            return removed(text[2:], _REMOVED_DI)
        if text.startswith("ter"):
            return removed(text[3:], _REMOVED_TER)
        if text.startswith("ke"):
            return removed(text[2:], _REMOVED_KE)
        return text

    def _remove_second_order_prefix(self, text: str) -> str:
        removed = self._removed
        if text.startswith("ber"):
            return removed(text[3:], _REMOVED_BER)
        if len(text) == 7 and text.startswith("belajar"):
            return removed(text[3:], _REMOVED_BER)
        if (
            text.startswith("be")
            and len(text) > 4
            and text[2] not in _VOWELS
            and text[3] == "e"
            and text[4] == "r"
        ):
            return removed(text[2:], _REMOVED_BER)
        if text.startswith("per"):
            return removed(text[3:])
        if len(text) == 7 and text.startswith("pelajar"):
            return removed(text[3:])
        if text.startswith("pe"):
            return removed(text[2:], _REMOVED_PE)
        return text

    def _remove_suffix(self, text: str) -> str:
        flags = self.flags
        if text.endswith("kan") and not flags & (_REMOVED_KE | _REMOVED_PENG | _REMOVED_PE):
            self.num_syllables -= 1
            return text[:-3]
        if text.endswith("an") and not flags & (_REMOVED_DI | _REMOVED_MENG | _REMOVED_TER):
            self.num_syllables -= 1
            return text[:-2]
        if (
            text.endswith("i")
            and not text.endswith("si")
            and not flags & (_REMOVED_BER | _REMOVED_KE | _REMOVED_PENG)
        ):
            self.num_syllables -= 1
            return text[:-1]
        return text


def stem(text: str) -> str:
    """IndonesianStemFilter's stemming of one word (stemDerivational true, its default),
    by a stemmer of its own: a stemmer keeps state while it stems."""
    return IndonesianStemmer(stem_derivational=True).stem(text)
