"""Exact top-k retrieval by sparse products over the postings, a block of documents at a
time (sparsebench.retrieve.postings).

A query batch is multiplied with the lists of its terms in each block of 65,536
documents: the product touches only those postings, its accumulators stay in the CPU's
cache, and it holds float64 sums of exact products for the block's documents only. The
top k over the blocks are gathered as they come (sparsebench.retrieve.topk), their
float32 scores settled so that no summation order changes them
(sparsebench.retrieve.exactscores).

Only documents that share a term with the query and score nonzero are retrieved.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import scipy.sparse as sp

try:  # scipy's C++ sparse product, called without its symbolic pass (see _product)
    from scipy.sparse._sparsetools import csr_matmat as _csr_matmat
except ImportError:  # a scipy that moved it: the public product, one pass slower
    _csr_matmat = None

from sparsebench.arrays import sorted_positions
from sparsebench.errors import ConfigError, DataError
from sparsebench.retrieve.exactscores import absolute, exact_pair_sums, operands
from sparsebench.retrieve.postings import BLOCK_DOCS, Postings, as_postings
from sparsebench.retrieve.topk import CandidatePool, RetrievedBatch, tie_break_keys

log = logging.getLogger(__name__)
# a stored sum of a block: float64 value, column index, its row, bounds and selection copies
_BYTES_PER_SCORE = 48
# a touched posting widened: float64 value, int32 id, its position, and the product's copy
_BYTES_PER_POSTING = 32
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
    columns, hit = sorted_positions(postings.block_terms(block), batch.indices)
    if not hit.any():
        return None
    touched = np.unique(columns[hit])
    lengths = postings.block_lengths(block, touched)
    whole = postings.block_nnz(block)
    if widened is not None or (
        lengths.sum() >= _WHOLE_BLOCK * whole and whole * _BYTES_PER_POSTING <= budget_bytes
    ):
        groups = [(columns, hit, widened or (postings.block_lists(block), None))]
    else:
        per_group = max(int(budget_bytes // _BYTES_PER_POSTING), 1)
        group = np.cumsum(lengths) // per_group  # rows whose lists fit together
        groups = []
        for rows in np.split(touched, np.flatnonzero(np.diff(group)) + 1):
            inside, mine = sorted_positions(rows, columns)
            groups.append((inside, hit & mine, (postings.block_lists(block, rows), None)))
    totals = [None, None]
    for inside, mine, (lists, absolute_lists) in groups:
        left = _columns(batch, mine, inside, lists.shape[0])
        parts = [_product(left, lists)]
        if magnitudes is not None:
            right = absolute_lists if absolute_lists is not None else absolute(lists)
            parts.append(_product(_columns(magnitudes, mine, inside, lists.shape[0]), right))
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


def _columns(
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
    tie_keys = tie_break_keys(doc_ids)
    excluded = None
    if ignore_identical_ids:
        excluded = pd.Index(doc_ids).get_indexer(list(query_ids)).astype(np.int64)
    # each of the threads' batches: half for the touched postings, half for the sums
    budget = max_block_mb * 2**20 / max(threads, 1) / 2
    rows_per_batch = batch_rows(min(n_docs, BLOCK_DOCS), query_batch_size, budget)
    widened: list[Lists | None] = [None] * inverted.n_blocks
    if inverted.nnz * _BYTES_PER_POSTING <= budget:  # the whole index widened fits: once
        for block in range(inverted.n_blocks):
            lists = inverted.block_lists(block)
            widened[block] = lists, absolute(lists) if summed.signed else None
    log.info(
        "retrieving top %d for %d queries over %d documents in %d blocks, %d queries per "
        "batch, %d threads",
        k,
        queries.shape[0],
        n_docs,
        inverted.n_blocks,
        rows_per_batch,
        threads,
    )

    def run(start: int) -> tuple[int, RetrievedBatch]:
        stop = min(start + rows_per_batch, queries.shape[0])
        batch = weighted[start:stop]
        pool = CandidatePool(k, factors[start:stop], summed.signed)
        magnitudes = absolute(batch) if summed.signed else None
        skipped = None if excluded is None else excluded[start:stop]
        for block in range(inverted.n_blocks):
            products = block_product(batch, inverted, block, budget, widened[block], magnitudes)
            if products is not None:
                pool.add(products[0], block * BLOCK_DOCS, products[1], skipped)

        def exact(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
            return exact_pair_sums(batch, inverted, rows, cols, term_major=True)

        return start, pool.top_k(tie_keys, exact)

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
