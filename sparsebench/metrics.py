"""Retrieval metrics computed for all queries at once, identical to trec_eval.

trec_eval ignores the rank column of a run: it orders each query's documents by score
(held as a 32-bit float) descending, then by document id in *descending* byte order
(`comp_sim_docno` in form_res_rels.c). `rank_run` applies exactly that order, so the
values here equal trec_eval's on the same run and qrels, ties included.

Relevance: a qrels grade >= `relevance_level` counts as relevant for the binary
measures (trec_eval -l); nDCG uses the positive grades themselves as linear gains
(trec_eval ndcg_cut, what BEIR reports). Documents absent from the qrels are
non-relevant.

Query set: with query_set="complete" (the default, trec_eval -c) every query of the
qrels enters the mean and a query missing from the run scores 0; with "run" only the
queries present in both run and qrels count (trec_eval without -c).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sparsebench.errors import DataError

log = logging.getLogger(__name__)

_METRIC = re.compile(r"^(nDCG|Recall|P|MRR|MAP)(?:@([1-9][0-9]*))?$")
_NEEDS_CUTOFF = {"nDCG", "Recall", "P"}


def parse_metric_name(name: str) -> tuple[str, int | None]:
    """Split 'nDCG@10' into ('nDCG', 10); 'MAP' into ('MAP', None)."""
    match = _METRIC.match(name)
    if not match:
        raise ValueError(
            f"unknown metric {name!r}; known: nDCG@k, Recall@k, P@k, MAP, MAP@k, MRR, MRR@k"
        )
    measure, cutoff = match.group(1), match.group(2)
    if measure in _NEEDS_CUTOFF and cutoff is None:
        raise ValueError(f"metric {name!r} needs a cutoff, e.g. {measure}@10")
    return measure, int(cutoff) if cutoff else None


def default_metric_names(cutoffs: Sequence[int]) -> list[str]:
    """The metrics the pipeline reports for a list of cutoffs."""
    names = []
    for measure in ("nDCG", "Recall", "P"):
        names += [f"{measure}@{k}" for k in sorted(cutoffs)]
    return names + ["MAP", "MRR"]


@dataclass(frozen=True)
class RankedJudgments:
    """A run in trec_eval order, joined with its qrels, over the evaluated queries."""

    query_ids: np.ndarray  # (Q,) evaluated query ids, sorted
    in_run: np.ndarray  # (Q,) bool: the query has at least one retrieved document
    row_query: np.ndarray  # (R,) query index of each retrieved row
    row_rank: np.ndarray  # (R,) 1-based rank of each row within its query
    row_grade: np.ndarray  # (R,) qrels grade of each row (0 when unjudged)
    num_relevant: np.ndarray  # (Q,) judged documents with grade >= relevance_level
    ideal_query: np.ndarray  # (J,) query index of each positive judgment, best first
    ideal_rank: np.ndarray  # (J,) 1-based rank in the ideal ordering
    ideal_gain: np.ndarray  # (J,) the positive grade
    relevance_level: int


def _require_string_ids(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    for column in columns:
        values = frame[column]
        if len(values) and not all(isinstance(v, str) for v in values.iloc[:1000]):
            kinds = sorted({type(v).__name__ for v in values.iloc[:1000]})
            raise DataError(
                f"{what} column {column!r} holds {'/'.join(kinds)} values; ids must be strings "
                f"end to end ('123' and 123 never match). Convert them with str() first."
            )


def rank_run(
    run: pd.DataFrame,
    qrels: pd.DataFrame,
    relevance_level: int = 1,
    query_set: str = "complete",
) -> RankedJudgments:
    """Order `run` as trec_eval does and attach qrels grades.

    run: columns query_id, doc_id (str), score (float). qrels: query_id, doc_id (str),
    grade (int). Raises DataError on duplicate documents in a query, on non-string ids
    and when run and qrels share no query.
    """
    _require_string_ids(run, ("query_id", "doc_id"), "run")
    _require_string_ids(qrels, ("query_id", "doc_id"), "qrels")
    duplicated = run.duplicated(["query_id", "doc_id"])
    if duplicated.any():
        first = run[duplicated].iloc[0]
        raise DataError(
            f"the run lists document {first.doc_id!r} more than once for query "
            f"{first.query_id!r} ({int(duplicated.sum())} duplicate lines); trec_eval would "
            "count it twice. Deduplicate the run."
        )
    qrels_queries = np.sort(qrels["query_id"].unique().astype(object))
    run_queries = run["query_id"].unique()
    overlap = np.intersect1d(qrels_queries, run_queries.astype(object))
    if query_set == "complete":
        query_ids = qrels_queries
    elif query_set == "run":
        query_ids = overlap
    else:
        raise ValueError(f"query_set must be 'complete' or 'run', not {query_set!r}")
    log.info(
        "Evaluating %d / %d queries (queries of the qrels found in the run; query_set=%s)",
        len(overlap),
        len(qrels_queries),
        query_set,
    )
    if len(overlap) == 0:
        raise DataError(
            f"Evaluating 0 / {len(qrels_queries)} queries: the run and the qrels share no "
            "query id. Wrong qrels split, or ids written differently (e.g. '1' vs 'q1')?"
        )

    query_index = pd.Index(query_ids)
    rows = run[run["query_id"].isin(query_index)]
    row_query = query_index.get_indexer(rows["query_id"])
    score = rows["score"].to_numpy(dtype=np.float64).astype(np.float32)
    doc_codes, doc_uniques = pd.factorize(rows["doc_id"], sort=True)
    order = np.lexsort((-doc_codes, -score, row_query))
    row_query = row_query[order]
    starts = np.searchsorted(row_query, np.arange(len(query_ids)))
    row_rank = np.arange(len(row_query)) - starts[row_query] + 1

    grades = qrels.set_index(["query_id", "doc_id"])["grade"]
    keys = pd.MultiIndex.from_arrays([query_index[row_query], doc_uniques[doc_codes[order]]])
    position = grades.index.get_indexer(keys)
    row_grade = np.where(position >= 0, grades.to_numpy()[position], 0).astype(np.float64)

    judged = qrels[qrels["query_id"].isin(query_index)]
    judged_query = query_index.get_indexer(judged["query_id"])
    judged_grade = judged["grade"].to_numpy(dtype=np.float64)
    num_relevant = np.bincount(
        judged_query[judged_grade >= relevance_level], minlength=len(query_ids)
    )
    positive = judged_grade > 0
    ideal_query, ideal_gain = judged_query[positive], judged_grade[positive]
    ideal_order = np.lexsort((-ideal_gain, ideal_query))
    ideal_query, ideal_gain = ideal_query[ideal_order], ideal_gain[ideal_order]
    ideal_starts = np.searchsorted(ideal_query, np.arange(len(query_ids)))
    ideal_rank = np.arange(len(ideal_query)) - ideal_starts[ideal_query] + 1

    return RankedJudgments(
        query_ids=np.asarray(query_ids, dtype=object),
        in_run=np.bincount(row_query, minlength=len(query_ids)) > 0,
        row_query=row_query,
        row_rank=row_rank,
        row_grade=row_grade,
        num_relevant=num_relevant,
        ideal_query=ideal_query,
        ideal_rank=ideal_rank,
        ideal_gain=ideal_gain,
        relevance_level=relevance_level,
    )


def _per_query_sum(ranked: RankedJudgments, mask: np.ndarray, weights: np.ndarray) -> np.ndarray:
    n = len(ranked.query_ids)
    return np.bincount(ranked.row_query[mask], weights=weights[mask], minlength=n)


def _safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.zeros_like(numerator, dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def _ndcg(ranked: RankedJudgments, k: int) -> np.ndarray:
    top = ranked.row_rank <= k
    gains = np.where(ranked.row_grade > 0, ranked.row_grade, 0.0) / np.log2(ranked.row_rank + 1.0)
    dcg = _per_query_sum(ranked, top, gains)
    ideal_top = ranked.ideal_rank <= k
    idcg = np.bincount(
        ranked.ideal_query[ideal_top],
        weights=ranked.ideal_gain[ideal_top] / np.log2(ranked.ideal_rank[ideal_top] + 1.0),
        minlength=len(ranked.query_ids),
    )
    return _safe_divide(dcg, idcg)


def _relevant_rows(ranked: RankedJudgments) -> np.ndarray:
    return ranked.row_grade >= ranked.relevance_level


def _relevant_retrieved_at(ranked: RankedJudgments, k: int) -> np.ndarray:
    hits = _relevant_rows(ranked) & (ranked.row_rank <= k)
    return np.bincount(ranked.row_query[hits], minlength=len(ranked.query_ids)).astype(float)


def _average_precision(ranked: RankedJudgments, k: int | None) -> np.ndarray:
    relevant = _relevant_rows(ranked)
    if k is not None:
        relevant &= ranked.row_rank <= k
    # rank of each relevant row among the relevant rows of its query = hits so far
    rel_query = ranked.row_query[relevant]
    hits_so_far = (
        np.arange(1, relevant.sum() + 1)
        - np.searchsorted(rel_query, np.arange(len(ranked.query_ids)))[rel_query]
    )
    precision = hits_so_far / ranked.row_rank[relevant]
    total = np.bincount(rel_query, weights=precision, minlength=len(ranked.query_ids))
    return _safe_divide(total, ranked.num_relevant.astype(float))


def _reciprocal_rank(ranked: RankedJudgments, k: int | None) -> np.ndarray:
    relevant = _relevant_rows(ranked)
    if k is not None:
        relevant &= ranked.row_rank <= k
    first = np.full(len(ranked.query_ids), np.inf)
    np.minimum.at(first, ranked.row_query[relevant], ranked.row_rank[relevant])
    return np.where(np.isfinite(first), 1.0 / first, 0.0)


def compute_metric(ranked: RankedJudgments, name: str) -> np.ndarray:
    """Per-query values of one metric, aligned with ranked.query_ids."""
    measure, k = parse_metric_name(name)
    if measure == "nDCG":
        return _ndcg(ranked, k)
    if measure == "Recall":
        return _safe_divide(_relevant_retrieved_at(ranked, k), ranked.num_relevant.astype(float))
    if measure == "P":
        return _relevant_retrieved_at(ranked, k) / k
    if measure == "MAP":
        return _average_precision(ranked, k)
    return _reciprocal_rank(ranked, k)


@dataclass(frozen=True)
class Evaluation:
    """Per-query values (rows = queries, columns = metrics) and their means."""

    per_query: pd.DataFrame
    means: dict[str, float]
    n_evaluated: int
    n_in_run: int
    n_qrels_queries: int
    query_set: str


def evaluate_run(
    run: pd.DataFrame,
    qrels: pd.DataFrame,
    metrics: Sequence[str],
    relevance_level: int = 1,
    query_set: str = "complete",
) -> Evaluation:
    """Evaluate a run against qrels on every metric in `metrics`."""
    for name in metrics:
        parse_metric_name(name)
    ranked = rank_run(run, qrels, relevance_level=relevance_level, query_set=query_set)
    table = pd.DataFrame(
        {name: compute_metric(ranked, name) for name in metrics},
        index=pd.Index(ranked.query_ids, name="query_id"),
    )
    return Evaluation(
        per_query=table,
        means={name: float(table[name].mean()) for name in metrics},
        n_evaluated=len(table),
        n_in_run=int(ranked.in_run.sum()),
        n_qrels_queries=int(qrels["query_id"].nunique()),
        query_set=query_set,
    )
