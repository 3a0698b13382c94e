"""Rank-safe dynamic pruning (MaxScore, Turtle and Flood 1995) over the blocked postings,
for a batch of queries at once: the run of exhaustive retrieval, byte for byte, from a
fraction of the postings.

A score is a sum of products q_t d_t, and with nonnegative weights q_t times the largest
weight of a list (Postings.row_max: a term's postings in one block of documents) bounds
what that list adds to any score. Given a floor that the k-th score is known to reach
(sparsebench.retrieve.topk.CandidatePool), a query's lists in a block whose bounds sum
below the floor are non-essential: a document in none of the other, essential lists
cannot reach the floor and is never looked at. Only the essential lists are read whole;
their documents whose partial sums plus the non-essential bounds reach the floor are
completed by looking up their weights in the non-essential lists (binary search) and
join the candidates. Frequent terms have small bounds, so their long lists are the ones
skipped.

The first floors come before any block is searched: each query's rarest terms (short
lists) are scored over the whole corpus, and the k-th largest of those partial sums is a
lower bound on the k-th score, since nonnegative weights make a partial sum at most the
whole. Every bound is inclusive of rounding (sums are widened by the error factor of
sparsebench.retrieve.exactscores), so a document that could tie the k-th score is never
dropped; candidates are settled and ranked as exhaustive retrieval ranks them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sparsebench.arrays import sorted_positions
from sparsebench.retrieve.postings import BLOCK_DOCS, Postings
from sparsebench.retrieve.products import block_product, entries_in_columns
from sparsebench.retrieve.topk import CandidatePool

# the rarest terms of a query scored for its first floor: their lists may hold this share
# of the corpus's documents together, or _RARE_PER_RESULT per result asked for if more
# (always the rarest term's)
_RARE_SHARE = 1 / 64
_RARE_PER_RESULT = 8
_LOOKUPS_PER_LIST = 32  # lookups per distinct list from which each list is searched once


def raise_first_floors(
    pool: CandidatePool,
    batch: sp.csr_matrix,
    postings: Postings,
    frequencies: np.ndarray,
    budget: float,
    excluded: np.ndarray | None = None,
) -> None:
    """Raise each query row's floor (and tie certificate) to what the partial sums of
    its rarest terms over the corpus give (nothing where they match fewer than k
    documents); a row's `excluded` document (-1 for none) counts for nothing."""
    rows = np.repeat(np.arange(batch.shape[0]), np.diff(batch.indptr))
    df = frequencies[batch.indices]
    order = np.lexsort((df, rows))  # per row, the rarest terms first
    within = _cumsum_by_group(df[order], rows[order])
    k = pool.k
    limit = max(_RARE_PER_RESULT * k, int(postings.shape[1] * _RARE_SHARE))
    rarest = np.zeros(len(order), dtype=bool)
    rarest[order] = (within <= limit) | (np.arange(len(order)) == batch.indptr[rows[order]])
    partial = CandidatePool(k, pool.factors, False, pool.tie_keys)
    rare = _kept(batch, rarest)
    for block in range(postings.n_blocks):
        products = block_product(rare, postings, block, budget)
        if products is not None:
            partial.add(products[0], block * BLOCK_DOCS, excluded=excluded)
    pool.raise_floors(partial)


def _kept(batch: sp.csr_matrix, keep: np.ndarray) -> sp.csr_matrix:
    """The batch with only its stored entries `keep` (the same shape)."""
    return entries_in_columns(batch, keep, batch.indices, batch.shape[1])


def search_block(
    batch: sp.csr_matrix,
    postings: Postings,
    block: int,
    pool: CandidatePool,
    budget: float,
    excluded: np.ndarray | None,
) -> None:
    """Add to the pool every document of `block` that can reach its row's floor, with its
    full sum: the essential lists read whole, the others only where they are needed."""
    columns, hit = sorted_positions(postings.block_terms(block), batch.indices)
    if not hit.any():
        return
    n_rows = batch.shape[0]
    rows = np.repeat(np.arange(n_rows), np.diff(batch.indptr))
    entries = np.flatnonzero(hit)
    lists = int(postings.block_rows[block]) + columns[entries]
    query_rows, weights = rows[entries], batch.data[entries]
    bounds = weights * postings.row_max[lists].astype(np.float64)  # exact products
    widen = 1 + 2 * pool.factors  # a float64 sum's bound on the exact one, per row
    order = np.lexsort((bounds, query_rows))  # per row, the smallest bounds first
    cumulative = _cumsum_by_group(bounds[order], query_rows[order])
    optional = np.zeros(len(entries), dtype=bool)
    optional[order] = cumulative * widen[query_rows[order]] < pool.floors[query_rows[order]]
    optional_bound = np.zeros(n_rows)
    np.maximum.at(optional_bound, query_rows[order], np.where(optional[order], cumulative, 0))
    essential = np.zeros(len(batch.data), dtype=bool)
    essential[entries[~optional]] = True
    products = block_product(_kept(batch, essential), postings, block, budget)
    if products is None:
        return
    sums = products[0]
    sum_rows = np.repeat(np.arange(n_rows), np.diff(sums.indptr))
    first_doc = block * BLOCK_DOCS
    found = _Candidates(sums.indices, sum_rows, sums.data, optional_bound[sum_rows])
    found.keep(found.reaching(pool, first_doc, widen))
    if optional.any():
        _complete(
            postings,
            found,
            lists[optional],
            query_rows[optional],
            weights[optional],
            pool,
            first_doc,
            widen,
        )
        found.keep(found.reaching(pool, first_doc, widen))
    counts = np.bincount(found.rows, minlength=n_rows)
    pool.add(
        sp.csr_matrix(
            (found.partial, found.docs, np.concatenate([[0], np.cumsum(counts)])),
            shape=(n_rows, postings.block_width(block)),
        ),
        first_doc,
        excluded=excluded,
    )


@dataclass
class _Candidates:
    """Documents of a block (local ids) that may reach their query row's floor: partial
    sums so far and the bound on what their row's lists not yet read can add."""

    docs: np.ndarray
    rows: np.ndarray
    partial: np.ndarray
    remaining: np.ndarray

    def keep(self, which: np.ndarray) -> None:
        self.docs, self.rows = self.docs[which], self.rows[which]
        self.partial, self.remaining = self.partial[which], self.remaining[which]

    def reaching(self, pool: CandidatePool, first_doc: int, widen: np.ndarray) -> np.ndarray:
        """Which may still reach their row's top k (partial sum plus the bound on the
        rest, widened by the row's rounding room)."""
        uppers = (self.partial + self.remaining) * widen[self.rows]
        return pool.reaching(self.rows, self.docs + first_doc, uppers)


def _complete(
    postings: Postings,
    found: _Candidates,
    lists: np.ndarray,
    list_rows: np.ndarray,
    weights: np.ndarray,
    pool: CandidatePool,
    first_doc: int,
    widen: np.ndarray,
) -> None:
    """Add to each candidate its weights in its row's non-essential `lists` (query
    weights `weights`), the list of largest bound first; after each list, candidates
    that can no longer reach the floor (partial sum plus the bounds of the lists left)
    are dropped, so that the long lists are searched for few documents."""
    bounds = weights * postings.row_max[lists].astype(np.float64)
    order = np.lexsort((-bounds, list_rows))
    lists, list_rows = lists[order], list_rows[order]
    weights, bounds = weights[order], bounds[order]
    # per list, the bounds of its row's lists after it, summed afresh (not subtracted)
    after = _cumsum_by_group(bounds[::-1], list_rows[::-1])[::-1] - bounds
    per_row = np.bincount(list_rows, minlength=len(pool.floors))
    first = np.concatenate([[0], np.cumsum(per_row)])[:-1]
    for step in range(int(per_row.max(initial=0))):
        has = per_row[found.rows] > step
        which = first[found.rows[has]] + step
        found.partial[has] += weights[which] * _weights_at(postings, lists[which], found.docs[has])
        found.remaining[has] = np.maximum(after[which], 0)
        found.keep(found.reaching(pool, first_doc, widen))


def _weights_at(postings: Postings, lists: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """The weight (float64) of each local document id in the list beside it, 0 where
    the list does not hold it. Many lookups in few lists (frequent terms shared by the
    batch's queries) search each list once for all of its documents; scattered ones
    bisect every span at once."""
    order = np.argsort(lists, kind="stable")
    ordered = lists[order]
    cuts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1], True])
    if len(docs) < _LOOKUPS_PER_LIST * (len(cuts) - 1):
        return postings.row_weights(lists, docs)
    local, out = docs.astype(postings.ids.dtype), np.zeros(len(docs))
    for first, last in zip(cuts[:-1], cuts[1:], strict=True):
        start, end = (int(postings.indptr[ordered[first] + i]) for i in (0, 1))
        ids, wanted = postings.ids[start:end], order[first:last]
        at = np.minimum(np.searchsorted(ids, local[wanted]), len(ids) - 1)
        present = ids[at] == local[wanted]
        out[wanted[present]] = postings.data[start + at[present]]
    return out


def _cumsum_by_group(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Running sums of values restarting at each group (groups sorted, contiguous), each
    added in order within its group, so that a sum's rounding is its group's alone."""
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    position = np.arange(len(values)) - np.repeat(starts, np.diff(np.r_[starts, len(values)]))
    out = values.astype(np.float64)
    for step in range(1, int(position.max(initial=0)) + 1):
        at = np.flatnonzero(position == step)
        out[at] += out[at - 1]
    return out
