"""Evaluate runs against qrels: the engine the pipeline, the command line and the Python
API share. Values equal trec_eval's (see ranking.py for the order and the judgment
rules, measures.py for the definitions)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from sparsebench.core.errors import DataError
from sparsebench.core.threads import ordered_map
from sparsebench.data.delimited import NotSingleDelimited
from sparsebench.evaluate.coverage import QueryOverlap, query_overlap
from sparsebench.evaluate.measures import (
    DEFAULT_CUTOFFS,
    MeasureCalculator,
    aggregate,
    default_metric_names,
    parse_metric_name,
)
from sparsebench.evaluate.ranking import RankedJudgments, query_codes, select_queries
from sparsebench.evaluate.slices import (
    SLICE_ROWS,
    QuerySlice,
    SplitQuery,
    query_slices,
    streamed_slices,
)
from sparsebench.runs.runfile import misordered_queries, read_run
from sparsebench.runs.stream import RUN_BLOCK_BYTES, run_batches

__all__ = [
    "Evaluation",
    "evaluate_run",
    "evaluate_run_file",
    "evaluate_retrieval",
    "evaluate_retrieval_per_query",
    "default_metric_names",
    "parse_metric_name",
    "run_frame",
    "per_query_tsv",
    "qrels_frame",
]


@dataclass(frozen=True)
class Evaluation:
    """Per-query values (rows = queries, columns = metrics) and their summaries."""

    per_query: pd.DataFrame
    means: dict[str, float]
    n_evaluated: int
    n_in_run: int
    n_qrels_queries: int
    query_set: str


def evaluate_run(
    run: pd.DataFrame,
    qrels: pd.DataFrame,
    metrics: Sequence[str] | None = None,
    relevance_level: int = 1,
    query_set: str = "complete",
    step: Callable[[float], object] | None = None,
    slice_rows: int | None = SLICE_ROWS,
    threads: int = 1,
) -> Evaluation:
    """Evaluate `run` (query_id, doc_id, score) against `qrels` (query_id, doc_id, grade).

    metrics: names such as "nDCG@10" (default: every measure at the default cutoffs);
    step: called with the share of the work done (fractions of one step for ranking the
    run and one per measure: 1 + len(metrics) in all), for progress.
    """
    names = _checked_names(metrics)
    query_ids, slices = query_slices(run, qrels, relevance_level, query_set, slice_rows)
    table, n_in_run = _measured(query_ids, slices, names, threads, step or (lambda share: None))
    return _evaluation(table, n_in_run, qrels, query_set)


@dataclass(frozen=True)
class RunFileEvaluation:
    """evaluate_run_file's result: the values, how the run's queries match the qrels',
    and the queries whose lines are not in descending score order in the file (metrics
    follow the scores, as trec_eval's do, not the file order)."""

    evaluation: Evaluation
    overlap: QueryOverlap
    misordered: list[str]


def evaluate_run_file(
    path: str | Path,
    qrels: pd.DataFrame,
    metrics: Sequence[str] | None = None,
    relevance_level: int = 1,
    query_set: str = "complete",
    step: Callable[[float], object] | None = None,
    threads: int = 1,
    slice_rows: int = SLICE_ROWS,
    block_bytes: int = RUN_BLOCK_BYTES,
    batches: Iterable[pa.RecordBatch] | None = None,
) -> RunFileEvaluation:
    """evaluate_run on a run file: the file is read a block at a time while the queries
    already read are ranked and measured, so memory follows the blocks and slices, not
    the run. A file in another layout, or one that lists a judged query's rows in two
    places, is read whole by read_run and evaluated as a frame. step: as evaluate_run's,
    a slice's share being its part of the judged queries. batches: run_batches(path)
    when the caller has started reading it already (threads.ReadAhead)."""
    names = _checked_names(metrics)
    step = step or (lambda share: None)
    if batches is None:
        batches = run_batches(path, block_bytes)
    try:
        judged, slices, found = streamed_slices(
            batches, qrels, relevance_level, query_set, slice_rows
        )
        table, n_in_run = _measured(judged, slices, names, threads, step)
    except (NotSingleDelimited, SplitQuery):
        run = read_run(path)
        evaluation = evaluate_run(
            run, qrels, names, relevance_level, query_set, step=step, threads=threads
        )
        overlap = query_overlap(run["query_id"], qrels["query_id"])
        return RunFileEvaluation(evaluation, overlap, misordered_queries(run))
    run_ids = found.run_ids()
    evaluated = select_queries(run_ids, judged, query_set)
    table = table.iloc[query_codes(evaluated, judged)]
    overlap = query_overlap(run_ids.to_pylist(), qrels["query_id"])
    evaluation = _evaluation(table, n_in_run, qrels, query_set)
    return RunFileEvaluation(evaluation, overlap, sorted(set(found.misordered)))


def _checked_names(metrics: Sequence[str] | None) -> list[str]:
    names = list(metrics) if metrics is not None else default_metric_names()
    for name in names:
        parse_metric_name(name)
    return names


def _measured(
    query_ids: pa.Array,
    slices: Iterable[QuerySlice],
    names: list[str],
    threads: int,
    step: Callable[[float], object],
) -> tuple[pd.DataFrame, int]:
    """Each query's value of each measure (rows: query_ids), slice by slice, `threads`
    slices at once; and how many of the queries the run holds."""

    def measured(part: QuerySlice) -> tuple[QuerySlice, RankedJudgments, list[np.ndarray]]:
        ranked = part.rank()
        calculator = MeasureCalculator(ranked)
        return part, ranked, [np.asarray(calculator.compute(name)) for name in names]

    values: dict[str, np.ndarray] = {}
    n_in_run = 0
    for part, ranked, found in ordered_map(measured, slices, threads):
        for name, got in zip(names, found, strict=True):
            if name not in values:
                values[name] = np.zeros(len(query_ids), dtype=got.dtype)
            values[name][part.positions] = got
        step(part.share * (1 + len(names)))
        n_in_run += ranked.n_in_run
    index = pd.Index(np.asarray(query_ids.to_pylist(), dtype=object), name="query_id")
    return pd.DataFrame(values, index=index), n_in_run


def _evaluation(
    table: pd.DataFrame, n_in_run: int, qrels: pd.DataFrame, query_set: str
) -> Evaluation:
    return Evaluation(
        per_query=table,
        means={name: aggregate(name, table[name].to_numpy()) for name in table.columns},
        n_evaluated=len(table),
        n_in_run=n_in_run,
        n_qrels_queries=int(qrels["query_id"].nunique()),
        query_set=query_set,
    )


def per_query_tsv(table: pd.DataFrame) -> str:
    """Per-query values as query_id, metric, value lines, metric by metric (values as
    %.17g, a missing one empty; a field holding a tab, quote or line break quoted as
    CSV writers do): pandas' melt and to_csv bytes, without their cost."""

    def field(text: str) -> str:
        if any(c in text for c in '\t"\n\r'):
            return '"' + text.replace('"', '""') + '"'
        return text

    queries = [field(str(q)) for q in table.index]
    lines = ["query_id\tmetric\tvalue\n"]
    for name in table.columns:
        label = field(str(name))
        values = table[name].to_numpy(dtype=float).tolist()
        lines.extend(
            f"{q}\t{label}\t{'' if v != v else format(v, '.17g')}\n"
            for q, v in zip(queries, values, strict=True)
        )
    return "".join(lines)


# --- dictionaries in, dictionaries out (the usual notebook recipe) ---------------------


def _check_id(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise DataError(
            f"{what} {value!r} is a {type(value).__name__}; ids must be strings end to end "
            "('123' and 123 never match). Convert them with str() first."
        )
    return value


def run_frame(all_retrieved: Mapping[str, Any]) -> pd.DataFrame:
    """{qid: [(doc_id, score), ...]} or {qid: {doc_id: score}} as a run frame."""
    query_ids: list[str] = []
    doc_ids: list[Any] = []
    scores: list[Any] = []
    for query_id, results in all_retrieved.items():
        _check_id(query_id, "query id")
        pairs: Iterable = results.items() if isinstance(results, Mapping) else results
        docs, values = zip(*pairs, strict=True) if len(results) else ((), ())
        query_ids.extend([query_id] * len(docs))
        doc_ids.extend(docs)
        scores.extend(values)
    frame = pd.DataFrame(
        {
            "query_id": np.array(query_ids, dtype=object),
            "doc_id": np.array(doc_ids, dtype=object),
            "score": np.asarray(scores, dtype=np.float64),
        }
    )
    wrong = next((d for d in doc_ids if not isinstance(d, str)), None)
    if wrong is not None:
        _check_id(wrong, "doc id")
    return frame


def qrels_frame(all_qrels: Mapping[str, Mapping[str, int]]) -> pd.DataFrame:
    """{qid: {doc_id: grade}} as a qrels frame (grades must be integers)."""
    rows = [
        (_check_id(q, "query id"), _check_id(d, "doc id"), g)
        for q, docs in all_qrels.items()
        for d, g in docs.items()
    ]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "grade"])
    grades = frame["grade"].to_numpy()
    if len(grades) and not np.all(np.equal(np.mod(grades.astype(float), 1), 0)):
        raise DataError("qrels grades must be integers")
    return frame.astype({"grade": np.int64})


def _metric_names(k_values: Sequence[int] | None, metrics: Sequence[str] | None) -> list[str]:
    if metrics is not None:
        return list(metrics)
    return default_metric_names(k_values if k_values is not None else DEFAULT_CUTOFFS)


def evaluate_dicts(
    all_retrieved: Mapping[str, Any],
    all_qrels: Mapping[str, Mapping[str, int]],
    k_values: Sequence[int] | None = None,
    metrics: Sequence[str] | None = None,
    relevance_level: int = 1,
    query_set: str = "complete",
) -> Evaluation:
    """evaluate_run on the dictionaries of the usual recipe."""
    return evaluate_run(
        run_frame(all_retrieved),
        qrels_frame(all_qrels),
        _metric_names(k_values, metrics),
        relevance_level,
        query_set,
    )


def evaluate_retrieval(
    all_retrieved: Mapping[str, Any],
    all_qrels: Mapping[str, Mapping[str, int]],
    k_values: Sequence[int] | None = None,
    metrics: Sequence[str] | None = None,
    relevance_level: int = 1,
    query_set: str = "complete",
) -> dict[str, float]:
    """Means of every measure at the cutoffs `k_values`, e.g. {"nDCG@10": ..., "MAP": ...}.

    all_retrieved: {qid: [(doc_id, score), ...]} (or {qid: {doc_id: score}});
    all_qrels: {qid: {doc_id: grade}}. Ids must be strings.
    """
    return evaluate_dicts(
        all_retrieved, all_qrels, k_values, metrics, relevance_level, query_set
    ).means


def evaluate_retrieval_per_query(
    all_retrieved: Mapping[str, Any],
    all_qrels: Mapping[str, Mapping[str, int]],
    k_values: Sequence[int] | None = None,
    metrics: Sequence[str] | None = None,
    relevance_level: int = 1,
    query_set: str = "complete",
) -> dict[str, dict[str, float]]:
    """Per-query values: {qid: {"nDCG@10": ..., ...}} (the input of significance tests)."""
    return evaluate_dicts(
        all_retrieved, all_qrels, k_values, metrics, relevance_level, query_set
    ).per_query.to_dict(orient="index")
