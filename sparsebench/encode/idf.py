"""IDF variants (`idf:` of a model): a term's weight from its document frequency df and
the corpus's N, one function each, listed in IDF_VARIANTS. The IDF goes on the query side
at retrieval (idf.npy), so one document matrix serves every variant; Kamphuis et al.,
"Which BM25 Do You Mean? A Large-Scale Reproducibility Study of Scoring Variants" (ECIR
2020), compare them under BM25. A weighting scheme says which variants its models take
(sparsebench.encode.schemes).
"""

from __future__ import annotations

import numpy as np

from sparsebench.core.errors import ConfigError


def lucene(df: np.ndarray, n_docs: int) -> np.ndarray:
    """ln(1 + (N - df + 0.5) / (df + 0.5)): Lucene's BM25Similarity, bm25s, Qdrant's
    Modifier.IDF."""
    return np.log1p((n_docs - df + 0.5) / (df + 0.5))


def classic(df: np.ndarray, n_docs: int) -> np.ndarray:
    """log2(N / df), 0 where df = 0."""
    return np.where(df > 0, np.log2(n_docs / np.maximum(df, 1.0)), 0.0)


def robertson(df: np.ndarray, n_docs: int) -> np.ndarray:
    """ln((N - df + 0.5) / (df + 0.5)), Robertson and Sparck Jones's weight without
    relevance information, clamped at 0 for df > N/2 as bm25s clamps it."""
    return np.log(np.maximum((n_docs - df + 0.5) / (df + 0.5), 1.0))


def none(df: np.ndarray, n_docs: int) -> np.ndarray:
    """1: no IDF (the document weights carry it, or nothing does)."""
    return np.ones_like(df)


IDF_VARIANTS = {"lucene": lucene, "classic": classic, "robertson": robertson, "none": none}


def idf(df: np.ndarray, n_docs: int | np.ndarray, variant: str) -> np.ndarray:
    """IDF per term (float64) by the variant of that name (df: per term, any dtype; n_docs:
    the corpus's N, or each term's field's N for a multifield model)."""
    if variant not in IDF_VARIANTS:
        raise ConfigError(f"unknown idf variant {variant!r}; known: {', '.join(IDF_VARIANTS)}")
    return IDF_VARIANTS[variant](df.astype(np.float64), n_docs)
