"""Lucene's IndonesianStemmer (lucene-analysis-common 9.9.1), ported to Python.

Fadillah Tala's stemmer (A Study of Stemming Effects on Information Retrieval in Bahasa
Indonesia): particles (-kah -lah -pun), possessive pronouns (-ku -mu -nya), then, with
stem_derivational (IndonesianStemFilter's default, and so IndonesianAnalyzer's), first-
and second-order prefixes and derivational suffixes; every rule needs more than two
vowels (the "syllables") left. The methods keep the Java's, on a buffer of UTF-16 code
units (stemmer_util.py).

Derived from Apache Lucene, IndonesianStemmer.java, licensed under the Apache License,
Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0); Copyright The Apache Software
Foundation. See sparsebench/resources/lucene/light/NOTICE.
"""

from __future__ import annotations

from sparsebench.encode.lucene.stemmer_util import delete_n, ends_with, starts_with

_REMOVED_KE = 1
_REMOVED_PENG = 2
_REMOVED_DI = 4
_REMOVED_MENG = 8
_REMOVED_TER = 16
_REMOVED_BER = 32
_REMOVED_PE = 64


def _is_vowel(c: str) -> bool:
    return c in "aeiou"


class IndonesianStemmer:
    """Tala's stemmer: particles, possessive pronouns, then (stem_derivational, as
    IndonesianAnalyzer has it) first- and second-order prefixes and suffixes; each rule
    needs more than two vowels ("syllables") left."""

    def __init__(self, stem_derivational: bool = True):
        self.stem_derivational = stem_derivational
        self.num_syllables = 0
        self.flags = 0

    def stem(self, text: list[str], length: int) -> int:
        self.flags = 0
        self.num_syllables = sum(1 for c in text[:length] if _is_vowel(c))
        if self.num_syllables > 2:
            length = self._remove_particle(text, length)
        if self.num_syllables > 2:
            length = self._remove_possessive_pronoun(text, length)
        if self.stem_derivational:
            length = self._stem_derivational(text, length)
        return length

    def _stem_derivational(self, text: list[str], length: int) -> int:
        old_length = length
        if self.num_syllables > 2:
            length = self._remove_first_order_prefix(text, length)
        if old_length != length:  # a rule fired
            old_length = length
            if self.num_syllables > 2:
                length = self._remove_suffix(text, length)
            if old_length != length and self.num_syllables > 2:  # a rule fired
                length = self._remove_second_order_prefix(text, length)
        else:
            if self.num_syllables > 2:
                length = self._remove_second_order_prefix(text, length)
            if self.num_syllables > 2:
                length = self._remove_suffix(text, length)
        return length

    def _remove_particle(self, text: list[str], length: int) -> int:
        if any(ends_with(text, length, particle) for particle in ("kah", "lah", "pun")):
            self.num_syllables -= 1
            return length - 3
        return length

    def _remove_possessive_pronoun(self, text: list[str], length: int) -> int:
        if ends_with(text, length, "ku") or ends_with(text, length, "mu"):
            self.num_syllables -= 1
            return length - 2
        if ends_with(text, length, "nya"):
            self.num_syllables -= 1
            return length - 3
        return length

    def _remove_prefix(self, text: list[str], length: int, count: int, flag: int = 0) -> int:
        self.flags |= flag
        self.num_syllables -= 1
        return delete_n(text, 0, length, count)

    def _remove_first_order_prefix(self, text: list[str], length: int) -> int:
        remove = self._remove_prefix
        if starts_with(text, length, "meng"):
            return remove(text, length, 4, _REMOVED_MENG)
        if starts_with(text, length, "meny") and length > 4 and _is_vowel(text[4]):
            text[3] = "s"
            return remove(text, length, 3, _REMOVED_MENG)
        if starts_with(text, length, "men"):
            return remove(text, length, 3, _REMOVED_MENG)
        if starts_with(text, length, "mem"):
            return remove(text, length, 3, _REMOVED_MENG)
        if starts_with(text, length, "me"):
            return remove(text, length, 2, _REMOVED_MENG)
        if starts_with(text, length, "peng"):
            return remove(text, length, 4, _REMOVED_PENG)
        if starts_with(text, length, "peny") and length > 4 and _is_vowel(text[4]):
            text[3] = "s"
            return remove(text, length, 3, _REMOVED_PENG)
        if starts_with(text, length, "peny"):
            return remove(text, length, 4, _REMOVED_PENG)
        if starts_with(text, length, "pen") and length > 3 and _is_vowel(text[3]):
            text[2] = "t"
            return remove(text, length, 2, _REMOVED_PENG)
        if starts_with(text, length, "pen"):
            return remove(text, length, 3, _REMOVED_PENG)
        if starts_with(text, length, "pem"):
            return remove(text, length, 3, _REMOVED_PENG)
        if starts_with(text, length, "di"):
            return remove(text, length, 2, _REMOVED_DI)
        if starts_with(text, length, "ter"):
            return remove(text, length, 3, _REMOVED_TER)
        if starts_with(text, length, "ke"):
            return remove(text, length, 2, _REMOVED_KE)
        return length

    def _remove_second_order_prefix(self, text: list[str], length: int) -> int:
        remove = self._remove_prefix
        if starts_with(text, length, "ber"):
            return remove(text, length, 3, _REMOVED_BER)
        if length == 7 and starts_with(text, length, "belajar"):
            return remove(text, length, 3, _REMOVED_BER)
        if (
            starts_with(text, length, "be")
            and length > 4
            and not _is_vowel(text[2])
            and text[3] == "e"
            and text[4] == "r"
        ):
            return remove(text, length, 2, _REMOVED_BER)
        if starts_with(text, length, "per"):
            return remove(text, length, 3)
        if length == 7 and starts_with(text, length, "pelajar"):
            return remove(text, length, 3)
        if starts_with(text, length, "pe"):
            return remove(text, length, 2, _REMOVED_PE)
        return length

    def _remove_suffix(self, text: list[str], length: int) -> int:
        flags = self.flags
        if ends_with(text, length, "kan") and not flags & (
            _REMOVED_KE | _REMOVED_PENG | _REMOVED_PE
        ):
            self.num_syllables -= 1
            return length - 3
        if ends_with(text, length, "an") and not flags & (
            _REMOVED_DI | _REMOVED_MENG | _REMOVED_TER
        ):
            self.num_syllables -= 1
            return length - 2
        if (
            ends_with(text, length, "i")
            and not ends_with(text, length, "si")
            and not flags & (_REMOVED_BER | _REMOVED_KE | _REMOVED_PENG)
        ):
            self.num_syllables -= 1
            return length - 1
        return length
