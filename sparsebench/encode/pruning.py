"""Static pruning of learned sparse document vectors: a weight threshold and top-k per row.

Pruning runs on the stored (unpruned) encoding, so the points of a top_k or threshold
sweep share one encoding of the corpus. The rule is deterministic: weights at or below
the threshold go first, then each row keeps its k largest weights, ties going to the
lower term id.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

# rows pruned per block, so that the sort's temporaries stay bounded on big corpora
ROWS_PER_BLOCK = 65_536


def _prune_block(block: sp.csr_matrix, top_k: int | None, threshold: float) -> sp.csr_matrix:
    rows = np.repeat(np.arange(block.shape[0]), np.diff(block.indptr))
    keep = block.data > threshold
    if top_k is not None:
        # within each row: weight descending, then term id ascending
        order = np.lexsort((block.indices, -block.data, rows))
        kept_rows = rows[order]
        starts = np.searchsorted(kept_rows, kept_rows, side="left")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order)) - starts
        keep &= rank < top_k
    counts = np.bincount(rows[keep], minlength=block.shape[0])
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(block.indptr.dtype)
    return sp.csr_matrix(
        (block.data[keep], block.indices[keep], indptr), shape=block.shape, copy=False
    )


def prune_rows(
    matrix: sp.csr_matrix, top_k: int | None = None, threshold: float = 0.0
) -> sp.csr_matrix:
    """Drop weights <= `threshold`, then keep the `top_k` largest of each row (all when
    None); with neither set the matrix is returned as is. Column order within rows is kept."""
    if top_k is not None and top_k < 1:
        raise ValueError(f"top_k must be at least 1, not {top_k}")
    if threshold < 0:
        raise ValueError(f"threshold must be non-negative, not {threshold}")
    matrix = sp.csr_matrix(matrix)
    if top_k is None and threshold == 0:
        return matrix
    blocks = [
        _prune_block(matrix[start : start + ROWS_PER_BLOCK], top_k, threshold)
        for start in range(0, matrix.shape[0], ROWS_PER_BLOCK)
    ]
    if not blocks:
        return matrix
    return sp.vstack(blocks, format="csr") if len(blocks) > 1 else blocks[0]
