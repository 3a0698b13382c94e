"""Document frequencies, IDF variants and BM25 document weights, in O(nnz) passes.

score(q, d) = sum over shared terms t of q_w(t) * idf(t) * d_w(t). The IDF goes on the
query side at retrieval time; the document matrix holds d_w only (for BM25 the saturated
term frequency, for learned sparse models the encoder's weights).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from sparsebench.errors import ConfigError

IDF_VARIANTS = ("lucene", "classic", "robertson", "none")


def document_frequencies(matrix: sp.csr_matrix) -> np.ndarray:
    """Number of documents with a nonzero weight for each column."""
    nonzero = matrix.indices[matrix.data != 0]
    return np.bincount(nonzero, minlength=matrix.shape[1]).astype(np.int64)


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


def bm25_document_weights(
    counts: sp.csr_matrix, k1: float, b: float, k1_plus_one: bool = False
) -> sp.csr_matrix:
    """tf / (tf + k1 * (1 - b + b * dl / avgdl)), times (k1 + 1) if asked.

    dl is the number of analyzed tokens of the document and avgdl its mean over all
    documents (empty ones included), as bm25s computes them.
    """
    tf = counts.data.astype(np.float64)
    lengths = np.asarray(counts.sum(axis=1), dtype=np.float64).ravel()
    average = lengths.mean() if len(lengths) else 0.0
    norm = np.ones_like(lengths) if average == 0 else (1 - b + b * lengths / average)
    row_norm = np.repeat(norm, np.diff(counts.indptr))
    weights = tf / (tf + k1 * row_norm)
    if k1_plus_one:
        weights *= k1 + 1
    return sp.csr_matrix(
        (weights.astype(np.float32), counts.indices.copy(), counts.indptr.copy()),
        shape=counts.shape,
    )
