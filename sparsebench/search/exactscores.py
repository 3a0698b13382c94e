"""Retrieval scores whose value does not depend on the order of summation.

A score is the sum, over the terms a query and a document share, of q_t * d_t: q_t the
query weight times the term's IDF (rounded once to float32), d_t the document's float32
weight. Each product is exact in float64 (24 + 24 significant bits fit in 53), but a sum
of products is not: its last bits depend on the order in which a library adds them
(scipy adds in the query's term order, MKL, AVX-512 kernels and CUDA in orders of their
own), and in float32 those bits decide near-ties. So the score is *defined* as

    score = float32(float64(exact sum of the exact products))

(the exact sum correctly rounded to float64, as math.fsum gives it, then to float32),
a function of the set of products alone. Backends compute a float64 sum s in whatever
order they like; for m terms its error is at most gamma(m-1) * sum |q_t d_t|
(Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 4.2: any
order). When s - bound and s + bound round to the same float32, that float32 is the
score (rounding is monotonic); otherwise, about once in 10^7 scores, the score is
recomputed exactly from its products. Where a float32 sum was already exact, as with one
term or small integer weights, the score is that sum.

Nonnegative weights (BM25, SPLADE) bound sum |q_t d_t| by s itself; a model with
negative weights pays one more product, of the absolute values, per batch.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import scipy.sparse as sp

from sparsebench.search.postings import Postings

_UNIT = 2.0**-52  # twice the unit roundoff of float64
_FLOAT32_GAP = 2.0**-22  # two float32 ulps, relative: a margin around a float32 cut
_SMALLEST = 2.0**-140  # margin near zero, above float32's subnormal spacing
_BLOCK = 1 << 22  # weights checked at a time
# Types of stored weights whose every value is a float32 value (postings_build.compact_weights).
NARROW_TYPES = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.uint16))

ExactSums = Callable[[np.ndarray, np.ndarray], np.ndarray]
Bound = TypeVar("Bound")  # a float, numpy array or torch tensor


@dataclass(frozen=True)
class Operands:
    """A retrieval's two sides as it sums them, and what settling their sums needs."""

    queries: sp.csr_matrix  # float64 holding float32(query weight x IDF)
    corpus: sp.csr_matrix  # float64 holding the float32 document weights
    factors: np.ndarray  # per query, its error factor (error_factors)
    signed: bool  # a weight is negative: bounds need sum |q_t d_t|


def operands(queries: sp.csr_matrix, corpus: sp.csr_matrix, term_weights: np.ndarray) -> Operands:
    """Both sides of a retrieval (the corpus term-major or document-major) as summed."""
    weighted = query_operand(queries, term_weights)
    corpus = corpus_operand(corpus)
    return Operands(weighted, corpus, error_factors(weighted), is_signed(weighted, corpus))


def query_operand(queries: sp.csr_matrix, term_weights: np.ndarray) -> sp.csr_matrix:
    """Query weights times the term weights (IDF), each rounded once to float32, held in
    float64 so that products with float32 document weights are exact. The stored order
    of each row's terms is kept: it is the order in which scipy adds them. The caller's
    matrix is left as it was (its zeros are dropped from copies of its arrays)."""
    queries = sp.csr_matrix(queries, dtype=np.float32)
    data = queries.data * term_weights.astype(np.float32)[queries.indices]  # float32
    weighted = sp.csr_matrix(
        (data.astype(np.float64), queries.indices.copy(), queries.indptr.copy()),
        shape=queries.shape,
    )
    weighted.eliminate_zeros()
    return weighted


def corpus_operand(matrix: sp.csr_matrix) -> sp.csr_matrix:
    """Document weights as summed: the matrix itself when its values are float32 values
    (float32, uint8 or uint16, as the term_weights stage stores postings, or float64
    holding float32 values), so that a memory-mapped index is never copied; else a copy
    rounded to float32. Products with them are exact once widened to float64
    (sparsebench.search.postings.Postings.lists)."""
    data = matrix.data
    if data.dtype in NARROW_TYPES:
        return matrix
    if data.dtype == np.float64 and _holds_float32_values(data):
        return matrix
    return sp.csr_matrix((_as_float32(data), matrix.indices, matrix.indptr), shape=matrix.shape)


def _as_float32(data: np.ndarray) -> np.ndarray:
    return data.astype(np.float32).astype(np.float64)


def _holds_float32_values(data: np.ndarray) -> bool:
    """Checked in blocks, so that the check costs no copy of the corpus."""
    return all(
        np.array_equal(data[i : i + _BLOCK], _as_float32(data[i : i + _BLOCK]))
        for i in range(0, len(data), _BLOCK)
    )


def is_signed(*matrices: sp.csr_matrix) -> bool:
    """Whether any weight is negative (then the error bound needs sum |q_t d_t|)."""
    return any(m.nnz and m.data.dtype.kind != "u" and m.data.min() < 0 for m in matrices)


def absolute(matrix: sp.csr_matrix) -> sp.csr_matrix:
    return sp.csr_matrix(
        (np.abs(matrix.data.astype(np.float64)), matrix.indices, matrix.indptr), shape=matrix.shape
    )


def error_factors(queries: sp.csr_matrix) -> np.ndarray:
    """Per query row, c such that |s - exact| <= c * sum |q_t d_t| for any summation
    order of its m terms, with room for the rounding of s +- c * sum itself:
    gamma(m - 1) ~ (m - 1) 2^-53, and c = (m + 2) 2^-52 more than covers it. One term is
    exact."""
    terms = np.diff(queries.indptr)
    return np.where(terms > 1, (terms + 2) * _UNIT, 0.0)


def candidate_floor(kth_lower: Bound) -> Bound:
    """Given the k-th largest lower bound L of a query's exact scores, the least upper
    bound a document needs to possibly round to a float32 at or above float32(L)."""
    return kth_lower - (abs(kth_lower) * _FLOAT32_GAP + _SMALLEST)  # numpy or torch


def settle(
    sums: np.ndarray,
    widths: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    exact_sums: ExactSums,
) -> np.ndarray:
    """The float32 score of each (row, col) from its float64 sum and error width; the
    few sums whose float32 the width leaves open are recomputed by `exact_sums`."""
    scores = sums.astype(np.float32)
    unsure = np.flatnonzero(
        (sums - widths).astype(np.float32) != (sums + widths).astype(np.float32)
    )
    if len(unsure):
        scores[unsure] = exact_sums(rows[unsure], cols[unsure]).astype(np.float32)
    return scores


def exact_pair_sums(
    queries: sp.csr_matrix,
    corpus: sp.csr_matrix | Postings,
    rows: np.ndarray,
    cols: np.ndarray,
    term_major: bool,
) -> np.ndarray:
    """The correctly rounded float64 sum of the products of query `rows` with documents
    `cols` (both as `operands` holds them; corpus term-major: terms x documents, else
    documents x terms)."""
    starts = queries.indptr[rows].astype(np.int64)
    lengths = queries.indptr[rows + 1].astype(np.int64) - starts
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    positions = np.repeat(starts - offsets[:-1], lengths) + np.arange(offsets[-1])
    terms = queries.indices[positions]
    docs = np.repeat(cols, lengths)
    if isinstance(corpus, Postings):
        picked = corpus.weights_at(terms, docs)
    else:
        picked = corpus[terms, docs] if term_major else corpus[docs, terms]
    products = queries.data[positions] * np.asarray(picked, dtype=np.float64).ravel()
    return np.array(
        [math.fsum(products[a:b]) for a, b in zip(offsets[:-1], offsets[1:], strict=True)],
        dtype=np.float64,
    )
