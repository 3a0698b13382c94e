"""The run ranked and judged a slice of whole queries at a time: a slice's arrays stay in
the processor's caches, and the working arrays follow the slice, not the run (on 10M
run rows this halves the time of ranking and measuring). The slices change no value: each
query is ranked and measured on its own rows alone, whatever else shares its slice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
import pyarrow as pa

from sparsebench.arrays import span_indices
from sparsebench.evaluate.ranking import (
    RankedJudgments,
    query_blocks,
    query_codes,
    rank_queries,
    select_queries,
    string_ids,
)

SLICE_ROWS = 1 << 18  # run rows ranked and measured at a time


@dataclass(frozen=True)
class QuerySlice:
    """Some queries, where they stand among all the evaluated ones (`positions`), and
    what ranks their rows in trec_eval order with their grades (`rank`: slices are
    ranked when asked, so that threads can rank several at once)."""

    positions: np.ndarray  # (q,) index of each of the slice's queries in the evaluated ids
    share: float  # the slice's part of the run's rows, for progress
    rank: Callable[[], RankedJudgments]


def rank_run(
    run: pd.DataFrame, qrels: pd.DataFrame, relevance_level: int = 1, query_set: str = "complete"
) -> RankedJudgments:
    """Order `run` (query_id, doc_id, score) as trec_eval does and attach the grades of
    `qrels` (query_id, doc_id, grade), every query at once (query_slices: a slice at
    a time)."""
    [whole] = query_slices(run, qrels, relevance_level, query_set, slice_rows=None)[1]
    return whole.rank()


def query_slices(
    run: pd.DataFrame,
    qrels: pd.DataFrame,
    relevance_level: int = 1,
    query_set: str = "complete",
    slice_rows: int | None = SLICE_ROWS,
) -> tuple[pa.Array, Iterator[QuerySlice]]:
    """The evaluated query ids (sorted), and the run ranked as trec_eval ranks it and
    judged by `qrels`, slice by slice: each slice holds whole queries, about `slice_rows`
    rows of them (None: one slice), and a last one the judged queries the run lacks
    (query set "complete"). A query whose rows are not all together in the run puts
    the whole run in one slice. Raises DataError on non-string ids and when run and
    qrels share no query; ranking a slice raises it on a document listed twice for a query.

    Queries are found block by block (a run lists each query's rows together);
    ranking.rank_queries ranks each slice.
    """
    run_q = string_ids(run["query_id"], "run column 'query_id'")
    run_d = string_ids(run["doc_id"], "run column 'doc_id'")
    qrels_q = string_ids(qrels["query_id"], "qrels column 'query_id'")
    qrels_d = string_ids(qrels["doc_id"], "qrels column 'doc_id'")
    block_start = query_blocks(run_q)
    block_q = run_q.take(pa.array(block_start[:-1]))
    query_ids = select_queries(block_q, qrels_q, query_set)
    block_query = query_codes(block_q, query_ids)
    qrels_query = query_codes(qrels_q, query_ids)
    score = np.asarray(run["score"], dtype=np.float64).astype(np.float32)  # as trec_eval
    score += np.float32(0.0)  # -0.0 ties with 0.0
    grades = np.asarray(qrels["grade"], dtype=np.int64)
    judgments = _Judgments(query_ids, qrels_query, qrels_d, grades, relevance_level)
    bounds = _slice_bounds(block_start, block_query, slice_rows)
    run_rows = max(int(block_start[-1]), 1)

    def slices() -> Iterator[QuerySlice]:
        seen = np.zeros(len(query_ids), dtype=bool)
        for first, last in zip(bounds[:-1], bounds[1:], strict=True):
            blocks = block_query[first:last]
            if len(bounds) == 2:  # one slice: every evaluated query, those without rows too
                positions = np.arange(len(query_ids))
            else:
                positions = np.unique(blocks[blocks >= 0])
            seen[positions] = True
            rows = slice(int(block_start[first]), int(block_start[last]))
            local = np.where(blocks >= 0, np.searchsorted(positions, blocks), -1)
            row_query = np.repeat(local, np.diff(block_start[first : last + 1]))
            rank = partial(judgments.rank, positions, row_query, run_d[rows], score[rows])
            yield QuerySlice(positions, (rows.stop - rows.start) / run_rows, rank)
        missing = np.flatnonzero(~seen)
        if len(missing):  # judged queries with no row: empty rankings
            nothing = np.zeros(0, dtype=np.int64)
            yield QuerySlice(
                missing, 0.0, partial(judgments.rank, missing, nothing, run_d[:0], score[:0])
            )

    return query_ids, slices()


def _slice_bounds(
    block_start: np.ndarray, block_query: np.ndarray, slice_rows: int | None
) -> np.ndarray:
    """First block of each slice, and the number of blocks: about slice_rows rows a
    slice; one slice when slice_rows is None or a query's rows are split in blocks."""
    n_blocks = len(block_start) - 1
    judged = block_query[block_query >= 0]
    if slice_rows is None or len(np.unique(judged)) < len(judged):
        return np.array([0, n_blocks])
    cuts = np.searchsorted(block_start, np.arange(slice_rows, block_start[-1], slice_rows))
    return np.unique(np.concatenate([[0], cuts, [n_blocks]]))


class _Judgments:
    """The qrels rows of the evaluated queries, grouped by query, and what ranks a
    slice's run rows against them."""

    def __init__(
        self,
        query_ids: pa.Array,
        query: np.ndarray,
        docs: pa.Array | pa.ChunkedArray,
        grade: np.ndarray,
        relevance_level: int,
    ) -> None:
        kept = np.flatnonzero(query >= 0)
        order = kept[np.argsort(query[kept], kind="stable")]
        self.query_ids, self.relevance_level = query_ids, relevance_level
        self.query = query[order]
        self.docs = docs.take(pa.array(order))
        self.grade = grade[order]
        self.first = np.searchsorted(self.query, np.arange(len(query_ids) + 1))

    def rank(
        self,
        positions: np.ndarray,
        row_query: np.ndarray,
        docs: pa.Array | pa.ChunkedArray,
        score: np.ndarray,
    ) -> RankedJudgments:
        """The run rows of the queries at `positions` (ascending; row_query: index in
        positions, -1 for a query not evaluated), ranked and judged."""
        starts, ends = self.first[positions], self.first[positions + 1]
        rows = span_indices(starts, ends)
        local = np.repeat(np.arange(len(positions)), ends - starts)
        return rank_queries(
            self.query_ids.take(pa.array(positions, type=pa.int64())),
            row_query,
            docs,
            score,
            local,
            self.docs.take(pa.array(rows)),
            self.grade[rows],
            self.relevance_level,
        )
