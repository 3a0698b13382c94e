"""Exact top-k retrieval by sparse products over an inverted (term-major) corpus view.

The corpus matrix is transposed once to term-major CSR, so a query batch's product
touches only the postings of its terms. Scores are scattered into a dense block of
(batch x documents) whose size the memory budget bounds, and the top k are selected
per row without sorting the whole row.

Order: score descending, then document id descending in byte order, the order in which
trec_eval reads a run (so the rank column agrees with trec_eval's). Only documents that
share a term with the query and score nonzero are retrieved.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from sparsebench.errors import DataError

log = logging.getLogger(__name__)
_BYTES_PER_SCORE = 16  # dense float32 block plus the sparse product that fills it


@dataclass(frozen=True)
class RetrievedBatch:
    """Top-k results of a batch of queries, rows in rank order."""

    query_rows: np.ndarray  # (R,) index into the batch's query ids
    doc_rows: np.ndarray  # (R,) document index
    scores: np.ndarray  # (R,) float32
    ranks: np.ndarray  # (R,) 1-based


def tie_break_keys(doc_ids: Sequence[str]) -> np.ndarray:
    """Position of each document id in byte order (larger id = larger key)."""
    codes, _ = pd.factorize(pd.Series(doc_ids, dtype=object), sort=True)
    return codes.astype(np.int64)


def batch_rows(n_docs: int, query_batch_size: int, max_block_mb: float) -> int:
    """Queries per batch so that a batch's score block stays within the budget."""
    fit = int(max_block_mb * 2**20 // max(n_docs * _BYTES_PER_SCORE, 1))
    return max(1, min(query_batch_size, fit))


def top_k_block(block: np.ndarray, k: int, tie_keys: np.ndarray) -> RetrievedBatch:
    """Top k of each row of a dense score block (-inf = not retrieved)."""
    n_rows, n_cols = block.shape
    if n_cols > k:
        part = np.argpartition(-block, k - 1, axis=1)[:, :k]
        threshold = np.take_along_axis(block, part, axis=1).min(axis=1)
    else:
        threshold = np.full(n_rows, -np.inf, dtype=block.dtype)
    candidates = (block >= threshold[:, None]) & np.isfinite(block)
    rows, cols = np.nonzero(candidates)
    scores = block[rows, cols]
    order = np.lexsort((-tie_keys[cols], -scores, rows))
    rows, cols, scores = rows[order], cols[order], scores[order]
    starts = np.searchsorted(rows, np.arange(n_rows))
    ranks = np.arange(len(rows)) - starts[rows] + 1
    keep = ranks <= k
    return RetrievedBatch(rows[keep], cols[keep], scores[keep], ranks[keep])


def retrieve(
    queries: sp.csr_matrix,
    documents: sp.csr_matrix,
    query_term_weights: np.ndarray,
    k: int,
    doc_ids: Sequence[str],
    query_ids: Sequence[str],
    query_batch_size: int = 256,
    max_block_mb: float = 1024,
    ignore_identical_ids: bool = False,
) -> Iterator[tuple[int, RetrievedBatch]]:
    """Yield (first query index, results) for consecutive batches of queries.

    queries: (Q x V) query weights; documents: (N x V) document weights;
    query_term_weights: (V,) multiplied into the query weights (the IDF).
    """
    n_docs, vocab = documents.shape
    if queries.shape[1] != vocab or len(query_term_weights) != vocab:
        raise DataError(
            f"vocabulary sizes differ: queries {queries.shape[1]}, documents {vocab}, "
            f"IDF {len(query_term_weights)}; were they encoded by the same model?"
        )
    if len(doc_ids) != n_docs or len(query_ids) != queries.shape[0]:
        raise DataError("id lists do not match the matrices they label")
    weighted = sp.csr_matrix(queries.multiply(query_term_weights[None, :].astype(np.float32)))
    inverted = sp.csr_matrix(documents.T)  # term-major: rows are posting lists
    tie_keys = tie_break_keys(doc_ids)
    doc_position = pd.Index(doc_ids) if ignore_identical_ids else None
    rows_per_batch = batch_rows(n_docs, query_batch_size, max_block_mb)
    log.info(
        "retrieving top %d for %d queries over %d documents, %d queries per batch",
        k,
        queries.shape[0],
        n_docs,
        rows_per_batch,
    )
    for start in range(0, queries.shape[0], rows_per_batch):
        stop = min(start + rows_per_batch, queries.shape[0])
        product = (weighted[start:stop] @ inverted).tocoo()
        block = np.full((stop - start, n_docs), -np.inf, dtype=np.float32)
        block[product.row, product.col] = product.data
        if doc_position is not None:
            hits = doc_position.get_indexer(list(query_ids[start:stop]))
            found = hits >= 0
            block[np.nonzero(found)[0], hits[found]] = -np.inf
        yield start, top_k_block(block, k, tie_keys)
