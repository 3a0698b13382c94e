"""Collection statistics, in O(nnz) passes: what the IDF and the weighting schemes read
of a whole corpus (document frequencies, lengths, N).

They come in two flavours (`statistics`):
  exact   N counts every document, dl is the exact analyzed length (bm25s, Robertson)
  lucene  as a Lucene index keeps them, so that figures match Anserini's: N and avgdl
          count only documents with at least one term (Lucene's docCount), and dl is
          stored in one byte (SmallFloat.intToByte4), exact up to 24 and rounded down to
          4 significant bits above
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError

STATISTICS = ("exact", "lucene")
# SmallFloat.intToByte4 stores lengths below this exactly (255 - longToInt4(2**31 - 1))
_LUCENE_EXACT_LENGTHS = 24
_CHUNK = 1 << 24  # entries counted at a time


def document_frequencies(matrix: sp.csr_matrix) -> np.ndarray:
    """Number of documents with a nonzero weight for each column."""
    return _column_totals(matrix, lambda data: (data != 0).astype(np.int64), np.int64)


def _column_totals(
    matrix: sp.csr_matrix, value: Callable[[np.ndarray], np.ndarray], dtype: type
) -> np.ndarray:
    """Per column, the total of value(weights) over its entries, counted a chunk of
    entries at a time: the copies bincount makes (int64 indices, float64 values) take a
    chunk's memory, not the corpus's."""
    totals = np.zeros(matrix.shape[1], dtype=dtype)
    for start in range(0, matrix.nnz, _CHUNK):
        chunk = slice(start, start + _CHUNK)
        weights = value(matrix.data[chunk])
        totals += np.bincount(matrix.indices[chunk], weights, matrix.shape[1]).astype(dtype)
    return totals


def _check_statistics(statistics: str) -> None:
    if statistics not in STATISTICS:
        raise ConfigError(
            f"unknown collection statistics {statistics!r}; known: {', '.join(STATISTICS)}"
        )


def document_lengths(counts: sp.csr_matrix) -> np.ndarray:
    """Length of each document: its row sum (for term counts, the analyzed length)."""
    return np.asarray(counts.sum(axis=1), dtype=np.float64).ravel()


def document_count(lengths: np.ndarray, statistics: str = "exact") -> int:
    """N of the IDF: every document, or (lucene) those with at least one term."""
    _check_statistics(statistics)
    return int(np.count_nonzero(lengths)) if statistics == "lucene" else len(lengths)


def lucene_stored_lengths(lengths: np.ndarray) -> np.ndarray:
    """Lengths as Lucene reads them back from its one-byte norms.

    SmallFloat.intToByte4 then byte4ToInt: lengths below 24 are exact; above, 24 plus the
    rest rounded down to its 4 most significant bits (e.g. 100 -> 96, 1000 -> 984).
    """
    lengths = np.rint(np.asarray(lengths, dtype=np.float64)).astype(np.int64)
    if np.any(lengths < 0):
        raise ValueError("document lengths must be non-negative")
    rest = lengths - _LUCENE_EXACT_LENGTHS
    above = rest > 0
    bits = np.frexp(np.where(above, rest, 1).astype(np.float64))[1]  # bit length
    shift = np.maximum(bits - 4, 0)
    kept = _LUCENE_EXACT_LENGTHS + ((rest >> shift) << shift)
    return np.where(above, kept, lengths)


@dataclass(frozen=True)
class CorpusStatistics:
    """What the IDF and BM25's length normalisation need from a whole corpus. Each field
    is a sum over documents, so a corpus split into parts has the sum of its parts'
    statistics (the lengths of term counts are integers: their sum is exact in float64,
    in any order)."""

    n_docs: int  # N of the IDF: every document, or (lucene) those with a term
    total_length: float  # sum of the exact document lengths
    df: np.ndarray  # documents with a nonzero weight, per term (int64)
    cf: np.ndarray  # the term's total weight over the corpus (term counts: its frequency)

    @property
    def average_length(self) -> float:
        return self.total_length / self.n_docs if self.n_docs else 0.0

    def __add__(self, other: CorpusStatistics) -> CorpusStatistics:
        return CorpusStatistics(
            self.n_docs + other.n_docs,
            self.total_length + other.total_length,
            self.df + other.df,
            self.cf + other.cf,
        )


def corpus_statistics(matrix: sp.csr_matrix, statistics: str = "exact") -> CorpusStatistics:
    lengths = document_lengths(matrix)
    return CorpusStatistics(
        document_count(lengths, statistics),
        float(lengths.sum()),
        document_frequencies(matrix),
        collection_frequencies(matrix),
    )


def collection_frequencies(matrix: sp.csr_matrix) -> np.ndarray:
    """Each column's sum over the documents (float64: for term counts, an exact integer)."""
    return _column_totals(matrix, lambda data: data.astype(np.float64), np.float64)
