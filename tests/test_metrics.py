"""The metric engine against trec_eval (pytrec_eval-terrier) on hard cases."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from sparsebench.errors import DataError
from sparsebench.metrics import evaluate_run, parse_metric_name

TREC_NAMES = {
    "nDCG@1": "ndcg_cut_1",
    "nDCG@5": "ndcg_cut_5",
    "nDCG@10": "ndcg_cut_10",
    "nDCG@1000": "ndcg_cut_1000",
    "Recall@5": "recall_5",
    "Recall@100": "recall_100",
    "P@5": "P_5",
    "P@10": "P_10",
    "MAP": "map",
    "MAP@10": "map_cut_10",
    "MRR": "recip_rank",
}
TREC_MEASURES = {
    "ndcg_cut.1,5,10,1000",
    "recall.5,100",
    "P.5,10",
    "map",
    "map_cut.10",
    "recip_rank",
}


def trec_eval(run: pd.DataFrame, qrels: pd.DataFrame, level: int = 1) -> pd.DataFrame:
    run_dict: dict = {}
    for q, d, s in run[["query_id", "doc_id", "score"]].itertuples(index=False):
        run_dict.setdefault(q, {})[d] = float(s)
    qrels_dict: dict = {}
    for q, d, g in qrels[["query_id", "doc_id", "grade"]].itertuples(index=False):
        qrels_dict.setdefault(q, {})[d] = int(g)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels_dict, TREC_MEASURES, relevance_level=level)
    return pd.DataFrame(evaluator.evaluate(run_dict)).T


def random_case(seed: int, n_queries: int = 60, n_docs: int = 300):
    """Ties in scores, graded and negative grades, queries without relevant documents,
    queries only in the run, queries only in the qrels, runs shorter than the cutoffs."""
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in range(n_queries):
        qid = f"q{q}"
        if q % 10 != 9:  # every tenth query is missing from the run
            docs = rng.choice(n_docs, size=rng.integers(1, 80), replace=False)
            scores = rng.integers(0, 6, size=len(docs)) / 4.0  # many ties
            run_rows += [(qid, f"doc{d}", s) for d, s in zip(docs, scores, strict=True)]
        judged = rng.choice(n_docs, size=rng.integers(1, 20), replace=False)
        grades = rng.integers(-1, 4, size=len(judged))
        if q % 7 == 3:
            grades = np.minimum(grades, 0)  # no relevant document
        qrels_rows += [(qid, f"doc{d}", int(g)) for d, g in zip(judged, grades, strict=True)]
    run_rows += [("only-in-run", "doc1", 1.0)]
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "grade"])
    return run, qrels


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("level", [1, 2])
def test_per_query_values_equal_trec_eval(seed, level):
    run, qrels = random_case(seed)
    ours = evaluate_run(run, qrels, list(TREC_NAMES), relevance_level=level, query_set="run")
    reference = trec_eval(run, qrels, level)
    assert sorted(ours.per_query.index) == sorted(reference.index)
    for name, trec_name in TREC_NAMES.items():
        expected = reference[trec_name].reindex(ours.per_query.index).to_numpy(float)
        np.testing.assert_allclose(
            ours.per_query[name].to_numpy(), expected, rtol=0, atol=1e-9, err_msg=name
        )
        assert ours.means[name] == pytest.approx(expected.mean(), abs=1e-9)


def test_ties_follow_trec_eval_order_not_file_order():
    # Equal scores: trec_eval ranks the larger doc id first, whatever the file order.
    run = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["a", "b", "c"], "score": [1.0] * 3})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["c"], "grade": [1]})
    ours = evaluate_run(run, qrels, ["MRR", "nDCG@1"])
    assert ours.means["MRR"] == 1.0
    assert trec_eval(run, qrels)["recip_rank"]["q"] == 1.0


def test_scores_are_compared_as_float32_like_trec_eval():
    # Distinct as float64, equal as float32: trec_eval sees a tie.
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [1.0, 1.0 + 1e-12]})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["b"], "grade": [1]})
    ours = evaluate_run(run, qrels, ["MRR"])
    assert ours.means["MRR"] == trec_eval(run, qrels)["recip_rank"]["q"] == 1.0


def test_complete_query_set_counts_missing_queries_as_zero(caplog):
    caplog.set_level(logging.INFO)
    run, qrels = random_case(5)
    complete = evaluate_run(run, qrels, ["nDCG@10", "MAP"], query_set="complete")
    only_run = evaluate_run(run, qrels, ["nDCG@10", "MAP"], query_set="run")
    n_qrels = qrels["query_id"].nunique()
    assert complete.n_evaluated == n_qrels
    assert only_run.n_evaluated == n_qrels - 6  # queries 9, 19, ... 59 are not in the run
    missing = complete.per_query.loc[~complete.per_query.index.isin(only_run.per_query.index)]
    assert (missing.to_numpy() == 0).all()
    assert complete.means["MAP"] == pytest.approx(
        only_run.per_query["MAP"].sum() / n_qrels, abs=1e-12
    )
    assert f"Evaluating {n_qrels - 6} / {n_qrels} queries" in caplog.text


def test_no_common_query_is_an_error():
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["d"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["d", "d"], "grade": [1, 1]})
    with pytest.raises(DataError, match=r"Evaluating 0 / 2 queries"):
        evaluate_run(run, qrels, ["nDCG@10"])


def test_duplicate_documents_in_a_run_are_rejected():
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d", "d"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "grade": [1]})
    with pytest.raises(DataError, match="more than once"):
        evaluate_run(run, qrels, ["MAP"])


def test_integer_ids_are_rejected_with_a_clear_message():
    run = pd.DataFrame({"query_id": [1], "doc_id": ["d"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["d"], "grade": [1]})
    with pytest.raises(DataError, match="ids must be strings"):
        evaluate_run(run, qrels, ["MAP"])


@pytest.mark.parametrize("name", ["ndcg@10", "nDCG", "Recall", "F2@3", "MAP@0"])
def test_unknown_metric_names_are_rejected(name):
    with pytest.raises(ValueError):
        parse_metric_name(name)


def test_unsorted_run_lines_are_detected():
    from sparsebench.runfile import misordered_queries

    run = pd.DataFrame({"query_id": ["a", "a", "b", "b"], "doc_id": ["x", "y", "x", "y"],
                        "score": [1.0, 2.0, 3.0, 1.0]})
    assert misordered_queries(run) == ["a"]
