"""Lucene's ArabicAnalyzer (ar) and PersianAnalyzer (fa), as Anserini builds them (the
default constructors), term for term.

- ArabicAnalyzer: StandardTokenizer, LowerCaseFilter, DecimalDigitFilter, StopFilter
  (ar/stopwords.txt), ArabicNormalizationFilter, ArabicStemFilter. Its
  SetKeywordMarkerFilter is only added for a non-empty set of keywords (none here).
- PersianAnalyzer: PersianCharFilter (ZERO WIDTH NON-JOINER -> space, on the text, so
  it splits words before the tokenizer sees them), StandardTokenizer, LowerCaseFilter,
  DecimalDigitFilter, ArabicNormalizationFilter, PersianNormalizationFilter, StopFilter
  (fa/stopwords.txt). Lucene 9.9.1 has a PersianStemFilter, but the analyzer does not
  use it.

The normalizers map or delete single characters (str.translate); the Arabic stemmer
strips one prefix and then each suffix of its list in turn, keeping two characters.

A token that normalization empties (a tatweel alone, "ـ") is the empty term in Lucene,
which indexes it as such: here it is EMPTY_TERM (filters.py), never "" (a dropped token).

Ported from Apache Lucene 9.9.1 (ArabicNormalizer, ArabicStemmer, PersianNormalizer,
PersianCharFilter), licensed under the Apache License, Version 2.0; Copyright The Apache
Software Foundation. See sparsebench/resources/lucene/scripts/NOTICE.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis.batch_tokens import chunk_local_tokens, standard_tokens
from sparsebench.analysis.chains import Chain
from sparsebench.analysis.filters import (
    EMPTY_TERM,
    chained,
    decimal_digits,
    lowercase,
    remembering,
    utf16_length,
    word_set,
)
from sparsebench.analysis.standard_tokenizer import tokenize_batch

# ArabicNormalizer: alef with madda or hamza -> alef, dotless yeh -> yeh, teh marbuta ->
# heh; tatweel and the eight harakat (fathatan .. sukun) deleted.
ARABIC_NORMALIZATION = str.maketrans(
    {"\u0622": "\u0627", "\u0623": "\u0627", "\u0625": "\u0627", "\u0649": "\u064a"}
    | {"\u0629": "\u0647", "\u0640": None}
    | dict.fromkeys(map(chr, range(0x064B, 0x0653)))
)
# PersianNormalizer: farsi yeh and yeh barree -> yeh, keheh -> kaf, heh with yeh and heh
# goal -> heh; hamza above (of heh + hamza) deleted.
PERSIAN_NORMALIZATION = str.maketrans(
    {"\u06cc": "\u064a", "\u06d2": "\u064a", "\u06a9": "\u0643", "\u06c0": "\u0647"}
    | {"\u06c1": "\u0647", "\u0654": None}
)
# ArabicStemmer: the first prefix that matches is removed (and only one), then every
# suffix that matches, in this order.
ARABIC_PREFIXES = (
    "\u0627\u0644",  # al
    "\u0648\u0627\u0644",  # wal
    "\u0628\u0627\u0644",  # bal
    "\u0643\u0627\u0644",  # kal
    "\u0641\u0627\u0644",  # fal
    "\u0644\u0644",  # ll
    "\u0648",  # w
)
ARABIC_SUFFIXES = (
    "\u0647\u0627",  # ha
    "\u0627\u0646",  # an
    "\u0627\u062a",  # at
    "\u0648\u0646",  # wn
    "\u064a\u0646",  # yn
    "\u064a\u0647",  # yh
    "\u064a\u0629",  # yp
    "\u0647",  # h
    "\u0629",  # p
    "\u064a",  # y
)
ZWNJ = "\u200c"


def normalize_arabic(token: str) -> str:
    """ArabicNormalizationFilter."""
    return token.translate(ARABIC_NORMALIZATION)


def normalize_persian(token: str) -> str:
    """PersianNormalizationFilter."""
    return token.translate(PERSIAN_NORMALIZATION)


def stem_arabic(token: str) -> str:
    """ArabicStemFilter. Lengths are in UTF-16 units, as in Java: a prefix needs two
    characters after it (the one-letter wa- three), each suffix two before it."""
    if not token.startswith(ARABIC_PREFIXES) and not token.endswith(ARABIC_SUFFIXES):
        return token
    length = utf16_length(token)
    if token.startswith(ARABIC_PREFIXES):
        for prefix in ARABIC_PREFIXES:
            needed = 4 if len(prefix) == 1 else len(prefix) + 2
            if length >= needed and token.startswith(prefix):
                token = token[len(prefix) :]
                length -= len(prefix)
                break
    if token.endswith(ARABIC_SUFFIXES):
        for suffix in ARABIC_SUFFIXES:
            if length >= len(suffix) + 2 and token.endswith(suffix):
                token = token[: -len(suffix)]
                length -= len(suffix)
    return token


def tokenize_persian(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """PersianCharFilter, then StandardTokenizer. The filter's space splits a chunk in
    two, each tokenized as it would be alone: so it runs on the distinct chunks only."""
    return chunk_local_tokens(_persian_chunk_tokens, texts)


def _persian_chunk_tokens(chunks: pa.Array) -> tuple[np.ndarray, pa.Array]:
    return tokenize_batch(pc.replace_substring(chunks, ZWNJ, " "))


def arabic_term(stopwords: frozenset[str]) -> Callable[[str], str]:
    """After LowerCaseFilter and DecimalDigitFilter: StopFilter, ArabicNormalizationFilter,
    ArabicStemFilter."""

    def term(token: str) -> str:
        if token in stopwords:
            return ""
        return stem_arabic(normalize_arabic(token)) or EMPTY_TERM

    return term


def persian_term(stopwords: frozenset[str]) -> Callable[[str], str]:
    """After LowerCaseFilter and DecimalDigitFilter: ArabicNormalizationFilter,
    PersianNormalizationFilter, StopFilter."""

    def term(token: str) -> str:
        normalized = normalize_persian(normalize_arabic(token))
        return "" if normalized in stopwords else normalized or EMPTY_TERM

    return term


def chain(language: str) -> Chain:
    if language == "ar":
        tokenize, term = standard_tokens, arabic_term(word_set("scripts/ar/stopwords.txt"))
    else:
        tokenize, term = tokenize_persian, persian_term(word_set("scripts/fa/stopwords.txt"))
    return Chain(
        language=language,
        tokenize=tokenize,
        filter=chained(lowercase, decimal_digits, remembering(term)),
    )
