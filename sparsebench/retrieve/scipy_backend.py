"""Exact top-k retrieval by sparse products over an inverted (term-major) corpus view.

The corpus matrix is transposed once to term-major CSR, so a query batch's product
touches only the postings of its terms. The product holds float64 sums of exact
products, at most (batch x documents) of them, a size the memory budget bounds; the top
k are selected per row without sorting the whole row, and their float32 scores are
settled so that no summation order changes them (sparsebench.retrieve.exactscores).

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

from sparsebench.errors import ConfigError, DataError
from sparsebench.retrieve.exactscores import (
    ExactSums,
    absolute,
    candidate_floor,
    exact_pair_sums,
    operands,
    settle,
)
from sparsebench.retrieve.postings import Postings, as_postings

log = logging.getLogger(__name__)
_MAX_TIE_KEY = 2**32 - 1  # tie keys share a 64-bit sort key with the score's 32 bits
_BYTES_PER_SCORE = 24  # a stored sum: float64 value, column index, and the selection's copies
# a touched posting widened: its position, float64 value, id, and the product's copy
_BYTES_PER_POSTING = 32


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
    if len(doc_ids) > _MAX_TIE_KEY:
        raise DataError(f"{len(doc_ids)} documents: more than {_MAX_TIE_KEY} are not supported")
    codes, _ = pd.factorize(pd.Series(doc_ids, dtype=object), sort=True)
    return codes.astype(np.int64)


def batch_rows(n_docs: int, query_batch_size: int, max_block_mb: float) -> int:
    """Queries per batch so that a batch's scores stay within the budget even when every
    document matches every query (the worst case)."""
    fit = int(max_block_mb * 2**20 // max(n_docs * _BYTES_PER_SCORE, 1))
    return max(1, min(query_batch_size, fit))


def touched_product(
    batch: sp.csr_matrix, inverted: Postings | sp.csr_matrix, budget_bytes: float
) -> sp.csr_matrix:
    """batch @ inverted (queries x documents), reading only the posting lists of the
    batch's terms: they are widened to float64 (exact products) a group of terms at a
    time, each group's copy within the budget, so a stored narrow or memory-mapped index
    is never copied whole. Lists already widened (a float64 CSR matrix) are multiplied
    as they are."""
    if isinstance(inverted, sp.csr_matrix):
        return sp.csr_matrix(batch @ inverted)
    terms = np.unique(batch.indices)
    per_group = max(int(budget_bytes // _BYTES_PER_POSTING), 1)
    group = np.cumsum(inverted.list_lengths(terms)) // per_group  # terms whose lists fit
    cuts = np.flatnonzero(np.diff(group)) + 1
    total = None
    for chosen in np.split(terms, cuts):
        part = batch[:, chosen] @ inverted.lists(chosen)
        total = part if total is None else total + part
    if total is None:
        return sp.csr_matrix((batch.shape[0], inverted.shape[1]), dtype=np.float64)
    return sp.csr_matrix(total)


def top_k_sparse(
    sums: sp.csr_matrix,
    k: int,
    tie_keys: np.ndarray,
    factors: np.ndarray,
    exact_sums: ExactSums,
    excluded: np.ndarray | None = None,
    magnitudes: sp.csr_matrix | None = None,
) -> RetrievedBatch:
    """Top k of each row of a (queries x documents) CSR of float64 sums; only stored
    entries (documents that share a term with the query) are candidates. `factors` give
    each row's error factor (exactscores.error_factors); `magnitudes`, for weights of
    both signs, the sums of |q_t d_t| on a pattern that holds the sums'. `excluded` gives,
    per row, a document that must not be returned (-1 for none).

    Per row, one partition finds the k-th largest lower bound of the exact scores, and
    every entry whose upper bound reaches it is a candidate (about k per row, ties and
    near-ties included); the candidates' float32 scores are settled exactly, then sorted
    by score and the tie key. The work follows the postings touched."""
    if magnitudes is not None:
        pattern = magnitudes
        entry_rows = np.repeat(np.arange(pattern.shape[0]), np.diff(pattern.indptr))
        values = np.asarray(sums[entry_rows, pattern.indices], dtype=np.float64).ravel()
        bases = pattern.data
    else:
        pattern, values, bases = sums, sums.data, None
    n_rows = pattern.shape[0]
    indices, indptr = pattern.indices, pattern.indptr
    positions = []
    for row in range(n_rows):
        lo, hi = int(indptr[row]), int(indptr[row + 1])
        row_values, factor = values[lo:hi], factors[row]
        if excluded is not None and excluded[row] >= 0:
            hit = np.flatnonzero(indices[lo:hi] == excluded[row])
            if len(hit):
                row_values = row_values.copy()
                row_values[hit] = -np.inf
        if hi - lo <= k:
            chosen = np.arange(hi - lo)
        elif bases is None:  # nonnegative: bounds s (1 -+ c), monotonic in s
            kth = np.partition(row_values, hi - lo - k)[hi - lo - k]
            chosen = np.flatnonzero(row_values >= candidate_floor(kth * (1 - 2 * factor)))
        else:
            width = bases[lo:hi] * factor
            kth = np.partition(row_values - width, hi - lo - k)[hi - lo - k]
            chosen = np.flatnonzero(row_values + width >= candidate_floor(kth))
        if excluded is not None:
            chosen = chosen[np.isfinite(row_values[chosen])]
        positions.append(chosen + lo)
    counts = np.fromiter((len(p) for p in positions), dtype=np.int64, count=n_rows)
    flat = np.concatenate(positions) if positions else np.zeros(0, np.int64)
    rows = np.repeat(np.arange(n_rows), counts)
    cols = indices[flat].astype(np.int64)
    chosen_sums = values[flat]
    widths = factors[rows] * (chosen_sums if bases is None else bases[flat])
    scores = settle(chosen_sums, widths, rows, cols, exact_sums)
    nonzero = scores != 0
    return rank_candidates(rows[nonzero], cols[nonzero], scores[nonzero], n_rows, k, tie_keys)


def rank_candidates(
    rows: np.ndarray,
    cols: np.ndarray,
    values: np.ndarray,
    n_rows: int,
    k: int,
    tie_keys: np.ndarray,
) -> RetrievedBatch:
    """Order candidates by score descending, then tie key descending, and keep k per row.

    One 64-bit key per candidate carries both orders (the score's float32 bits mapped to
    an ascending unsigned integer, then the tie key); a document occurs once per row, so
    keys within a row are distinct and any sort gives the same order. The key sort, then
    a stable sort by row (a radix sort for small row numbers), replace a three-key
    lexsort at a sixth of its cost."""
    order = np.argsort(_descending_keys(values, tie_keys[cols]))
    row_type = np.uint16 if n_rows <= np.iinfo(np.uint16).max else np.int64
    order = order[np.argsort(rows[order].astype(row_type), kind="stable")]
    rows, cols, values = rows[order], cols[order], values[order]
    starts = np.searchsorted(rows, np.arange(n_rows))
    ranks = np.arange(len(rows)) - starts[rows] + 1
    top = ranks <= k
    return RetrievedBatch(rows[top], cols[top], values[top], ranks[top], n_rows)


def _descending_keys(scores: np.ndarray, ties: np.ndarray) -> np.ndarray:
    """uint64 keys whose ascending order is (score descending, tie key descending)."""
    bits = np.ascontiguousarray(scores, dtype=np.float32).view(np.uint32)
    # IEEE order as unsigned order: negative floats flip every bit, others the sign bit
    ascending = np.where(bits >> 31, ~bits, bits | np.uint32(1 << 31))
    high = (~ascending).astype(np.uint64) << np.uint64(32)
    return high | (np.uint64(_MAX_TIE_KEY) - ties.astype(np.uint64))


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
    postings: Postings | sp.csr_matrix,
    query_term_weights: np.ndarray,
    k: int,
    doc_ids: Sequence[str],
    query_ids: Sequence[str],
    query_batch_size: int = 256,
    max_block_mb: float = 1024,
    ignore_identical_ids: bool = False,
    threads: int = 1,
    device: str = "cpu",
) -> Iterator[tuple[int, RetrievedBatch]]:
    """Yield (first query index, results) for consecutive batches of queries, in order.

    queries: (Q x V) query weights; postings: (V x N) document weights, term-major (rows
    are posting lists; sparsebench.retrieve.postings); query_term_weights: (V,) multiplied
    into the query weights (the IDF). With threads > 1 batches are scored in parallel
    (the sparse products and partitions release the GIL). `device`: the CPU only (the
    torch backend takes the same arguments for a CUDA device).
    """
    if device not in ("auto", "cpu"):
        raise ConfigError(f"the scipy backend runs on the CPU, not {device!r}")
    inverted = as_postings(postings)
    n_docs = check_inputs(queries, inverted.shape[::-1], query_term_weights, doc_ids, query_ids)
    summed = operands(queries, inverted, query_term_weights)
    weighted, factors = summed.queries, summed.factors
    inverted_magnitudes = inverted.absolute() if summed.signed else None
    tie_keys = tie_break_keys(doc_ids)
    excluded = None
    if ignore_identical_ids:
        excluded = pd.Index(doc_ids).get_indexer(list(query_ids)).astype(np.int64)
    rows_per_batch = batch_rows(n_docs, query_batch_size, max_block_mb)
    budget = max_block_mb * 2**20 / 2  # half for the touched postings, half for the sums
    if inverted.nnz * _BYTES_PER_POSTING <= budget:  # the whole index widened fits: once
        inverted = inverted.lists()
        if inverted_magnitudes is not None:
            inverted_magnitudes = inverted_magnitudes.lists()
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
        batch = weighted[start:stop]
        magnitudes = None
        if inverted_magnitudes is not None:
            magnitudes = touched_product(absolute(batch), inverted_magnitudes, budget)

        def exact(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
            return exact_pair_sums(batch, inverted, rows, cols, term_major=True)

        return start, top_k_sparse(
            touched_product(batch, inverted, budget),
            k,
            tie_keys,
            factors[start:stop],
            exact,
            None if excluded is None else excluded[start:stop],
            magnitudes,
        )

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
