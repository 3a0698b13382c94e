"""Sparse products of a query batch with the lists of its terms in one block of
documents (sparsebench.search.postings): exhaustive search on the CPU for weights of
both signs and for a k deeper than the block scan takes (sparsebench.search.scipy_backend;
nonnegative weights are otherwise searched by sparsebench.search.compiled_search).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

try:  # scipy's C++ sparse product, called without its symbolic pass (see _product)
    from scipy.sparse._sparsetools import csr_matmat as _csr_matmat
except ImportError:  # a scipy that moved it: the public product, one pass slower
    _csr_matmat = None

from sparsebench.core.arrays import sorted_positions
from sparsebench.search.exactscores import absolute
from sparsebench.search.postings import Postings

# a stored sum of a block: float64 value, column index, its row, bounds and selection copies
_BYTES_PER_SCORE = 48
# a touched posting widened: float64 value, int32 id, its position, and the product's copy
BYTES_PER_POSTING = 32
_INT32_MAX = np.iinfo(np.int32).max
_WHOLE_BLOCK = 0.5  # widen a block's every list when the touched ones are this share of it


def batch_rows(block_docs: int, query_batch_size: int, budget_bytes: float) -> int:
    """Queries per batch so that the sums of a block stay within the budget even when
    every document of the block matches every query (the worst case)."""
    fit = int(budget_bytes // max(block_docs * _BYTES_PER_SCORE, 1))
    return max(1, min(query_batch_size, fit))


Lists = tuple[sp.csr_matrix, sp.csr_matrix | None]  # a block's widened lists, |lists|


def block_product(
    batch: sp.csr_matrix,
    postings: Postings,
    block: int,
    budget_bytes: float,
    widened: Lists | None = None,
    magnitudes: sp.csr_matrix | None = None,
) -> tuple[sp.csr_matrix, sp.csr_matrix | None] | None:
    """batch @ the lists of its terms in `block` (queries x the block's documents; None
    when the batch has no term there), and with `magnitudes` (the batch's |weights|, for
    weights of both signs) also the sums of |q_t d_t| from the same widened lists. The
    touched lists are widened (or `widened`, the block's every list, is used), a group
    of them at a time within the budget; the groups' products are added."""
    columns = postings.block_rows_of(block, batch.indices)
    hit = columns >= 0
    if not hit.any():
        return None
    touched = np.unique(columns[hit])
    lengths = postings.block_lengths(block, touched)
    whole = postings.block_nnz(block)
    if widened is not None or (
        lengths.sum() >= _WHOLE_BLOCK * whole and whole * BYTES_PER_POSTING <= budget_bytes
    ):
        groups = [(columns, hit, widened or (postings.block_lists(block), None))]
    else:
        per_group = max(int(budget_bytes // BYTES_PER_POSTING), 1)
        group = np.cumsum(lengths) // per_group  # rows whose lists fit together
        groups = []
        for rows in np.split(touched, np.flatnonzero(np.diff(group)) + 1):
            inside, mine = sorted_positions(rows, columns)
            groups.append((inside, hit & mine, (postings.block_lists(block, rows), None)))
    totals = [None, None]
    for inside, mine, (lists, absolute_lists) in groups:
        left = entries_in_columns(batch, mine, inside, lists.shape[0])
        parts = [_product(left, lists)]
        if magnitudes is not None:
            right = absolute_lists if absolute_lists is not None else absolute(lists)
            left_magnitudes = entries_in_columns(magnitudes, mine, inside, lists.shape[0])
            parts.append(_product(left_magnitudes, right))
        for i, part in enumerate(parts):
            totals[i] = part if totals[i] is None else totals[i] + part
    sums, magnitude_sums = totals
    return sp.csr_matrix(sums), None if magnitude_sums is None else sp.csr_matrix(magnitude_sums)


def _product(left: sp.csr_matrix, right: sp.csr_matrix) -> sp.csr_matrix:
    """left @ right (float64, int32 indices). scipy's product first counts the result's
    entries exactly, a second pass over every touched posting; here the result is
    allocated for a bound instead (per row, at most the lengths of its lists and at most
    the block's documents: within the batch's budget of sums) and filled in one pass."""
    n_rows, width = left.shape[0], right.shape[1]
    bound = min(n_rows * width, int(np.diff(right.indptr)[left.indices].sum()))
    if _csr_matmat is None or bound >= _INT32_MAX:
        return sp.csr_matrix(left @ right)
    indptr = np.empty(n_rows + 1, dtype=np.int32)
    indices = np.empty(bound, dtype=np.int32)
    data = np.empty(bound, dtype=np.float64)
    _csr_matmat(
        n_rows,
        width,
        left.indptr.astype(np.int32),
        left.indices.astype(np.int32),
        left.data.astype(np.float64),
        right.indptr.astype(np.int32),
        right.indices.astype(np.int32, copy=False),
        right.data.astype(np.float64, copy=False),
        indptr,
        indices,
        data,
    )
    used = int(indptr[-1])
    return sp.csr_matrix((data[:used], indices[:used], indptr), shape=(n_rows, width))


def entries_in_columns(
    batch: sp.csr_matrix, keep: np.ndarray, columns: np.ndarray, width: int
) -> sp.csr_matrix:
    """The batch's entries `keep` in new `columns` (a matrix of `width` columns), each
    row's entries in their stored order."""
    rows = np.repeat(np.arange(batch.shape[0]), np.diff(batch.indptr))
    counts = np.bincount(rows[keep], minlength=batch.shape[0])
    return sp.csr_matrix(
        (batch.data[keep], columns[keep], np.concatenate([[0], np.cumsum(counts)])),
        shape=(batch.shape[0], width),
    )
