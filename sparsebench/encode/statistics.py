"""Collection statistics, in O(nnz) passes: what the IDF and the weighting schemes read
of a whole corpus (document frequencies, lengths, N).

A multifield model (BM25 over title and contents, as Anserini's `-fields`) keeps them per
field as Lucene keeps them per field: each column belongs to one field (`column_fields`),
and N and the total length are counted per field (`field_docs`, `field_lengths`); df and
cf are per column, hence per field already.

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
from typing import TYPE_CHECKING

import numpy as np

from sparsebench.core.errors import ConfigError

if TYPE_CHECKING:
    import scipy.sparse as sp

STATISTICS = ("exact", "lucene")
# SmallFloat.intToByte4 stores lengths below this exactly (255 - longToInt4(2**31 - 1))
_LUCENE_EXACT_LENGTHS = 24
_CHUNK = 1 << 24  # entries counted at a time
_ROWS = 1 << 16  # documents whose field lengths are summed at a time


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
    in any order). A multifield corpus has them per field as well (column_fields set)."""

    n_docs: int  # N of the IDF: every document, or (lucene) those with a term
    total_length: float  # sum of the exact document lengths
    df: np.ndarray  # documents with a nonzero weight, per term (int64)
    cf: np.ndarray  # the term's total weight over the corpus (term counts: its frequency)
    column_fields: np.ndarray | None = None  # the field of each column (multifield)
    field_docs: np.ndarray | None = None  # N per field (int64)
    field_lengths: np.ndarray | None = None  # total exact length per field (float64)

    @property
    def average_length(self) -> float:
        return self.total_length / self.n_docs if self.n_docs else 0.0

    @property
    def field_averages(self) -> np.ndarray:
        """avgdl of each field (0 where the field has no document)."""
        docs = np.maximum(self.field_docs, 1)
        return np.where(self.field_docs > 0, self.field_lengths / docs, 0.0)

    def column_docs(self) -> np.ndarray | int:
        """N of each column's field (multifield), or the corpus's N."""
        if self.column_fields is None:
            return self.n_docs
        return self.field_docs[self.column_fields]

    def __add__(self, other: CorpusStatistics) -> CorpusStatistics:
        fielded = self.column_fields is not None
        return CorpusStatistics(
            self.n_docs + other.n_docs,
            self.total_length + other.total_length,
            self.df + other.df,
            self.cf + other.cf,
            self.column_fields,
            self.field_docs + other.field_docs if fielded else None,
            self.field_lengths + other.field_lengths if fielded else None,
        )


def field_lengths(counts: sp.csr_matrix, column_fields: np.ndarray, n_fields: int) -> np.ndarray:
    """(documents x fields) exact lengths: each row's counts summed per field, a block of
    rows at a time (the per-entry arrays take a block's memory, not the corpus's)."""
    totals = np.zeros((counts.shape[0], n_fields))
    for start in range(0, counts.shape[0], _ROWS):
        block = counts[start : start + _ROWS]
        rows = np.repeat(np.arange(block.shape[0], dtype=np.int64), np.diff(block.indptr))
        cells = rows * n_fields + column_fields[block.indices]
        sums = np.bincount(cells, block.data.astype(np.float64), block.shape[0] * n_fields)
        totals[start : start + block.shape[0]] = sums.reshape(block.shape[0], n_fields)
    return totals


def corpus_statistics(
    matrix: sp.csr_matrix,
    statistics: str = "exact",
    column_fields: np.ndarray | None = None,
    n_fields: int = 1,
) -> CorpusStatistics:
    """The statistics of `matrix`'s documents; with column_fields, per field too (N of a
    field by the flavour: every document, or those with a term in the field)."""
    lengths = document_lengths(matrix)
    fields: tuple[np.ndarray | None, ...] = (None, None, None)
    if column_fields is not None:
        per_field = field_lengths(matrix, column_fields, n_fields)
        docs = [document_count(per_field[:, f], statistics) for f in range(n_fields)]
        fields = (column_fields, np.array(docs, np.int64), per_field.sum(axis=0))
    return CorpusStatistics(
        document_count(lengths, statistics),
        float(lengths.sum()),
        document_frequencies(matrix),
        collection_frequencies(matrix),
        *fields,
    )


def collection_frequencies(matrix: sp.csr_matrix) -> np.ndarray:
    """Each column's sum over the documents (float64: for term counts, an exact integer)."""
    return _column_totals(matrix, lambda data: data.astype(np.float64), np.float64)
