"""A run put in trec_eval's order and joined with its qrels, for all queries at once.

trec_eval ignores the rank column of a run: it orders each query's documents by score,
held as a 32-bit float, descending, then by document id in *descending* byte order
(`comp_sim_docno` in trec_eval's form_res_rels.c). `rank_run` applies exactly that
order, so measures computed on its result equal trec_eval's, ties included.

Judgments follow trec_eval too: a grade >= relevance_level is relevant, a grade in
[0, relevance_level) is judged non-relevant, a negative grade means "in the pool but
unjudged" (bpref skips such documents; every other measure treats them as
non-relevant), and a document absent from the qrels is non-relevant.

Which queries count: "complete" (the default, trec_eval -c) takes every query of the
qrels, a query missing from the run then having an empty ranking; "run" takes only
queries present in both (trec_eval without -c). Queries of the run that have no qrels
never count.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.arrays import group_ranks
from sparsebench.errors import DataError

log = logging.getLogger(__name__)
QUERY_SETS = ("complete", "run")


@dataclass(frozen=True)
class RankedJudgments:
    """Rows of the run in trec_eval order (by query, then rank), with their grades."""

    query_ids: np.ndarray  # (Q,) evaluated query ids, sorted
    n_in_run: int  # evaluated queries that have at least one retrieved document
    row_query: np.ndarray  # (R,) query index of each retrieved row
    row_rank: np.ndarray  # (R,) 1-based rank within its query
    row_grade: np.ndarray  # (R,) qrels grade (0 when not in the qrels)
    row_judged: np.ndarray  # (R,) bool: the document is in the qrels for this query
    num_relevant: np.ndarray  # (Q,) judged documents with grade >= relevance_level
    num_nonrelevant: np.ndarray  # (Q,) judged documents with 0 <= grade < relevance_level
    ideal_query: np.ndarray  # (J,) query index of each positive grade, best first
    ideal_rank: np.ndarray  # (J,) 1-based rank in the ideal ordering
    ideal_grade: np.ndarray  # (J,) the positive grade
    relevance_level: int

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)


def string_ids(values: pd.Series | np.ndarray | pa.Array, what: str) -> pa.ChunkedArray | pa.Array:
    """Ids as an Arrow string array; anything but strings is an error, never a cast."""
    if not isinstance(values, pa.Array | pa.ChunkedArray):
        try:
            values = pa.array(values, from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            raise DataError(
                f"{what} mixes strings with other values; ids must be strings end to end "
                "('123' and 123 never match). Convert them with str() first."
            ) from None
    if pa.types.is_large_string(values.type):
        values = values.cast(pa.string())
    if not pa.types.is_string(values.type) and len(values):
        raise DataError(
            f"{what} holds {values.type} values; ids must be strings end to end "
            "('123' and 123 never match). Convert them with str() first."
        )
    if values.null_count:
        raise DataError(f"{what} has {values.null_count} missing ids")
    return values.cast(pa.string())


def select_queries(run_queries: pa.Array, qrels_queries: pa.Array, query_set: str) -> pa.Array:
    """The evaluated query ids, sorted; logs "Evaluating X / Y queries"."""
    if query_set not in QUERY_SETS:
        raise ValueError(f"query_set must be one of {QUERY_SETS}, not {query_set!r}")
    judged = pc.unique(qrels_queries)
    judged = judged.take(pc.sort_indices(judged))
    overlap = judged.filter(pc.is_in(judged, value_set=pc.unique(run_queries)))
    log.info(
        "Evaluating %d / %d queries (queries of the qrels found in the run; query_set=%s)",
        len(overlap),
        len(judged),
        query_set,
    )
    if len(overlap) == 0:
        raise DataError(
            f"Evaluating 0 / {len(judged)} queries: the run and the qrels share no query id. "
            "Wrong qrels split, or ids written differently (e.g. '1' vs 'q1')?"
        )
    return judged if query_set == "complete" else overlap


def rank_run(
    run: pd.DataFrame, qrels: pd.DataFrame, relevance_level: int = 1, query_set: str = "complete"
) -> RankedJudgments:
    """Order `run` (query_id, doc_id, score) as trec_eval does and attach the grades of
    `qrels` (query_id, doc_id, grade). Raises DataError on non-string ids, on a document
    listed twice for a query, and when run and qrels share no query.

    Runs on Arrow and numpy kernels: one multi-key sort puts the run in trec_eval order;
    grades are found by hashing against the (small) set of judged documents; the check
    for repeated documents runs on a second core meanwhile.
    """
    run_q = string_ids(run["query_id"], "run column 'query_id'")
    run_d = string_ids(run["doc_id"], "run column 'doc_id'")
    qrels_q = string_ids(qrels["query_id"], "qrels column 'query_id'")
    qrels_d = string_ids(qrels["doc_id"], "qrels column 'doc_id'")
    query_ids = select_queries(run_q, qrels_q, query_set)
    n_queries = len(query_ids)

    run_query = pc.index_in(run_q, value_set=query_ids)
    keep = pc.is_valid(run_query)
    score = np.asarray(run["score"], dtype=np.float64)
    if not pc.all(keep).as_py():
        run_d = run_d.filter(keep)
        score = score[keep.to_numpy(zero_copy_only=False)]
        run_query = run_query.filter(keep)
    run_query = run_query.to_numpy().astype(np.int64)
    score = score.astype(np.float32)  # trec_eval holds scores as 32-bit floats

    # trec_eval order: query, score descending, document id descending (byte order)
    order = pc.sort_indices(
        pa.table({"q": run_query, "s": score, "d": run_d}),
        sort_keys=[("q", "ascending"), ("s", "descending"), ("d", "descending")],
    ).to_numpy()
    row_query = run_query[order]
    row_docs = run_d.take(order)

    qrels_query = pc.index_in(qrels_q, value_set=query_ids)
    qkeep = pc.is_valid(qrels_query).to_numpy(zero_copy_only=False)
    qrels_query = qrels_query.to_numpy(zero_copy_only=False)[qkeep].astype(np.int64)
    qrels_grade = np.asarray(qrels["grade"], dtype=np.int64)[qkeep]
    qrels_d = qrels_d.filter(pa.array(qkeep))
    qrels_order = np.argsort(qrels_query, kind="stable")
    qrels_query, qrels_grade = qrels_query[qrels_order], qrels_grade[qrels_order]
    qrels_d = qrels_d.take(pa.array(qrels_order))

    # Grades and repeated documents: run rows and judgments sorted together by (query,
    # document), two halves of the queries on two threads.
    row_grade = np.zeros(len(row_query), dtype=np.int64)
    row_judged = np.zeros(len(row_query), dtype=bool)
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = []
        for first, last in _query_halves(n_queries):
            rows = slice(*np.searchsorted(row_query, [first, last]))
            judged = slice(*np.searchsorted(qrels_query, [first, last]))
            jobs.append(
                (
                    rows,
                    pool.submit(
                        _match_judgments,
                        row_query[rows],
                        row_docs[rows],
                        qrels_query[judged],
                        qrels_d[judged],
                        qrels_grade[judged],
                    ),
                )
            )
        for rows, job in jobs:
            grade, judged_rows, duplicate = job.result()
            if duplicate is not None:
                query, doc, count = duplicate
                raise DataError(
                    f"the run lists document {doc!r} more than once for query "
                    f"{query_ids[query].as_py()!r} ({count} duplicate lines); trec_eval "
                    "refuses such runs. Deduplicate the run."
                )
            row_grade[rows], row_judged[rows] = grade, judged_rows

    num_relevant = np.bincount(qrels_query[qrels_grade >= relevance_level], minlength=n_queries)
    nonrel = (qrels_grade >= 0) & (qrels_grade < relevance_level)
    num_nonrelevant = np.bincount(qrels_query[nonrel], minlength=n_queries)
    positive = qrels_grade > 0
    ideal_query, ideal_grade = qrels_query[positive], qrels_grade[positive]
    ideal_order = np.lexsort((-ideal_grade, ideal_query))
    ideal_query, ideal_grade = ideal_query[ideal_order], ideal_grade[ideal_order]

    return RankedJudgments(
        query_ids=np.asarray(query_ids.to_pylist(), dtype=object),
        n_in_run=int((np.bincount(row_query, minlength=n_queries) > 0).sum()),
        row_query=row_query,
        row_rank=group_ranks(row_query, n_queries),
        row_grade=row_grade.astype(np.float64),
        row_judged=row_judged,
        num_relevant=num_relevant,
        num_nonrelevant=num_nonrelevant,
        ideal_query=ideal_query,
        ideal_rank=group_ranks(ideal_query, n_queries),
        ideal_grade=ideal_grade.astype(np.float64),
        relevance_level=relevance_level,
    )


def _chunks(array: pa.Array | pa.ChunkedArray) -> list[pa.Array]:
    return list(array.chunks) if isinstance(array, pa.ChunkedArray) else [array]


def _query_halves(n_queries: int) -> list[tuple[int, int]]:
    middle = n_queries // 2
    return [(0, middle), (middle, n_queries)] if middle else [(0, n_queries)]


def _match_judgments(
    row_query: np.ndarray,
    row_docs: pa.Array,
    qrels_query: np.ndarray,
    qrels_docs: pa.Array,
    qrels_grade: np.ndarray,
):
    """Grade and judged flag of each run row, and a repeated (query, document) if any.

    Run rows and judgments are sorted together by (query, document, source): a judged
    run row sits right before its judgment, and a repeated document right after itself.
    """
    n_rows = len(row_query)
    grade = np.zeros(n_rows, dtype=np.int64)
    judged = np.zeros(n_rows, dtype=bool)
    if n_rows == 0:
        return grade, judged, None
    table = pa.table(
        {
            "q": np.concatenate([row_query, qrels_query]),
            "d": pa.chunked_array(_chunks(row_docs) + _chunks(qrels_docs), type=pa.string()),
            "src": np.concatenate([np.zeros(n_rows, np.int8), np.ones(len(qrels_query), np.int8)]),
        }
    )
    order = pc.sort_indices(
        table, sort_keys=[("q", "ascending"), ("d", "ascending"), ("src", "ascending")]
    ).to_numpy()
    q = table["q"].to_numpy()[order]
    docs = table["d"].take(order)
    src = table["src"].to_numpy()[order]
    same = (q[1:] == q[:-1]) & pc.equal(docs[1:], docs[:-1]).to_numpy(zero_copy_only=False)
    repeated = same & (src[1:] == 0)
    if repeated.any():
        at = int(np.argmax(repeated))
        return grade, judged, (int(q[at]), docs[at].as_py(), int(repeated.sum()))
    match = np.nonzero(same & (src[:-1] == 0) & (src[1:] == 1))[0]
    rows, judgments = order[match], order[match + 1] - n_rows
    grade[rows] = qrels_grade[judgments]
    judged[rows] = True
    return grade, judged, None
