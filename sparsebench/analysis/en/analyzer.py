"""Anserini's DefaultEnglishAnalyzer (the analyzer of English and of every language
outside AnalyzerMap but ha, so, sw and yo): StandardTokenizer, EnglishPossessiveFilter,
LowerCaseFilter, StopFilter with Lucene's 33 English stopwords, PorterStemFilter."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sparsebench.analysis.batch_tokens import standard_tokens
from sparsebench.analysis.chains import Chain
from sparsebench.analysis.en.porter import PorterStemmer
from sparsebench.analysis.filters import chained, lowercase, stop
from sparsebench.core.arrays import span_indices
from sparsebench.core.strings import string_buffers, strings_from_buffers

# Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (a constant in the class, not a file).
LUCENE_ENGLISH_STOPWORDS = (
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into",
    "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then",
    "there", "these", "they", "this", "to", "was", "will", "with",
)  # fmt: skip


def strip_possessive(tokens: pa.Array) -> pa.Array:
    """Lucene's EnglishPossessiveFilter: a final 's, ’s or ＇s (s in either case) removed,
    once. Read from the UTF-8 bytes: ' is 27, ’ E2 80 99, ＇ EF BC 87."""
    offsets, data = string_buffers(tokens)
    if not len(data):
        return tokens
    ends = offsets[1:]
    lengths = ends - offsets[:-1]

    def byte(back: int) -> np.ndarray:
        return data[np.maximum(ends - back, 0)]

    final_s = (lengths >= 2) & ((byte(1) == ord("s")) | (byte(1) == ord("S")))
    if not final_s.any():
        return tokens
    cut = np.where(final_s & (byte(2) == 0x27), 2, 0)
    wide = final_s & (lengths >= 4)
    curly = wide & (byte(4) == 0xE2) & (byte(3) == 0x80) & (byte(2) == 0x99)
    fullwidth = wide & (byte(4) == 0xEF) & (byte(3) == 0xBC) & (byte(2) == 0x87)
    cut[curly | fullwidth] = 4
    if not cut.any():
        return tokens
    keep = np.ones(len(data), dtype=bool)
    keep[span_indices(ends[cut > 0] - cut[cut > 0], ends[cut > 0])] = False
    return strings_from_buffers(data[keep], lengths - cut)


def chain(language: str) -> Chain:
    porter = PorterStemmer()
    return Chain(
        language=language,
        tokenize=standard_tokens,
        filter=chained(
            strip_possessive, lowercase, stop(LUCENE_ENGLISH_STOPWORDS), porter.stem_array
        ),
    )
