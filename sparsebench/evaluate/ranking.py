"""A run put in trec_eval's order and joined with its qrels (evaluate.slices feeds it
the run a slice of queries at a time).

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
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.arrays import descending_score_keys, group_ranks, span_indices
from sparsebench.core.errors import DataError
from sparsebench.core.idkeys import KeyTable, pair_keys, repeats_in_groups, same_ids
from sparsebench.core.strings import take_rows
from sparsebench.evaluate.levels import check_relevance_level

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
    num_judged: np.ndarray  # (Q,) judged documents with grade >= 0
    ideal_query: np.ndarray  # (J,) query index of each positive grade, best first
    ideal_rank: np.ndarray  # (J,) 1-based rank in the ideal ordering
    ideal_grade: np.ndarray  # (J,) the positive grade
    relevance_level: int

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)

    def at_level(self, relevance_level: int) -> RankedJudgments:
        """The same ranking with relevance from another grade on (>= 1): what
        P(rel=2)@10 and the like are measured on."""
        check_relevance_level(relevance_level)
        relevant = self.ideal_query[self.ideal_grade >= relevance_level]
        num_relevant = np.bincount(relevant, minlength=self.n_queries)
        return replace(
            self,
            num_relevant=num_relevant,
            num_nonrelevant=self.num_judged - num_relevant,
            relevance_level=relevance_level,
        )

    def condensed(self) -> RankedJudgments:
        """The condensed list (Sakai 2007; trec_eval -J): the ranking without its unjudged
        documents (absent from the qrels, or with a negative grade), ranks closed up. What
        nDCG'@10 is measured on."""
        keep = self.row_judged & (self.row_grade >= 0)
        query = self.row_query[keep]
        return replace(
            self,
            n_in_run=int((np.bincount(query, minlength=self.n_queries) > 0).sum()),
            row_query=query,
            row_rank=group_ranks(query, self.n_queries),
            row_grade=self.row_grade[keep],
            row_judged=self.row_judged[keep],
        )

    def optimistic(self, k: int | None) -> RankedJudgments:
        """The ranking as if every unjudged document in its top k (all: k None; absent
        from the qrels, or with a negative grade) were relevant, with its query's best
        grade (at least the relevance level), and so also one more relevant document of
        the query: the other end of the score's band when the judgments miss what a
        model retrieves (higher for precision; not always for recall, AP or nDCG, whose
        denominators grow too)."""
        promote = ~self.row_judged | (self.row_grade < 0)
        if k is not None:
            promote &= self.row_rank <= k
        best = np.full(self.n_queries, float(self.relevance_level))
        np.maximum.at(best, self.ideal_query, self.ideal_grade)
        query = self.row_query[promote]
        grade, judged = self.row_grade.copy(), self.row_judged.copy()
        grade[promote], judged[promote] = best[query], True
        added = np.bincount(query, minlength=self.n_queries)
        ideal_query = np.concatenate([self.ideal_query, query])
        ideal_grade = np.concatenate([self.ideal_grade, best[query]])
        order = np.lexsort((-ideal_grade, ideal_query))
        ideal_query = ideal_query[order]
        return replace(
            self,
            row_grade=grade,
            row_judged=judged,
            num_relevant=self.num_relevant + added,
            num_judged=self.num_judged + added,
            ideal_query=ideal_query,
            ideal_rank=group_ranks(ideal_query, self.n_queries),
            ideal_grade=ideal_grade[order],
        )


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
    judged = judged_queries(qrels_queries)
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


def judged_queries(qrels_queries: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The distinct query ids of the qrels, sorted."""
    judged = pc.unique(qrels_queries)
    return judged.take(pc.sort_indices(judged))


def rank_queries(
    query_ids: pa.Array,
    run_query: np.ndarray,
    run_d: pa.Array | pa.ChunkedArray,
    score: np.ndarray,
    qrels_query: np.ndarray,
    qrels_d: pa.Array | pa.ChunkedArray,
    qrels_grade: np.ndarray,
    relevance_level: int,
) -> RankedJudgments:
    """The run rows of some queries (run_query: index in `query_ids`, -1 for a query not
    evaluated; score: float32) in trec_eval order, with the grades of their judgments
    (qrels_query: index in `query_ids`). Raises DataError on a document listed twice
    for a query, or a pair judged twice.

    No string is sorted but where the order needs it: grades and repeated documents are
    found through 64-bit keys of (query, document) checked again as strings (idkeys),
    the score order is verified in one pass (most runs are written in it) or made by one
    numeric sort, and document ids are compared only inside ties that hold a judged
    document, the only ties whose order can change a measure."""
    n_queries = len(query_ids)
    keep = run_query >= 0
    if not keep.all():
        run_d, score, run_query = run_d.filter(pa.array(keep)), score[keep], run_query[keep]

    keys = pair_keys(run_query, run_d)
    grade, judged = _grades(keys, run_query, run_d, qrels_query, qrels_d, qrels_grade)
    order = _score_order(run_query, score)
    if order is not None:
        run_query, score = run_query[order], score[order]
        grade, judged, keys = grade[order], judged[order], keys[order]
    row_rank = group_ranks(run_query, n_queries)
    _refuse_repeats(run_query, row_rank, keys, run_d, order, query_ids)
    moved, source = _judged_ties(run_query, score, run_d, order, judged)
    grade[moved], judged[moved] = grade[source], judged[source]

    num_relevant = np.bincount(qrels_query[qrels_grade >= relevance_level], minlength=n_queries)
    nonrel = (qrels_grade >= 0) & (qrels_grade < relevance_level)
    num_nonrelevant = np.bincount(qrels_query[nonrel], minlength=n_queries)
    positive = qrels_grade > 0
    ideal_query, ideal_grade = qrels_query[positive], qrels_grade[positive]
    ideal_order = np.lexsort((-ideal_grade, ideal_query))
    ideal_query, ideal_grade = ideal_query[ideal_order], ideal_grade[ideal_order]

    return RankedJudgments(
        query_ids=np.asarray(query_ids.to_pylist(), dtype=object),
        n_in_run=int((np.bincount(run_query, minlength=n_queries) > 0).sum()),
        row_query=run_query,
        row_rank=row_rank,
        row_grade=grade.astype(np.float64),
        row_judged=judged,
        num_relevant=num_relevant,
        num_nonrelevant=num_nonrelevant,
        num_judged=np.bincount(qrels_query[qrels_grade >= 0], minlength=n_queries),
        ideal_query=ideal_query,
        ideal_rank=group_ranks(ideal_query, n_queries),
        ideal_grade=ideal_grade.astype(np.float64),
        relevance_level=relevance_level,
    )


def query_codes(ids: pa.Array | pa.ChunkedArray, query_ids: pa.Array) -> np.ndarray:
    """Each id's index in query_ids, -1 where it is not there."""
    codes = pc.fill_null(pc.index_in(ids, value_set=query_ids), -1)
    return np.asarray(codes.to_numpy(), dtype=np.int64)


def query_blocks(query_ids: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Starts of the runs of equal query ids (a run lists each query's rows together:
    its queries are found block by block, not by sorting strings), and the end."""
    n = len(query_ids)
    if n == 0:
        return np.zeros(1, dtype=np.int64)
    changed = pc.not_equal(query_ids[1:], query_ids[:-1]).to_numpy(zero_copy_only=False)
    return np.concatenate([[0], np.flatnonzero(changed) + 1, [n]]).astype(np.int64)


def _grades(
    keys: np.ndarray,
    run_query: np.ndarray,
    run_docs: pa.Array,
    qrels_query: np.ndarray,
    qrels_docs: pa.Array,
    qrels_grade: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Grade and judged flag of each run row (keys: its pair_keys)."""
    table = KeyTable(pair_keys(qrels_query, qrels_docs))
    found = (
        table.find(keys) if table.unique else _joined(run_query, run_docs, qrels_query, qrels_docs)
    )
    rows = np.flatnonzero(found >= 0)
    judgments = found[rows]
    same = run_query[rows] == qrels_query[judgments]
    same &= same_ids(run_docs, rows, qrels_docs, judgments)
    rows, judgments = rows[same], judgments[same]
    grade = np.zeros(len(keys), dtype=np.int64)
    judged = np.zeros(len(keys), dtype=bool)
    grade[rows] = qrels_grade[judgments]
    judged[rows] = True
    return grade, judged


def _joined(
    run_query: np.ndarray, run_docs: pa.Array, qrels_query: np.ndarray, qrels_docs: pa.Array
) -> np.ndarray:
    """Each run row's judgment (-1 for none) by a join on the strings themselves: for
    qrels where two different pairs share a key."""
    judgments = pa.table({"q": qrels_query, "d": qrels_docs, "j": np.arange(len(qrels_query))})
    if judgments.group_by(["q", "d"]).aggregate([]).num_rows < len(qrels_query):
        raise DataError("the qrels judge a (query, document) pair more than once")
    rows = pa.table({"q": run_query, "d": run_docs, "r": np.arange(len(run_query))})
    joined = rows.join(judgments, keys=["q", "d"], join_type="inner")
    found = np.full(len(run_query), -1, dtype=np.int64)
    found[joined["r"].to_numpy()] = joined["j"].to_numpy()
    return found


def _refuse_repeats(
    row_query: np.ndarray,
    row_rank: np.ndarray,
    keys: np.ndarray,
    run_docs: pa.Array,
    order: np.ndarray | None,
    query_ids: pa.Array,
) -> None:
    """DataError naming a document the run lists twice for a query (rows in trec order;
    keys that agree without being the same pair pass)."""
    positions = repeats_in_groups(row_query, row_rank, keys)
    if not len(positions):
        return
    rows = positions if order is None else order[positions]
    docs = take_rows(run_docs, rows).to_pylist()
    counts = pd.DataFrame({"query": row_query[positions], "doc": docs}).value_counts(sort=False)
    counts = counts[counts > 1]
    if len(counts):
        (query, doc), _ = next(iter(counts.items()))
        raise DataError(
            f"the run lists document {doc!r} more than once for query "
            f"{query_ids[int(query)].as_py()!r} ({int((counts - 1).sum())} duplicate lines); "
            "trec_eval refuses such runs. Deduplicate the run."
        )


def _score_order(query: np.ndarray, score: np.ndarray) -> np.ndarray | None:
    """The rows by query, then score descending (ties in any order), or None when they
    already are."""
    same_query = query[1:] == query[:-1]
    in_order = ((score[1:] <= score[:-1]) | ~same_query).all()
    starts = np.concatenate([[0], np.flatnonzero(~same_query) + 1]) if len(query) else []
    block_query = query[starts]
    if in_order and (block_query[1:] > block_query[:-1]).all():
        return None
    if not in_order or len(np.unique(block_query)) < len(block_query):  # or a query split
        keys = (query << 32) | descending_score_keys(score).astype(np.int64)
        return np.argsort(keys, kind="stable")
    ends = np.append(starts[1:], len(query))
    by_query = np.argsort(block_query)
    return span_indices(starts[by_query], ends[by_query])


def _judged_ties(
    query: np.ndarray,
    score: np.ndarray,
    docs: pa.Array,
    order: np.ndarray | None,
    judged: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """trec_eval's order inside ties of rows in score order: (positions, the positions
    whose rows move there), document ids descending. Only ties that hold a judged
    document move: elsewhere every row of a tie is unjudged, and their order changes no
    measure."""
    none = np.zeros(0, dtype=np.int64)
    links = np.flatnonzero((query[1:] == query[:-1]) & (score[1:] == score[:-1]))
    if not len(links):  # row i ties with row i + 1 at each link i
        return none, none
    # a tie is a run of consecutive links a..b: rows a..b + 1
    first_link = np.flatnonzero(np.diff(links, prepend=-2) != 1)
    last_link = np.append(first_link[1:], len(links)) - 1
    # the links of judged rows: with the row after (i) or the row before (i - 1)
    rows = np.flatnonzero(judged)
    link = np.searchsorted(links, rows - 1)
    inside = link < len(links)
    link = link[inside]
    link = link[links[link] <= rows[inside]]
    ties = np.unique(np.searchsorted(first_link, link, side="right") - 1)
    if not len(ties):
        return none, none
    starts, ends = links[first_link[ties]], links[last_link[ties]] + 2
    positions = span_indices(starts, ends)
    group = np.repeat(np.arange(len(ties)), ends - starts)
    rows = positions if order is None else order[positions]
    within = pc.sort_indices(
        pa.table({"g": group, "d": take_rows(docs, rows)}),
        sort_keys=[("g", "ascending"), ("d", "descending")],
    ).to_numpy()
    return positions, positions[within]
