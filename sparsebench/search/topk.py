"""The top k of each query from float64 sums whose float32 scores are settled exactly,
gathered part by part (a block of documents at a time) without holding every sum.

Per row, one partition finds the k-th largest lower bound of the exact scores, and every
sum whose upper bound reaches it is a candidate (about k per row, ties and near-ties
included); the candidates' float32 scores are settled exactly
(sparsebench.search.exactscores), then sorted by score and the tie key. Over parts,
a row keeps its candidates so far and their k-th lower bound as a floor (the k-th over
all parts is at least as large): a new part's sums below the floor are dropped unread,
the rest join the candidates, and the floor rises to the k-th of the union. A row thus
holds about k candidates whatever the number of parts, and its last floor is the one
the whole row's sums give. The work follows the sums, the memory the candidates.

Ties at the floor: with integer or coarsely quantised weights thousands of documents can
share the k-th score, and all of them reach the floor. The row's k-th lower bound L
comes with a certificate: at least k candidates e have exact scores >= L, so float32
scores >= float32(L), and the k-th largest tie key K among them. A document whose upper
bound rounds to a float32 no larger than float32(L) and whose tie key is below K has k
documents ranked above it (a higher score, or an equal one and a larger key) and is
dropped, so a row holds about k candidates even when its k-th score is shared by many.

Order: score descending, then document id descending in byte order, the order in which
trec_eval reads a run (so the rank column agrees with trec_eval's).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from sparsebench.core.arrays import descending_score_keys
from sparsebench.search.docids import MAX_TIE_KEY
from sparsebench.search.exactscores import ExactSums, candidate_floor, settle


@dataclass(frozen=True)
class RetrievedBatch:
    """Top-k results of a batch of queries, rows in rank order."""

    query_rows: np.ndarray  # (R,) index into the batch's query ids
    doc_rows: np.ndarray  # (R,) document index
    scores: np.ndarray  # (R,) float32
    ranks: np.ndarray  # (R,) 1-based
    n_queries: int  # queries in the batch, with or without results


@dataclass
class CandidatePool:
    """The candidates of a batch's rows, added a part of the documents at a time.

    `factors` give each row's error factor (exactscores.error_factors); `signed`: the
    weights have both signs, and each part comes with the sums of |q_t d_t| (bases of
    the error bounds; nonnegative weights are their own); `tie_keys`: every document's
    tie key (docids.document_tie_keys). Per row, `floors` is the least upper bound a
    candidate needs, and `levels` and `tie_floors` the tie certificate (float32(L) and K
    above)."""

    k: int
    factors: np.ndarray
    signed: bool
    tie_keys: np.ndarray
    floors: np.ndarray = field(init=False)
    levels: np.ndarray = field(init=False)
    tie_floors: np.ndarray = field(init=False)
    _pools: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]] = field(init=False)
    _chosen: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.floors = np.full(len(self.factors), -np.inf)
        self.levels = np.full(len(self.factors), -np.inf, dtype=np.float32)
        self.tie_floors = np.full(len(self.factors), -1, dtype=np.int64)
        empty = np.zeros(0, np.int64), np.zeros(0), np.zeros(0) if self.signed else None
        self._pools = [empty] * len(self.factors)

    def raise_floors(self, other: CandidatePool) -> None:
        """Take another pool's floors and tie certificates over the same rows (from
        partial sums, which bound the whole scores from below)."""
        self.floors = np.maximum(self.floors, other.floors)
        newer = (other.levels > self.levels) | (
            (other.levels == self.levels) & (other.tie_floors > self.tie_floors)
        )
        self.levels = np.where(newer, other.levels, self.levels)
        self.tie_floors = np.where(newer, other.tie_floors, self.tie_floors)

    def reaching(self, rows: np.ndarray, docs: np.ndarray, uppers: np.ndarray) -> np.ndarray:
        """Whether each document (global id), with this upper bound on its row's exact
        score (a true bound: the rounding room included), may still be among the row's
        top k."""
        keep = uppers >= self.floors[rows]
        at = np.flatnonzero(keep)  # the tie rule only where the floor leaves a doubt
        keep[at] = ~self._outranked(rows[at], docs[at], uppers[at])
        return keep

    def _outranked(self, rows: np.ndarray | int, docs: np.ndarray, uppers: np.ndarray):
        """Documents that the row's tie certificate ranks below k others (their tie keys
        read only where their upper bound rounds to the certified level or below)."""
        out = uppers.astype(np.float32) <= self.levels[rows]
        at = np.flatnonzero(out)
        tie_floors = self.tie_floors[rows] if np.ndim(rows) == 0 else self.tie_floors[rows[at]]
        out[at] = self.tie_keys[docs[at]] < tie_floors
        return out

    def add(
        self,
        sums: sp.csr_matrix,
        first_doc: int,
        magnitudes: sp.csr_matrix | None = None,
        excluded: np.ndarray | None = None,
    ) -> None:
        """Sums of documents first_doc onwards (rows x documents of the part; only stored
        entries are candidates); `magnitudes`, for signed weights, the sums of |q_t d_t|
        on a pattern that holds the sums'; `excluded`, per row, a document that must not
        be returned (-1 for none)."""
        if magnitudes is not None:
            pattern = magnitudes
            rows = np.repeat(np.arange(pattern.shape[0]), np.diff(pattern.indptr))
            values = np.asarray(sums[rows, pattern.indices], dtype=np.float64).ravel()
            bases = pattern.data
        else:
            pattern, values, bases = sums, sums.data, None
        indptr = pattern.indptr
        for row in np.flatnonzero(np.diff(indptr)):
            span = slice(int(indptr[row]), int(indptr[row + 1]))
            row_values, row_bases = values[span], None if bases is None else bases[span]
            upper = self._upper(row, row_values, row_bases)
            keep = np.flatnonzero(upper >= self.floors[row])
            docs = pattern.indices[span][keep] + first_doc
            inside = self._not_outranked(row, docs, row_values, row_bases, keep)
            keep, docs = keep[inside], docs[inside]
            if excluded is not None and excluded[row] >= first_doc:
                inside = docs != excluded[row]
                keep, docs = keep[inside], docs[inside]
            pool_cols, pool_values, pool_bases = self._pools[row]
            self._pools[row] = self._choose(
                row,
                np.concatenate([pool_cols, docs]),
                np.concatenate([pool_values, row_values[keep]]),
                None if row_bases is None else np.concatenate([pool_bases, row_bases[keep]]),
            )

    def add_chosen(self, counts: np.ndarray, docs: np.ndarray, sums: np.ndarray) -> None:
        """A compiled search's candidates (sparsebench.search.compiled_search), the
        pool's only ones: counts[row] of them per row, in order (documents and float64
        sums of nonnegative weights). They are taken as they are, for that search made
        this pool's decisions as it went: each row's floor and tie certificate rose with
        the sums it found, and cut its candidates at the end."""
        if self._chosen is not None or any(len(cols) for cols, _, _ in self._pools):
            raise ValueError("a compiled search's candidates are a pool's only ones")
        self._chosen = np.repeat(np.arange(len(counts)), counts), docs, sums

    def top_k(self, tie_keys: np.ndarray, exact_sums: ExactSums) -> RetrievedBatch:
        """The top k of every row among its candidates."""
        n_rows = len(self.factors)
        pools, self._pools = self._pools, []
        if self._chosen is not None:
            (rows, cols, values), self._chosen = self._chosen, None
        else:
            rows = np.repeat(np.arange(n_rows), [len(cols) for cols, _, _ in pools])
            cols = np.concatenate([np.zeros(0, np.int64)] + [cols for cols, _, _ in pools])
            values = np.concatenate([np.zeros(0)] + [values for _, values, _ in pools])
        if self.signed:
            bases = np.concatenate([np.zeros(0)] + [bases for _, _, bases in pools])
        else:
            bases = values
        scores = settle(values, self.factors[rows] * bases, rows, cols, exact_sums)
        nonzero = scores != 0
        return rank_candidates(
            rows[nonzero], cols[nonzero], scores[nonzero], n_rows, self.k, tie_keys
        )

    def _not_outranked(
        self,
        row: int,
        docs: np.ndarray,
        values: np.ndarray,
        bases: np.ndarray | None,
        at: np.ndarray,
    ) -> np.ndarray:
        """Which of the sums at positions `at` (documents `docs`) the row's tie
        certificate leaves in (all of them while the row has none)."""
        if self.tie_floors[row] < 0:
            return np.ones(len(at), dtype=bool)
        upper = self._true_upper(row, values[at], None if bases is None else bases[at])
        return ~self._outranked(row, docs, upper)

    def _upper(self, row: int, values: np.ndarray, bases: np.ndarray | None) -> np.ndarray:
        """What is compared with the floor (nonnegative weights: the room is in it)."""
        return values if bases is None else values + self.factors[row] * bases

    def _true_upper(self, row: int, values: np.ndarray, bases: np.ndarray | None) -> np.ndarray:
        """An upper bound on each exact score."""
        if bases is None:
            return values * (1 + 2 * self.factors[row])
        return values + self.factors[row] * bases

    def _choose(
        self, row: int, cols: np.ndarray, values: np.ndarray, bases: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Raise the row's floor by the k-th lower bound of these sums and keep those whose
        upper bound reaches it and whom the tie certificate does not rank out.
        Nonnegative weights bound the exact score by s (1 -+ c), monotonic in s: with
        room, lower s (1 - 2c), upper s; signed ones by s -+ c sum|q_t d_t|."""
        if len(values) <= self.k:
            return cols, values, bases
        factor, cut = self.factors[row], len(values) - self.k
        # the k-th largest lower bound L, and the (at least k) sums certified to reach it
        if bases is None:  # the lower bound s (1 - 2c) is monotonic in s
            kth_value = np.partition(values, cut)[cut]
            kth = kth_value * (1 - 2 * factor)
        else:
            lower = values - factor * bases
            kth = np.partition(lower, cut)[cut]
        floor = self.floors[row] = max(self.floors[row], candidate_floor(kth))
        keep = np.flatnonzero(self._upper(row, values, bases) >= floor)
        if len(keep) > 2 * self.k:  # a crowd near the floor: certify the k-th's ties
            reach = values >= kth_value if bases is None else lower >= kth
            certified = self.tie_keys[cols[reach]]
            tie_floor = np.partition(certified, len(certified) - self.k)[-self.k]
            level = np.float32(kth)
            if (level, tie_floor) > (self.levels[row], self.tie_floors[row]):
                self.levels[row], self.tie_floors[row] = level, tie_floor
        keep = keep[self._not_outranked(row, cols[keep], values, bases, keep)]
        return cols[keep], values[keep], None if bases is None else bases[keep]


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
    high = descending_score_keys(scores).astype(np.uint64) << np.uint64(32)
    return high | (np.uint64(MAX_TIE_KEY) - ties.astype(np.uint64))
