"""Condensed-list measures (nDCG'@10, MAP', ..., ir_measures' judged_only=True) against
trec_eval -J (pytrec_eval-terrier's judged_docs_only_flag) on random hard cases, and the
optimistic end of a score's band (unjudged=relevant) by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from support.trec_eval_reference import random_case, trec_eval
from test_metrics import ALL_METRICS, reference_values

from sparsebench.evaluate.measures import modifiers_of, parse_metric_name
from sparsebench.evaluate.metrics import evaluate_run

# trec_eval -J shifts ranks; its measures of judgment coverage have no condensed form
CONDENSED = [m for m in ALL_METRICS if parse_metric_name(m)[0] not in ("Judged", "Unjudged")]


def prime(name: str) -> str:
    measure, _, rest = name.partition("@")
    return f"{measure}'@{rest}" if rest else f"{measure}'"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("level", [1, 2])
def test_condensed_measures_equal_trec_eval_dash_j(seed, level):
    run, qrels = random_case(seed)
    names = [prime(m) for m in CONDENSED]
    ours = evaluate_run(run, qrels, names, relevance_level=level, query_set="run")
    reference = trec_eval(run, qrels, level, judged_only=True)
    # where none of a query's retrieved documents is judged, its condensed list is empty:
    # pytrec_eval then reports no interpolated precision, which is 0 as for an empty ranking
    judged = set(run.merge(qrels[qrels["grade"] >= 0], on=["query_id", "doc_id"])["query_id"])
    empty = ~reference.index.isin(list(judged))
    for plain, name in zip(CONDENSED, names, strict=True):
        expected = reference_values(reference, plain)
        assert not expected[~empty].isna().any(), name
        expected = expected.fillna(0.0).reindex(ours.per_query.index).to_numpy(float)
        np.testing.assert_allclose(
            ours.per_query[name].to_numpy(), expected, atol=1e-9, err_msg=name
        )


def test_both_notations_and_the_plain_measure_differ():
    run, qrels = random_case(4)
    names = ["nDCG@10", "nDCG'@10", "nDCG(judged_only=True)@10", "P(rel=2,judged_only=True)@5",
             "P'(rel=2)@5"]  # fmt: skip
    values = evaluate_run(run, qrels, names, query_set="run").means
    assert values["nDCG'@10"] == values["nDCG(judged_only=True)@10"] != values["nDCG@10"]
    assert values["P(rel=2,judged_only=True)@5"] == values["P'(rel=2)@5"]
    assert modifiers_of("P'(rel=2)@5").level == 2


def test_optimistic_band_by_hand():
    """q: d1 (grade 2), x (unjudged), d2 (0), y (unjudged); the qrels also hold d3 (1).
    Optimistic at k = 3: x becomes relevant with the query's best grade, 2, and one more
    relevant document; y (rank 4) stays out."""
    run = pd.DataFrame(
        {"query_id": ["q"] * 4, "doc_id": ["d1", "x", "d2", "y"], "score": [4.0, 3.0, 2.0, 1.0]}
    )
    qrels = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["d1", "d2", "d3"], "grade": [2, 0, 1]})
    names = ["P@3", "P(unjudged=relevant)@3", "Recall(unjudged=relevant)@3",
             "nDCG(unjudged=relevant)@3", "MAP(unjudged=relevant)", "nDCG@3"]  # fmt: skip
    got = evaluate_run(run, qrels, names).means
    assert got["P@3"] == pytest.approx(1 / 3)
    assert got["P(unjudged=relevant)@3"] == pytest.approx(2 / 3)
    assert got["Recall(unjudged=relevant)@3"] == pytest.approx(2 / 3)  # d1, x of d1, d3, x
    dcg = 2 + 2 / np.log2(3)
    ideal = 2 + 2 / np.log2(3) + 1 / np.log2(4)
    assert got["nDCG(unjudged=relevant)@3"] == pytest.approx(dcg / ideal)
    # MAP without a cutoff counts every unjudged document retrieved: x and y
    assert got["MAP(unjudged=relevant)"] == pytest.approx((1 + 1 + 3 / 4) / 4)
    assert got["nDCG(unjudged=relevant)@3"] >= got["nDCG@3"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Judged'@10", "counts judgments"),
        ("nDCG(judged_only=True,unjudged=relevant)@10", "no unlisted document"),
        ("nDCG(unjudged=maybe)@10", "unknown parameter"),
        ("nDCG(rel=2)@10", "takes no rel="),
    ],
)
def test_refused_names(name, message):
    with pytest.raises(ValueError, match=message):
        parse_metric_name(name)


def test_ir_measures_judged_only_agrees():
    ir_measures = pytest.importorskip("ir_measures")
    run, qrels = random_case(3)
    pairs = {  # ours -> ir_measures'
        "nDCG(judged_only=True)@10": "nDCG(judged_only=True)@10",
        "P(judged_only=True)@5": "P(judged_only=True)@5",
        "MAP(judged_only=True)": "AP(judged_only=True)",
        "Recall(judged_only=True)@20": "R(judged_only=True)@20",
        "MRR(judged_only=True)": "RR(judged_only=True)",
    }
    ours = evaluate_run(run, qrels, list(pairs), query_set="run").per_query
    qrels_list = [ir_measures.Qrel(q, d, int(g)) for q, d, g in qrels.itertuples(index=False)]
    run_list = [ir_measures.ScoredDoc(q, d, float(s)) for q, d, s in run.itertuples(index=False)]
    measures = [ir_measures.parse_measure(n) for n in pairs.values()]
    theirs = {
        (str(m.measure), m.query_id): m.value
        for m in ir_measures.iter_calc(measures, qrels_list, run_list)
    }
    compared = 0
    for name, theirs_name in pairs.items():
        for query in ours.index:
            if (theirs_name, query) in theirs:
                assert ours.at[query, name] == pytest.approx(theirs[(theirs_name, query)], abs=1e-9)
                compared += 1
    assert compared > 150


def test_counting_unjudged_relevant_can_lower_a_normalised_score():
    """One relevant document at rank 1, a judged non-relevant one at 2, an unjudged one at
    3: nDCG@3 is 1; counted relevant, the unjudged one also joins the ideal ranking (at
    rank 2), so nDCG@3 drops to (1 + 1/2) / (1 + 1/log2(3)). The band is the two values."""
    run = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["a", "b", "x"], "score": [3.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "grade": [1, 0]})
    got = evaluate_run(run, qrels, ["nDCG@3", "nDCG(unjudged=relevant)@3"]).means
    assert got["nDCG@3"] == pytest.approx(1.0)
    assert got["nDCG(unjudged=relevant)@3"] == pytest.approx(1.5 / (1 + 1 / np.log2(3)))
