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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from sparsebench.errors import DataError

log = logging.getLogger(__name__)
_BYTES_PER_SCORE = 24  # a stored score: value, column index, and the selection's copies


@dataclass(frozen=True)
class RetrievedBatch:
    """Top-k results of a batch of queries, rows in rank order."""

    query_rows: np.ndarray  # (R,) index into the batch's query ids
    doc_rows: np.ndarray  # (R,) document index
    scores: np.ndarray  # (R,) float32
    ranks: np.ndarray  # (R,) 1-based
    n_queries: int  # queries in the batch, with or without results


def tie_break_keys(doc_ids: Sequence[str]) -> np.ndarray:
    """Position of each document id in byte order (larger id = larger key)."""
    codes, _ = pd.factorize(pd.Series(doc_ids, dtype=object), sort=True)
    return codes.astype(np.int64)


def batch_rows(n_docs: int, query_batch_size: int, max_block_mb: float) -> int:
    """Queries per batch so that a batch's scores stay within the budget even when every
    document matches every query (the worst case)."""
    fit = int(max_block_mb * 2**20 // max(n_docs * _BYTES_PER_SCORE, 1))
    return max(1, min(query_batch_size, fit))


def top_k_sparse(
    scores: sp.csr_matrix, k: int, tie_keys: np.ndarray, excluded: np.ndarray | None = None
) -> RetrievedBatch:
    """Top k of each row of a (queries x documents) CSR of scores; only stored entries
    (documents that matched) are candidates. `excluded` gives, per row, a document that
    must not be returned (-1 for none).

    Per row, one partition of that row's matches finds the k-th largest score, and every
    match at or above it (ties included) is a candidate; the candidates, about k per row,
    are then sorted by score and the tie key. The work follows the postings touched."""
    n_rows = scores.shape[0]
    data, indices, indptr = scores.data, scores.indices, scores.indptr
    positions = []
    for row in range(n_rows):
        lo, hi = int(indptr[row]), int(indptr[row + 1])
        values = data[lo:hi]
        if excluded is not None and excluded[row] >= 0:
            hit = np.flatnonzero(indices[lo:hi] == excluded[row])
            if len(hit):
                values = values.copy()
                values[hit] = -np.inf
        if hi - lo > k:
            kth = np.partition(values, hi - lo - k)[hi - lo - k]
            chosen = np.flatnonzero(values >= kth)
        else:
            chosen = np.arange(hi - lo)
        if excluded is not None:
            chosen = chosen[np.isfinite(values[chosen])]
        positions.append(chosen + lo)
    counts = np.fromiter((len(p) for p in positions), dtype=np.int64, count=n_rows)
    flat = np.concatenate(positions) if positions else np.zeros(0, np.int64)
    rows = np.repeat(np.arange(n_rows), counts)
    return rank_candidates(rows, indices[flat].astype(np.int64), data[flat], n_rows, k, tie_keys)


def rank_candidates(
    rows: np.ndarray,
    cols: np.ndarray,
    values: np.ndarray,
    n_rows: int,
    k: int,
    tie_keys: np.ndarray,
) -> RetrievedBatch:
    """Order candidates by score descending, then tie key descending, and keep k per row."""
    order = np.lexsort((-tie_keys[cols], -values, rows))
    rows, cols, values = rows[order], cols[order], values[order]
    starts = np.searchsorted(rows, np.arange(n_rows))
    ranks = np.arange(len(rows)) - starts[rows] + 1
    top = ranks <= k
    return RetrievedBatch(rows[top], cols[top], values[top], ranks[top], n_rows)


def check_inputs(
    queries: sp.csr_matrix,
    document_shape: tuple[int, int],
    query_term_weights: np.ndarray,
    doc_ids: Sequence[str],
    query_ids: Sequence[str],
) -> int:
    """Refuse matrices and id lists that do not belong together; return the document count."""
    n_docs, vocab = document_shape
    if queries.shape[1] != vocab or len(query_term_weights) != vocab:
        raise DataError(
            f"vocabulary sizes differ: queries {queries.shape[1]}, documents {vocab}, "
            f"IDF {len(query_term_weights)}; were they encoded by the same model?"
        )
    if len(doc_ids) != n_docs or len(query_ids) != queries.shape[0]:
        raise DataError("id lists do not match the matrices they label")
    return n_docs


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
    threads: int = 1,
    postings: sp.csr_matrix | None = None,
) -> Iterator[tuple[int, RetrievedBatch]]:
    """Yield (first query index, results) for consecutive batches of queries, in order.

    queries: (Q x V) query weights; documents: (N x V) document weights;
    query_term_weights: (V,) multiplied into the query weights (the IDF). With threads > 1
    batches are scored in parallel (the sparse products and partitions release the GIL).
    """
    # term-major: rows are posting lists (pass `postings` to skip the transposition and
    # hold only one copy of the corpus)
    inverted = postings if postings is not None else sp.csr_matrix(documents.T)
    n_docs = check_inputs(queries, inverted.shape[::-1], query_term_weights, doc_ids, query_ids)
    weighted = sp.csr_matrix(queries.multiply(query_term_weights[None, :].astype(np.float32)))
    tie_keys = tie_break_keys(doc_ids)
    excluded = None
    if ignore_identical_ids:
        excluded = pd.Index(doc_ids).get_indexer(list(query_ids)).astype(np.int64)
    rows_per_batch = batch_rows(n_docs, query_batch_size, max_block_mb)
    log.info(
        "retrieving top %d for %d queries over %d documents, %d queries per batch, %d threads",
        k,
        queries.shape[0],
        n_docs,
        rows_per_batch,
        threads,
    )

    def run(start: int) -> tuple[int, RetrievedBatch]:
        stop = min(start + rows_per_batch, queries.shape[0])
        scores = weighted[start:stop] @ inverted
        skip = None if excluded is None else excluded[start:stop]
        return start, top_k_sparse(scores, k, tie_keys, skip)

    starts = range(0, queries.shape[0], rows_per_batch)
    if threads <= 1:
        yield from map(run, starts)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        pending = []
        for start in starts:
            pending.append(pool.submit(run, start))
            if len(pending) > threads:  # bounded: at most threads + 1 batches in memory
                yield pending.pop(0).result()
        for job in pending:
            yield job.result()
