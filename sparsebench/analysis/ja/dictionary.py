"""Lucene 9.9.1's Kuromoji dictionaries (mecab-ipadic-2.7.0-20070801), as the Japanese
tokenizer reads them, and the CJKWidthCharFilter JapaneseAnalyzer puts before it.

The arrays are sparsebench/resources/lucene/ja/kuromoji_ipadic_9.9.1.npz, dumped from the
jar through Lucene's own API (see the README there). A word is a row of the word arrays:
first the 392,127 entries of TokenInfoDictionary, grouped by surface form in the order of
its FST (the UTF-16 code units of the surface, sorted) and, within a surface, in the order
of its targetMap; then the 41 entries of UnknownDictionary, grouped by character class.
Text is handled as UTF-16 code units, as the tokenizer reads a char[] (a character
outside the BMP is two surrogate units).

Derived from Apache Lucene (org.apache.lucene.analysis.ja.dict, the analysis-kuromoji
module, and org.apache.lucene.analysis.cjk.CJKWidthCharFilter), licensed under the Apache
License, Version 2.0; the dictionary data is mecab-ipadic's, under its own licence. See
sparsebench/resources/lucene/ja/NOTICE.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from sparsebench.core.errors import DataError

DICTIONARY = "kuromoji_ipadic_9.9.1.npz"
# SHA-256 of the arrays' contents (in _ARRAYS order, raw bytes): an edit of the resource must
# come with an edit of this module, which reruns the stages that analyze Japanese text.
DICTIONARY_SHA256 = "87c443a629b193d75ff443c302c45586245d76d76cecace2b47b7c75d48e10fe"
_ARRAYS = (
    "surface_units",
    "surface_offsets",
    "surface_word_start",
    "word_left",
    "word_cost",
    "word_pos",
    "word_base",
    "unknown_class_start",
    "char_class",
    "class_flags",
    "punctuation",
    "connection_costs",
    "kana_norm",
    "kana_combine_voiced",
    "kana_combine_semi_voiced",
)
# CharacterDefinition's classes the tokenizer names.
KANJI, KANJINUMERIC = 10, 11
INVOKE, GROUP = 1, 2  # bits of class_flags
HALFWIDTH_VOICED, HALFWIDTH_SEMI_VOICED = 0xFF9E, 0xFF9F


@dataclass(frozen=True, eq=False)  # hashed by identity (one per process)
class Dictionary:
    """The system dictionary, the unknown-word dictionary, the connection costs and the
    character definitions, as numpy arrays indexed by word, class or code unit."""

    surface_units: np.ndarray  # uint16: the surfaces' code units, concatenated
    surface_offsets: np.ndarray  # int32 (surfaces + 1)
    surface_word_start: np.ndarray  # int32 (surfaces + 1): a surface's words
    word_left: np.ndarray  # int16: left id (= right id in IPADIC)
    word_cost: np.ndarray  # int16
    word_pos: np.ndarray  # uint8: index into pos_tags
    word_base: np.ndarray  # int32: index into base_forms, -1 for none
    pos_tags: tuple[str, ...]
    base_forms: tuple[str, ...]
    unknown_class_start: np.ndarray  # int32 (classes + 1): a class's unknown words
    char_class: np.ndarray  # uint8 (65536): CharacterDefinition class of a code unit
    class_flags: np.ndarray  # uint8 (classes): INVOKE | GROUP
    punctuation: np.ndarray  # bool (65536): JapaneseTokenizer.isPunctuation
    connection_costs: np.ndarray  # int16 (right id of the left word, left id of the right)
    kana_norm: np.ndarray  # CJKWidthCharFilter's tables
    kana_combine_voiced: np.ndarray
    kana_combine_semi_voiced: np.ndarray

    def unknown_words(self, character_class: int) -> range:
        """UnknownDictionary.lookupWordIds: the unknown words of a character class."""
        start = self.unknown_class_start
        return range(int(start[character_class]), int(start[character_class + 1]))


def _digest(arrays: dict[str, np.ndarray]) -> str:
    sha = hashlib.sha256()
    for name in _ARRAYS:
        sha.update(np.ascontiguousarray(arrays[name]).tobytes())
    for name in ("pos_tags", "base_forms"):
        sha.update("\n".join(arrays[name].tolist()).encode("utf-8"))
    return sha.hexdigest()


@cache
def dictionary() -> Dictionary:
    """The dictionary, loaded once per process (what the load takes: benchmarks/RESULTS.md,
    "Measurements behind the code")."""
    path = resources.files("sparsebench") / "resources" / "lucene" / "ja" / DICTIONARY
    with resources.as_file(path) as file, np.load(file) as npz:
        arrays = {name: npz[name] for name in npz.files}
    if _digest(arrays) != DICTIONARY_SHA256:
        raise DataError(
            f"{path} is not the Kuromoji dictionary this module was written for "
            "(SHA-256 differs); rebuild it as its README says, or reinstall sparsebench"
        )
    fields = {name: arrays[name] for name in _ARRAYS}
    return Dictionary(
        pos_tags=tuple(arrays["pos_tags"].tolist()),
        base_forms=tuple(arrays["base_forms"].tolist()),
        **fields,
    )
