"""The run ranked and judged a slice of whole queries at a time: a slice's arrays stay in
the processor's caches, and the working arrays follow the slice, not the run, which
makes ranking and measuring faster (benchmarks/RESULTS.md, "Measurements behind the code").
The slices change no value: each query is ranked and measured on its own rows alone,
whatever else shares its slice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.arrays import span_indices
from sparsebench.core.strings import take_rows
from sparsebench.evaluate.levels import check_relevance_level
from sparsebench.evaluate.ranking import (
    RankedJudgments,
    judged_queries,
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
    block_start = query_blocks(run_q)
    block_q = take_rows(run_q, block_start[:-1])
    qrels_q = string_ids(qrels["query_id"], "qrels column 'query_id'")
    query_ids = select_queries(block_q, qrels_q, query_set)
    judgments = _Judgments(query_ids, qrels_q, qrels, relevance_level)
    block_query = query_codes(block_q, query_ids)
    score = trec_scores(run["score"])
    bounds = _slice_bounds(block_start, block_query, slice_rows)
    run_rows = max(int(block_start[-1]), 1)

    def slices() -> Iterator[QuerySlice]:
        seen = np.zeros(len(query_ids), dtype=bool)
        for first, last in zip(bounds[:-1], bounds[1:], strict=True):
            rows = slice(int(block_start[first]), int(block_start[last]))
            part = judgments.slice(
                block_query[first:last],
                block_start[first : last + 1] - rows.start,
                run_d[rows],
                score[rows],
                (rows.stop - rows.start) / run_rows,
                every_query=len(bounds) == 2,
            )
            seen[part.positions] = True
            yield part
        yield from judgments.missing(seen)

    return query_ids, slices()


def streamed_slices(
    batches: Iterable[pa.RecordBatch],
    qrels: pd.DataFrame,
    relevance_level: int = 1,
    query_set: str = "complete",
    slice_rows: int = SLICE_ROWS,
) -> tuple[pa.Array, Iterator[QuerySlice], StreamedQueries]:
    """query_slices for a run read a batch at a time (query_id, doc_id, score), each
    slice made as soon as its queries' rows have all been read, so that reading and
    ranking overlap and memory follows the slices, not the run. Positions index the
    judged query ids (sorted, returned first); what the run held is known once the
    slices are spent (the third item). Raises SplitQuery when a judged query's rows
    turn up again after its slice: query_slices on the whole run then ranks it. A
    slice's share (for progress) is its part of the judged queries."""
    qrels_q = string_ids(qrels["query_id"], "qrels column 'query_id'")
    judged = judged_queries(qrels_q)
    judgments = _Judgments(judged, qrels_q, qrels, relevance_level)
    found = StreamedQueries(np.zeros(len(judged), dtype=bool), [], [])

    def part(queries: pa.ChunkedArray, docs: pa.ChunkedArray, score: np.ndarray) -> QuerySlice:
        block_start = query_blocks(queries)
        block_q = take_rows(queries, block_start[:-1])
        found.block_ids.append(block_q)
        found.note_misordered(block_q, block_start, score)
        made = judgments.slice(
            query_codes(block_q, judged), block_start, docs, trec_scores(score), 0.0
        )
        if found.judged[made.positions].any():
            raise SplitQuery("a judged query's rows are not all together in the run")
        found.judged[made.positions] = True
        return replace(made, share=len(made.positions) / max(len(judged), 1))

    def slices() -> Iterator[QuerySlice]:
        pending = _Rows()  # rows read and not yet in a slice
        for batch in batches:
            pending.add(
                string_ids(batch.column("query_id"), "run column 'query_id'"),
                string_ids(batch.column("doc_id"), "run column 'doc_id'"),
                batch.column("score").to_numpy(),
            )
            if pending.n_rows < slice_rows:
                continue
            queries, docs, score = pending.joined()
            cut = len(queries) - _last_block_rows(queries)
            if cut == 0:  # one query so far: it may go on in the next batch
                continue
            yield part(queries[:cut], docs[:cut], score[:cut])
            pending = _Rows()
            pending.add(queries[cut:], docs[cut:], score[cut:])
        if pending.n_rows:
            yield part(*pending.joined())
        if query_set == "complete":
            yield from judgments.missing(found.judged)

    return judged, slices(), found


@dataclass
class StreamedQueries:
    """What a streamed run held: which judged queries (by their index in the judged ids),
    the query id of each block of rows, slice by slice, and the queries whose lines are
    not in descending score order in the file."""

    judged: np.ndarray
    block_ids: list[pa.Array]
    misordered: list[str]

    def run_ids(self) -> pa.Array:
        """The distinct query ids of the run."""
        if not self.block_ids:
            return pa.array([], pa.string())
        return pc.unique(pa.chunked_array(self.block_ids, pa.string()))

    def note_misordered(
        self, block_ids: pa.Array, block_start: np.ndarray, score: np.ndarray
    ) -> None:
        """Remember the blocks in which a line scores higher than the line before it
        (scores as written, in float64: trec_eval's float32 would hide a small rise)."""
        rising = np.flatnonzero(np.diff(score) > 0) + 1
        block = np.searchsorted(block_start, rising, side="right") - 1
        inside = np.unique(block[rising > block_start[block]])  # not a query's first line
        self.misordered += take_rows(block_ids, inside).to_pylist()


class _Rows:
    """Run rows gathered batch by batch: query ids, document ids, scores as written."""

    def __init__(self) -> None:
        self.queries: list[pa.Array] = []
        self.docs: list[pa.Array] = []
        self.scores: list[np.ndarray] = []
        self.n_rows = 0

    def add(
        self,
        queries: pa.Array | pa.ChunkedArray,
        docs: pa.Array | pa.ChunkedArray,
        scores: np.ndarray,
    ) -> None:
        for into, values in ((self.queries, queries), (self.docs, docs)):
            into.extend(values.chunks if isinstance(values, pa.ChunkedArray) else [values])
        self.scores.append(scores)
        self.n_rows += len(scores)

    def joined(self) -> tuple[pa.ChunkedArray, pa.ChunkedArray, np.ndarray]:
        return (
            pa.chunked_array(self.queries, pa.string()),
            pa.chunked_array(self.docs, pa.string()),
            np.concatenate(self.scores),
        )


class SplitQuery(Exception):
    """A query's rows are in two places of a streamed run."""


def trec_scores(score: pd.Series | np.ndarray) -> np.ndarray:
    """Scores as trec_eval holds them: 32-bit floats, -0.0 tied with 0.0."""
    values = np.asarray(score, dtype=np.float64).astype(np.float32)
    values += np.float32(0.0)
    return values


def _last_block_rows(queries: pa.ChunkedArray) -> int:
    """How many rows at the end hold the last row's query (its last chunk looked at
    first: the rows of the others only when the query fills it)."""
    last = queries[len(queries) - 1]
    rows = 0
    for chunk in reversed(queries.chunks):
        same = pc.equal(chunk, last).to_numpy(zero_copy_only=False)
        different = np.flatnonzero(~same)
        if len(different):
            return rows + len(chunk) - int(different[-1]) - 1
        rows += len(chunk)
    return rows


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
        qrels_queries: pa.Array | pa.ChunkedArray,
        qrels: pd.DataFrame,
        relevance_level: int,
    ) -> None:
        check_relevance_level(relevance_level)
        query = query_codes(qrels_queries, query_ids)
        docs = string_ids(qrels["doc_id"], "qrels column 'doc_id'")
        kept = np.flatnonzero(query >= 0)
        order = kept[np.argsort(query[kept], kind="stable")]
        self.query_ids, self.relevance_level = query_ids, relevance_level
        self.query = query[order]
        self.docs = take_rows(docs, order)
        self.grade = np.asarray(qrels["grade"], dtype=np.int64)[order]
        self.first = np.searchsorted(self.query, np.arange(len(query_ids) + 1))

    def slice(
        self,
        block_query: np.ndarray,
        block_start: np.ndarray,
        docs: pa.Array | pa.ChunkedArray,
        score: np.ndarray,
        share: float,
        every_query: bool = False,
    ) -> QuerySlice:
        """A slice of whole queries' rows, given by blocks of rows of one query each
        (block_query: the query's index in the evaluated ids, -1 for one not evaluated;
        block_start: where each block starts in the rows, and the end); with every_query,
        the evaluated queries without rows too."""
        if every_query:
            positions = np.arange(len(self.query_ids))
        else:
            positions = np.unique(block_query[block_query >= 0])
        local = np.where(block_query >= 0, np.searchsorted(positions, block_query), -1)
        row_query = np.repeat(local, np.diff(block_start))
        return QuerySlice(positions, share, partial(self.rank, positions, row_query, docs, score))

    def missing(self, seen: np.ndarray) -> Iterator[QuerySlice]:
        """The evaluated queries no slice held (`seen` is False): empty rankings."""
        positions = np.flatnonzero(~seen)
        if len(positions):
            nothing = np.zeros(0, dtype=np.int64)
            no_docs, no_scores = pa.array([], pa.string()), np.zeros(0, dtype=np.float32)
            yield QuerySlice(
                positions, 0.0, partial(self.rank, positions, nothing, no_docs, no_scores)
            )

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
            take_rows(self.docs, rows),
            self.grade[rows],
            self.relevance_level,
        )
