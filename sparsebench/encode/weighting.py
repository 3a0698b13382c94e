"""Document frequencies, IDF variants and BM25 document weights, in O(nnz) passes.

score(q, d) = sum over shared terms t of q_w(t) * idf(t) * d_w(t). The IDF goes on the
query side at retrieval time; the document matrix holds d_w only (for BM25 the saturated
term frequency, for learned sparse models the encoder's weights).

Collection statistics come in two flavours (`statistics`):
  exact   N counts every document, dl is the exact analyzed length (bm25s, Robertson)
  lucene  as a Lucene index keeps them, so that figures match Anserini's: N and avgdl
          count only documents with at least one term (Lucene's docCount), and dl is
          stored in one byte (SmallFloat.intToByte4), exact up to 24 and rounded down to
          4 significant bits above
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.encode.pruning import prune_rows
from sparsebench.encode.quantization import QuantizationRule

log = logging.getLogger(__name__)

IDF_VARIANTS = ("lucene", "classic", "robertson", "none")
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


def idf(df: np.ndarray, n_docs: int, variant: str) -> np.ndarray:
    """IDF per term (float64).

    lucene    ln(1 + (N - df + 0.5) / (df + 0.5))   Lucene, bm25s, Qdrant Modifier.IDF
    classic   log2(N / df)                         0 where df = 0
    robertson ln((N - df + 0.5) / (df + 0.5))       clamped at 0 for df > N/2, as bm25s
    none      1
    """
    df = df.astype(np.float64)
    if variant == "lucene":
        return np.log1p((n_docs - df + 0.5) / (df + 0.5))
    if variant == "classic":
        return np.where(df > 0, np.log2(n_docs / np.maximum(df, 1.0)), 0.0)
    if variant == "robertson":
        return np.log(np.maximum((n_docs - df + 0.5) / (df + 0.5), 1.0))
    if variant == "none":
        return np.ones_like(df)
    raise ConfigError(f"unknown idf variant {variant!r}; known: {', '.join(IDF_VARIANTS)}")


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


def bm25_document_weights(
    counts: sp.csr_matrix,
    k1: float,
    b: float,
    k1_plus_one: bool = False,
    statistics: str = "exact",
    average: float | None = None,
) -> sp.csr_matrix:
    """tf / (tf + k1 * (1 - b + b * dl / avgdl)), times (k1 + 1) if asked.

    exact: dl is the number of analyzed tokens of the document and avgdl its mean over
    all documents (empty ones included), as bm25s computes them. lucene: avgdl is the
    total length over the documents with a term, and dl the one-byte stored length.
    `average`: avgdl of the whole corpus when `counts` is a part of it.
    """
    exact = document_lengths(counts)
    if average is None:
        n_docs = document_count(exact, statistics)
        average = exact.sum() / n_docs if n_docs else 0.0
    lengths = lucene_stored_lengths(exact) if statistics == "lucene" else exact
    tf = counts.data.astype(np.float64)
    norm = np.ones(len(lengths)) if average == 0 else (1 - b + b * lengths / average)
    row_norm = np.repeat(norm, np.diff(counts.indptr))
    weights = tf / (tf + k1 * row_norm)
    if k1_plus_one:
        weights *= k1 + 1
    return sp.csr_matrix(
        (weights.astype(np.float32), counts.indices.copy(), counts.indptr.copy()),
        shape=counts.shape,
    )


def dirichlet_document_weights(
    counts: sp.csr_matrix,
    mu: float,
    collection: np.ndarray,
    total_length: float,
    statistics: str = "exact",
) -> sp.csr_matrix:
    """Query likelihood with Dirichlet smoothing as Lucene's LMDirichletSimilarity scores a
    matching term: max(0, ln(1 + tf / (mu * p_t)) + ln(mu / (dl + mu))), where p_t =
    (cf_t + 1) / (total length + 1) is computed in float32 as Lucene's
    DefaultCollectionModel does (Zhai and Lafferty, "A Study of Smoothing Methods for
    Language Models Applied to Ad Hoc Information Retrieval", SIGIR 2001). `collection`:
    cf per term over the whole corpus; dl as for BM25 (lucene: the one-byte stored length).
    """
    exact = document_lengths(counts)
    lengths = lucene_stored_lengths(exact) if statistics == "lucene" else exact
    one = np.float32(1)
    probability = (collection.astype(np.float32) + one) / (np.float32(total_length) + one)
    tf = counts.data.astype(np.float64)
    p = probability.astype(np.float64)[counts.indices]
    row_length = np.repeat(lengths, np.diff(counts.indptr))
    weights = np.log1p(tf / (mu * p)) + np.log(mu / (row_length + mu))
    return sp.csr_matrix(
        (np.maximum(weights, 0.0).astype(np.float32), counts.indices.copy(), counts.indptr.copy()),
        shape=counts.shape,
    )


@dataclass(frozen=True)
class Weighting:
    """How a model weighs its encoded documents (the `weighting` param of term_weights and
    of the partitioned jobs, built by the model's kind): the recipe both share.

    kind        bm25 (saturated tf), tf (raw counts), dirichlet (query likelihood), splade
                or python (the encoder's weights)
    idf         an IDF variant (IDF_VARIANTS), or model (the idf.json shipped with the model)
    pruning     static pruning of each document ({top_k, threshold}), SPLADE only
    quantization  integer impacts (encode.quantization: {scale, rounding, arithmetic}),
                after pruning, SPLADE only
    """

    kind: str
    idf: str
    k1: float = 0.0
    b: float = 0.0
    k1_plus_one: bool = False
    mu: float = 0.0
    statistics: str = "exact"
    pruning: Mapping[str, Any] | None = None
    idf_source: str | None = None
    quantization: Mapping[str, Any] | None = None

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Weighting:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(params) - known)
        if unknown:
            raise ConfigError(f"unknown weighting settings {unknown}; known: {sorted(known)}")
        return cls(**params)

    def prepared(self, matrix: sp.csr_matrix) -> sp.csr_matrix:
        """The encoded documents as the model weighs them: statically pruned and quantised
        if it says so."""
        if self.pruning is not None:
            before = matrix.nnz
            matrix = prune_rows(matrix, **self.pruning)
            log.info("pruning %s keeps %d of %d weights", dict(self.pruning), matrix.nnz, before)
        if self.quantization is not None:
            before = matrix.nnz
            matrix = QuantizationRule.from_config(self.quantization).quantize_rows(matrix)
            log.info(
                "quantization %s keeps %d of %d weights (integer impacts above zero)",
                dict(self.quantization),
                matrix.nnz,
                before,
            )
        return matrix

    def corpus_statistics(self, matrix: sp.csr_matrix) -> CorpusStatistics:
        return corpus_statistics(matrix, self.statistics)

    def term_idf(self, statistics: CorpusStatistics, terms: pa.Array | None) -> np.ndarray:
        """The IDF of every term: from the corpus statistics, or shipped with the model
        (aligned with the corpus's `terms`)."""
        if self.idf != "model":
            return idf(statistics.df, statistics.n_docs, self.idf)
        from sparsebench.encode.splade import load_idf_json

        if terms is None or self.idf_source is None:
            raise DataError("an IDF from the model needs the model and the corpus vocabulary")
        return load_idf_json(self.idf_source, terms)

    def document_weights(
        self, matrix: sp.csr_matrix, statistics: CorpusStatistics
    ) -> sp.csr_matrix:
        """Each document's term weights; `statistics` are the whole corpus's (`matrix` may
        be a part of it)."""
        if self.kind == "bm25":
            return bm25_document_weights(
                matrix,
                self.k1,
                self.b,
                self.k1_plus_one,
                self.statistics,
                average=statistics.average_length,
            )
        if self.kind == "tf":  # raw term frequencies
            return matrix.astype(np.float32)
        if self.kind == "dirichlet":
            return dirichlet_document_weights(
                matrix, self.mu, statistics.cf, statistics.total_length, self.statistics
            )
        return matrix

    def record(
        self,
        params: Mapping[str, Any],
        statistics: CorpusStatistics,
        weights: np.ndarray,
        postings: int,
    ) -> dict[str, Any]:
        """What term_stats.json says of a weighing (`params`: the settings as given)."""
        return {
            "n_docs": int(statistics.n_docs),
            "statistics": self.statistics,
            "vocabulary": len(statistics.df),
            "postings": int(postings),
            "avg_doc_length": statistics.average_length,
            "idf": self.idf,
            "idf_min": float(weights.min(initial=0.0)),
            "idf_max": float(weights.max(initial=0.0)),
            "weighting": dict(params),
        }
