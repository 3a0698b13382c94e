"""The top k of each query from float64 sums whose float32 scores are settled exactly,
gathered part by part (a block of documents at a time) without holding every sum.

Per row, one partition finds the k-th largest lower bound of the exact scores, and every
sum whose upper bound reaches it is a candidate (about k per row, ties and near-ties
included); the candidates' float32 scores are settled exactly
(sparsebench.retrieve.exactscores), then sorted by score and the tie key. Over parts,
each part's k-th lower bound is a floor for every later part (the k-th over all parts is
at least as large), so a part keeps only sums that reach the highest floor so far; the
candidates of all parts are selected once more by the same rule over their union, which
holds the k-th of the whole row. The work follows the sums, the memory the candidates.

Order: score descending, then document id descending in byte order, the order in which
trec_eval reads a run (so the rank column agrees with trec_eval's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp

from sparsebench.errors import DataError
from sparsebench.retrieve.exactscores import ExactSums, candidate_floor, settle

_MAX_TIE_KEY = 2**32 - 1  # tie keys share a 64-bit sort key with the score's 32 bits


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


@dataclass
class CandidatePool:
    """The candidates of a batch's rows, added a part of the documents at a time.

    `factors` give each row's error factor (exactscores.error_factors); `signed`: the
    weights have both signs, and each part comes with the sums of |q_t d_t| (bases of
    the error bounds; nonnegative weights are their own)."""

    k: int
    factors: np.ndarray
    signed: bool
    floors: np.ndarray = field(init=False)
    _parts: list[tuple[np.ndarray, ...]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.floors = np.full(len(self.factors), -np.inf)

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
        self._parts.extend(
            self._choose(pattern.indptr, pattern.indices + first_doc, values, bases, excluded)
        )

    def top_k(self, tie_keys: np.ndarray, exact_sums: ExactSums) -> RetrievedBatch:
        """The top k of every row among the candidates of all parts."""
        n_rows = len(self.factors)
        rows, cols, values, bases = _flatten(self._parts, self.signed)
        self._parts = []
        order = np.argsort(rows, kind="stable")
        indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n_rows))])
        union = (cols[order], values[order], None if bases is None else bases[order])
        rows, cols, values, bases = _flatten(self._choose(indptr, *union, None), self.signed)
        widths = self.factors[rows] * (values if bases is None else bases)
        scores = settle(values, widths, rows, cols, exact_sums)
        nonzero = scores != 0
        return rank_candidates(
            rows[nonzero], cols[nonzero], scores[nonzero], n_rows, self.k, tie_keys
        )

    def _choose(
        self,
        indptr: np.ndarray,
        cols: np.ndarray,
        values: np.ndarray,
        bases: np.ndarray | None,
        excluded: np.ndarray | None,
    ) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray | None]]:
        """Per row of these sums (a CSR pattern), raise the row's floor by their k-th
        lower bound and keep the sums whose upper bound reaches it: (row, cols, values,
        bases) per row. Nonnegative weights bound the exact score by s (1 -+ c), monotonic
        in s: with room, lower s (1 - 2c), upper s; signed ones by s -+ c sum|q_t d_t|.
        Sums below the floor so far are dropped before the partition (the k-th of a
        subset is a lower bound too), so after a row's first parts only its few
        contenders are partitioned."""
        chosen = []
        for row in np.flatnonzero(np.diff(indptr)):
            span = slice(int(indptr[row]), int(indptr[row + 1]))
            row_cols, row_values = cols[span], values[span]
            row_bases = None if bases is None else bases[span]
            if excluded is not None and excluded[row] >= 0:
                keep = row_cols != excluded[row]
                row_cols, row_values = row_cols[keep], row_values[keep]
                row_bases = None if row_bases is None else row_bases[keep]
            factor, floor = self.factors[row], self.floors[row]
            upper = row_values if row_bases is None else row_values + factor * row_bases
            keep = np.flatnonzero(upper >= floor) if floor > -np.inf else None
            contenders = len(upper) if keep is None else len(keep)
            if contenders > self.k:
                if row_bases is None:
                    lower = upper if keep is None else upper[keep]
                else:
                    lower = row_values - factor * row_bases
                    lower = lower if keep is None else lower[keep]
                kth = np.partition(lower, contenders - self.k)[contenders - self.k]
                if row_bases is None:
                    kth *= 1 - 2 * factor
                floor = self.floors[row] = max(floor, candidate_floor(kth))
                keep = np.flatnonzero(upper >= floor)
            if keep is not None:
                row_cols, row_values = row_cols[keep], row_values[keep]
                row_bases = None if row_bases is None else row_bases[keep]
            chosen.append((int(row), row_cols, row_values, row_bases))
        return chosen


def _flatten(
    parts: list[tuple[int, np.ndarray, np.ndarray, np.ndarray | None]], signed: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Per-row candidates as flat (rows, cols, values, bases or None) arrays."""
    rows = np.repeat(
        np.array([row for row, *_ in parts], dtype=np.int64),
        np.array([len(part[1]) for part in parts], dtype=np.int64),
    )
    cols, values = (
        np.concatenate([np.zeros(0, dtype)] + [part[i] for part in parts])
        for i, dtype in ((1, np.int64), (2, np.float64))
    )
    bases = np.concatenate([np.zeros(0)] + [part[3] for part in parts]) if signed else None
    return rows, cols.astype(np.int64), values, bases


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
