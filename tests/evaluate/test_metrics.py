"""The metric engine against trec_eval (pytrec_eval-terrier) on hard cases: ties,
graded and negative grades, queries without relevant documents, queries only in the
run or only in the qrels, runs shorter than the cutoffs."""

from __future__ import annotations

import logging
import math

import numpy as np
import pandas as pd
import pytest
from support.trec_eval_reference import CUTOFFS, random_case, trec_eval

from sparsebench.core.errors import DataError
from sparsebench.evaluate.measures import default_metric_names, parse_metric_name
from sparsebench.evaluate.metrics import (
    evaluate_retrieval,
    evaluate_retrieval_per_query,
    evaluate_run,
    evaluate_run_file,
)
from sparsebench.runs.runfile import misordered_queries


def reference_values(ref: pd.DataFrame, name: str) -> pd.Series:
    """The value trec_eval gives for one of our measure names (derived where trec_eval has
    no measure of that name)."""
    measure, k = parse_metric_name(name)
    direct = {
        "nDCG": "ndcg_cut_{k}",
        "Recall": "recall_{k}",
        "P": "P_{k}",
        "Success": "success_{k}",
        "MAP": "map_cut_{k}",
    }
    if measure in direct and k is not None:
        return ref[direct[measure].format(k=k)]
    simple = {
        "MAP": "map",
        "MRR": "recip_rank",
        "R-Precision": "Rprec",
        "bpref": "bpref",
        "gMAP": "gm_map",
    }
    if k is None and measure in simple:
        return ref[simple[measure]]
    if measure == "IPrec":
        return ref[f"iprec_at_recall_{k:.2f}"]
    precision, recall = ref[f"P_{k}"], ref[f"recall_{k}"]
    if measure == "F1":
        total = precision + recall
        return (2 * precision * recall / total.where(total > 0, 1)).where(total > 0, 0.0)
    if measure == "R_cap":
        capped = np.minimum(k, ref["num_rel"])
        return (precision * k / capped.where(capped > 0, 1)).where(capped > 0, 0.0)
    if measure == "MRR":  # MRR@k: the reciprocal rank when the first hit is within k
        return ref["recip_rank"].where(ref["recip_rank"] >= 1 / k, 0.0)
    raise AssertionError(name)


def exponential_ndcg(run: pd.DataFrame, qrels: pd.DataFrame, k: int) -> dict[str, float]:
    """nDCG with gain 2^grade - 1, one query at a time, trec_eval's order (float32
    scores descending, then doc id descending)."""
    grades = {(q, d): g for q, d, g in qrels.itertuples(index=False)}
    out = {}
    for query_id, rows in run.groupby("query_id"):
        ranked = sorted(
            zip(rows["score"].astype(np.float32), rows["doc_id"], strict=True), reverse=True
        )
        dcg = sum(
            (2.0 ** max(grades.get((query_id, d), 0), 0) - 1) / math.log2(i + 2)
            for i, (_, d) in enumerate(ranked[:k])
        )
        ideal = sorted((g for (q, _), g in grades.items() if q == query_id and g > 0), reverse=True)
        idcg = sum((2.0**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal[:k]))
        out[query_id] = dcg / idcg if idcg > 0 else 0.0
    return out


# the measures trec_eval has (Judged and Unjudged are checked against ir_measures)
ALL_METRICS = [
    m
    for m in default_metric_names(CUTOFFS)
    if parse_metric_name(m)[0] not in ("nDCG_exp", "Judged", "Unjudged")
]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("level", [1, 2])
def test_every_measure_equals_trec_eval(seed, level):
    run, qrels = random_case(seed)
    ours = evaluate_run(run, qrels, ALL_METRICS, relevance_level=level, query_set="run")
    reference = trec_eval(run, qrels, level)
    assert sorted(ours.per_query.index) == sorted(reference.index)
    for name in ALL_METRICS:
        expected = reference_values(reference, name).reindex(ours.per_query.index).to_numpy(float)
        np.testing.assert_allclose(
            ours.per_query[name].to_numpy(), expected, rtol=0, atol=1e-9, err_msg=name
        )
    assert ours.means["nDCG@10"] == pytest.approx(reference["ndcg_cut_10"].mean(), abs=1e-12)
    assert ours.means["gMAP"] == pytest.approx(np.exp(reference["gm_map"].mean()), abs=1e-12)


def test_exponential_gain_ndcg_by_hand():
    run, qrels = random_case(7)
    ours = evaluate_run(run, qrels, ["nDCG_exp@5", "nDCG_exp@20", "nDCG@5"], query_set="run")
    for k in (5, 20):
        expected = exponential_ndcg(run, qrels, k)
        got = ours.per_query[f"nDCG_exp@{k}"]
        assert max(abs(got[q] - v) for q, v in expected.items() if q in got.index) < 1e-12
    binary = qrels.assign(grade=(qrels["grade"] > 0).astype(int))
    same = evaluate_run(run, binary, ["nDCG_exp@5", "nDCG@5"], query_set="run").per_query
    np.testing.assert_allclose(same["nDCG_exp@5"], same["nDCG@5"], atol=1e-15)


def test_ties_follow_trec_eval_order_not_file_order():
    # Equal scores: trec_eval ranks the larger doc id first, whatever the file order.
    run = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["a", "b", "c"], "score": [1.0] * 3})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["c"], "grade": [1]})
    assert evaluate_run(run, qrels, ["MRR"]).means["MRR"] == 1.0
    assert trec_eval(run, qrels)["recip_rank"]["q"] == 1.0


def test_scores_are_compared_as_float32_like_trec_eval():
    # Distinct as float64, equal as float32: trec_eval sees a tie.
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [1.0, 1.0 + 1e-12]})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["b"], "grade": [1]})
    assert (
        evaluate_run(run, qrels, ["MRR"]).means["MRR"]
        == trec_eval(run, qrels)["recip_rank"]["q"]
        == 1.0
    )


def test_complete_query_set_counts_missing_queries_as_zero(caplog):
    caplog.set_level(logging.INFO)
    run, qrels = random_case(5)
    names = ["nDCG@10", "MAP", "bpref", "IPrec@0.0"]
    complete = evaluate_run(run, qrels, names + ["gMAP"], query_set="complete")
    only_run = evaluate_run(run, qrels, names, query_set="run")
    n_qrels = qrels["query_id"].nunique()
    assert complete.n_evaluated == n_qrels and complete.n_in_run == n_qrels - 6
    assert only_run.n_evaluated == n_qrels - 6  # queries 9, 19, ... 59 are not in the run
    missing = complete.per_query.loc[~complete.per_query.index.isin(only_run.per_query.index)]
    assert (missing[names].to_numpy() == 0).all()
    assert (missing["gMAP"] == np.log(1e-5)).all()
    assert complete.means["MAP"] == pytest.approx(
        only_run.per_query["MAP"].sum() / n_qrels, abs=1e-12
    )
    assert f"Evaluating {n_qrels - 6} / {n_qrels} queries" in caplog.text


def test_dictionary_api_matches_the_frame_api():
    run, qrels = random_case(9)
    retrieved: dict = {}
    for q, d, s in run.itertuples(index=False):
        retrieved.setdefault(q, []).append((d, s))
    judged: dict = {}
    for q, d, g in qrels.itertuples(index=False):
        judged.setdefault(q, {})[d] = int(g)
    means = evaluate_retrieval(retrieved, judged, k_values=[10, 100])
    assert {"nDCG@10", "Recall@100", "MAP", "MRR", "R_cap@100", "bpref", "gMAP"} <= set(means)
    assert means["nDCG@10"] == pytest.approx(evaluate_run(run, qrels, ["nDCG@10"]).means["nDCG@10"])
    per_query = evaluate_retrieval_per_query(retrieved, judged, metrics=["MAP"])
    assert per_query["q0"]["MAP"] == pytest.approx(trec_eval(run, qrels)["map"]["q0"])
    as_dicts = {q: dict(pairs) for q, pairs in retrieved.items()}
    assert evaluate_retrieval(as_dicts, judged, metrics=["MAP"]) == evaluate_retrieval(
        retrieved, judged, metrics=["MAP"]
    )


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
    with pytest.raises(DataError, match="ids must be strings"):
        evaluate_retrieval({"q": [(1, 1.0)]}, {"q": {"1": 1}})
    with pytest.raises(DataError, match="ids must be strings"):
        evaluate_retrieval({1: [("d", 1.0)]}, {"1": {"d": 1}})


@pytest.mark.parametrize("name", ["ndcg@10", "nDCG", "Recall", "F2@3", "MAP@0", "IPrec@1.5"])
def test_unknown_metric_names_are_rejected(name):
    with pytest.raises(ValueError, match="unknown metric|needs"):
        parse_metric_name(name)


def test_unsorted_run_lines_are_detected():
    run = pd.DataFrame(
        {
            "query_id": ["a", "a", "b", "b"],
            "doc_id": ["x", "y", "x", "y"],
            "score": [1.0, 2.0, 3.0, 1.0],
        }
    )
    assert misordered_queries(run) == ["a"]


@pytest.mark.parametrize("relevant", ["a", "z", "é", "Z", "ä", "日本", "aa", "10", "9"])
def test_tie_order_is_byte_order_for_any_id(relevant):
    docs = ["a", "z", "é", "Z", "ä", "日本", "aa", "10", "9"]
    run = pd.DataFrame({"query_id": ["q"] * len(docs), "doc_id": docs, "score": [1.0] * len(docs)})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": [relevant], "grade": [1]})
    expected = trec_eval(run, qrels)["recip_rank"]["q"]
    assert evaluate_run(run, qrels, ["MRR"]).means["MRR"] == expected


def test_every_measure_is_one_registry_entry_with_its_formula_and_source(monkeypatch):
    """Names are parsed and the default list is made from the registry: a new measure is
    one entry."""
    from sparsebench.evaluate.measures import MEASURES, Measure

    assert all(m.formula and m.source for m in MEASURES.values())
    assert {parse_metric_name(n)[0] for n in default_metric_names((10,))} == set(MEASURES)
    hits = Measure("Hits", "cutoff", "relevant in the top k", "a test", lambda c, k: c.hits_at(k))
    monkeypatch.setitem(MEASURES, "Hits", hits)
    assert "Hits@2" in default_metric_names((2,))
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "grade": [1, 1]})
    assert evaluate_run(run, qrels, ["Hits@1", "Hits@2"]).means == {"Hits@1": 1.0, "Hits@2": 2.0}


def distinct_scores(run: pd.DataFrame) -> pd.DataFrame:
    """The run with every query's scores made distinct (its order kept): ir_measures
    breaks ties by ascending document id, trec_eval (and this project) by descending."""
    order = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    rank = order.groupby("query_id").cumcount()
    return order.assign(score=1000.0 - rank.to_numpy())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_judged_at_k_equals_ir_measures(seed):
    import ir_measures

    run, qrels = random_case(seed)
    run = distinct_scores(run)
    names = [f"Judged@{k}" for k in (1, 5, 10, 20, 100)]
    ours = evaluate_run(run, qrels, names, query_set="run")
    measures = [ir_measures.parse_measure(n) for n in names]
    reference: dict[str, dict[str, float]] = {n: {} for n in names}
    for metric in ir_measures.iter_calc(
        measures,
        qrels.rename(columns={"grade": "relevance"}),
        run,
    ):
        reference[str(metric.measure)][metric.query_id] = metric.value
    for name in names:
        expected = pd.Series(reference[name]).reindex(ours.per_query.index)
        assert not expected.isna().any(), name
        np.testing.assert_allclose(ours.per_query[name], expected, rtol=0, atol=1e-12, err_msg=name)


def test_judged_and_unjudged_by_hand():
    # q1: ranks a (judged 0), b (unjudged), c (judged -1: in the pool), d (relevant);
    # q2: two documents, one judged; q3: judged but absent from the run
    run = pd.DataFrame(
        {
            "query_id": ["q1"] * 4 + ["q2"] * 2,
            "doc_id": ["a", "b", "c", "d", "x", "y"],
            "score": [4.0, 3.0, 2.0, 1.0, 2.0, 1.0],
        }
    )
    qrels = pd.DataFrame(
        {
            "query_id": ["q1", "q1", "q1", "q2", "q3"],
            "doc_id": ["a", "c", "d", "y", "z"],
            "grade": [0, -1, 2, 1, 1],
        }
    )
    names = ["Judged@1", "Judged@2", "Judged@3", "Judged@10", "Unjudged@2", "Unjudged@10"]
    got = evaluate_run(run, qrels, names, query_set="complete").per_query
    assert got.loc["q1", names].tolist() == [1.0, 0.5, 2 / 3, 0.75, 1.0, 1.0]
    # fewer than k retrieved: the share of what there is (ir_measures)
    assert got.loc["q2", names].tolist() == [0.0, 0.5, 0.5, 0.5, 1.0, 1.0]
    assert got.loc["q3", names].tolist() == [0.0] * 6


def in_score_order(run: pd.DataFrame, seed: int) -> pd.DataFrame:
    """The run as tools write one: query by query (in a shuffled query order), scores
    descending, tied documents in file order (not trec_eval's)."""
    queries = list(run["query_id"].unique())
    np.random.default_rng(seed).shuffle(queries)
    parts = [run[run["query_id"] == q] for q in queries]
    return pd.concat([p.sort_values("score", ascending=False, kind="stable") for p in parts])


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_runs_in_score_order_give_trec_evals_values(seed):
    run, qrels = random_case(seed)
    ordered = in_score_order(run, seed)
    ours = evaluate_run(ordered, qrels, ALL_METRICS, query_set="run")
    reference = trec_eval(run, qrels, 1)
    for name in ALL_METRICS:
        expected = reference_values(reference, name).reindex(ours.per_query.index).to_numpy(float)
        np.testing.assert_allclose(
            ours.per_query[name].to_numpy(), expected, rtol=0, atol=1e-9, err_msg=name
        )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_rows_take_trec_evals_order_whatever_the_file_order(seed):
    from sparsebench.evaluate.slices import rank_run

    run, qrels = random_case(seed)
    qrels = pd.concat([qrels, run.assign(grade=1)[["query_id", "doc_id", "grade"]]])
    qrels = qrels.drop_duplicates(["query_id", "doc_id"])  # every document judged
    for frame in (run, in_score_order(run, seed), in_score_order(run, seed).iloc[::-1]):
        ranked = rank_run(frame, qrels.assign(grade=range(len(qrels))), query_set="run")
        pairs = zip(qrels["query_id"], qrels["doc_id"], strict=True)
        grade_of = {pair: grade for grade, pair in enumerate(pairs)}
        ids = list(ranked.query_ids)
        expected = sorted(
            zip(frame["query_id"], frame["score"].astype(np.float32), frame["doc_id"], strict=True),
            key=lambda r: (r[0], -r[1], [-b for b in r[2].encode()] + [1]),
        )
        expected = [grade_of[(q, d)] for q, _, d in expected if q in ids]
        assert ranked.row_grade.astype(int).tolist() == expected


def long_ids(frame: pd.DataFrame) -> pd.DataFrame:
    """The same case with document ids of 9 to 40 bytes that share their first 16."""
    return frame.assign(doc_id="document-000000-" + frame["doc_id"].str.repeat(3))


@pytest.mark.parametrize("ids", ["short", "long"])
def test_colliding_keys_change_no_value(monkeypatch, ids):
    """Keys only propose matches: with every document's bytes folded to one value (each
    query's pairs then share a key), grades come from a join on the strings, and the
    repeat check compares strings, so the values stay trec_eval's and nothing is called
    a duplicate."""
    from sparsebench.core import idkeys

    run, qrels = random_case(4)
    if ids == "long":
        run, qrels = long_ids(run), long_ids(qrels)
    run = in_score_order(run, 4)
    expected = evaluate_run(run, qrels, ALL_METRICS, query_set="run").per_query
    reference = trec_eval(run, qrels, 1)
    np.testing.assert_allclose(
        expected["MAP"].to_numpy(), reference["map"].reindex(expected.index), rtol=0, atol=1e-12
    )
    monkeypatch.setattr(idkeys, "_folded_bytes", lambda docs: np.zeros(len(docs), np.uint64))
    collided = evaluate_run(run, qrels, ALL_METRICS, query_set="run").per_query
    pd.testing.assert_frame_equal(collided, expected, check_exact=True)


@pytest.mark.parametrize("doc", ["d", "document-000000-00000000042", "日本語の文書"])
@pytest.mark.parametrize("colliding", [False, True])
def test_a_repeated_document_is_found_anywhere_in_a_query(monkeypatch, doc, colliding):
    from sparsebench.core import idkeys

    if colliding:
        monkeypatch.setattr(idkeys, "_folded_bytes", lambda docs: np.zeros(len(docs), np.uint64))
    run, qrels = random_case(5)
    query = run["query_id"].iloc[100]
    extra = pd.DataFrame({"query_id": [query, query], "doc_id": [doc, doc], "score": [9.5, -3.0]})
    with pytest.raises(DataError, match=rf"document '{doc}' more than once for query '{query}'"):
        evaluate_run(pd.concat([run, extra]), qrels, ["MAP"], query_set="run")
    other = extra.assign(query_id=["only-in-run", query])  # once per query: fine
    evaluate_run(pd.concat([run, other]), qrels, ["MAP"], query_set="run")


def test_a_pair_judged_twice_is_an_error_when_keys_collide(monkeypatch):
    from sparsebench.core import idkeys

    monkeypatch.setattr(idkeys, "_folded_bytes", lambda docs: np.zeros(len(docs), np.uint64))
    run = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d", "d"], "grade": [1, 0]})
    with pytest.raises(DataError, match="judge a .query, document. pair more than once"):
        evaluate_run(run, qrels, ["MAP"])


def test_a_run_row_whose_key_meets_another_pairs_judgment_stays_unjudged(monkeypatch):
    """Each id folded to its last byte: 'b1' gets the key of the judged 'a1', and only
    the comparison of the strings keeps it from taking a1's grade."""
    from sparsebench.core import idkeys

    def last_byte(docs):
        return np.array([ord(d[-1]) for d in docs.to_pylist()], dtype=np.uint64)

    monkeypatch.setattr(idkeys, "_folded_bytes", last_byte)
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["b1", "a1"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["a1"], "grade": [1]})
    values = evaluate_run(run, qrels, ["MRR", "Judged@1"]).means
    assert values == {"MRR": 0.5, "Judged@1": 0.0}


# our name -> ir_measures' name, for measures of binary relevance with (rel=r)
IR_MEASURES_NAMES = {
    "P(rel={r})@10": "P(rel={r})@10",
    "Recall(rel={r})@100": "R(rel={r})@100",
    "MAP(rel={r})": "AP(rel={r})",
    "MAP(rel={r})@10": "AP(rel={r})@10",
    "MRR(rel={r})": "RR(rel={r})",
    "R-Precision(rel={r})": "Rprec(rel={r})",
    "bpref(rel={r})": "Bpref(rel={r})",
    "Success(rel={r})@5": "Success(rel={r})@5",
}


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("r", [1, 2, 3])
def test_relevance_levels_per_measure_equal_ir_measures(seed, r):
    """P(rel=2)@10 and the like: relevant from grade r on for that measure alone, in one
    evaluation beside measures at the evaluation's own level."""
    import ir_measures

    run, qrels = random_case(seed)
    run = distinct_scores(run)
    ours_names = [name.format(r=r) for name in IR_MEASURES_NAMES] + ["P@10", "nDCG@10"]
    ours = evaluate_run(run, qrels, ours_names, query_set="run").per_query
    theirs = {name.format(r=r): ref.format(r=r) for name, ref in IR_MEASURES_NAMES.items()}
    measures = {name: ir_measures.parse_measure(ref) for name, ref in theirs.items()}
    reference: dict = {measure: {} for measure in measures.values()}
    judgments = qrels.rename(columns={"grade": "relevance"})
    for metric in ir_measures.iter_calc(list(measures.values()), judgments, run):
        reference[metric.measure][metric.query_id] = metric.value
    for name, measure in measures.items():
        expected = pd.Series(reference[measure]).reindex(ours.index)
        assert not expected.isna().any(), name
        np.testing.assert_allclose(ours[name], expected, rtol=0, atol=1e-12, err_msg=name)
    at_level = evaluate_run(run, qrels, ["P@10"], relevance_level=r, query_set="run").per_query
    assert ours[f"P(rel={r})@10"].tolist() == at_level["P@10"].tolist()
    base = evaluate_run(run, qrels, ["P@10", "nDCG@10"], query_set="run").per_query
    pd.testing.assert_frame_equal(ours[["P@10", "nDCG@10"]], base)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nDCG(rel=2)@10", "nDCG does not count documents as relevant from a grade"),
        ("Judged(rel=2)@10", "Judged does not count documents"),
        ("P(rel=0)@10", "rel= takes a grade of 1 or more, not '0'"),
        ("P(rel=two)@10", "rel= takes a grade of 1 or more, not 'two'"),
        ("P(rel=2)", r"unknown metric 'P\(rel=2\)'"),
    ],
)
def test_a_relevance_level_where_it_has_no_meaning_is_refused(name, message):
    with pytest.raises(ValueError, match=message):
        parse_metric_name(name)


@pytest.mark.parametrize("level", [0, -1])
def test_a_relevance_level_below_one_is_refused(tmp_path, level):
    """At level 0 every document the qrels do not list (grade 0) would count as relevant,
    which trec_eval never does: refused on frames and on run files alike."""
    run, qrels = random_case(3)
    with pytest.raises(ValueError, match=f"a relevance level is a grade of 1 or more, not {level}"):
        evaluate_run(run, qrels, ["P@10"], relevance_level=level)
    path = tmp_path / "run.trec"
    path.write_text(
        "".join(
            f"{q} Q0 {d} {i} {s} t\n" for i, (q, d, s) in enumerate(run.itertuples(index=False))
        )
    )
    with pytest.raises(ValueError, match="a relevance level is a grade of 1 or more"):
        evaluate_run_file(path, qrels, ["P@10"], relevance_level=level)


def _split_query(run: pd.DataFrame) -> pd.DataFrame:
    """The run with its first query's first row moved to the end (that query's rows
    then lie in two places)."""
    return pd.concat([run.iloc[1:], run.iloc[:1]])


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("query_set", ["run", "complete"])
@pytest.mark.parametrize("layout", ["as made", "in score order", "a query split"])
def test_ranking_and_measuring_slice_by_slice_changes_no_value(seed, query_set, layout):
    """Slices of a few rows (a query of the run per slice, or several), on one thread or
    two, give every value of the run ranked at once, bit for bit, the judged queries the
    run lacks included."""
    run, qrels = random_case(seed)
    run = {
        "as made": run,
        "in score order": in_score_order(run, seed),
        "a query split": _split_query(run),
    }[layout]
    names = default_metric_names(CUTOFFS)
    whole = evaluate_run(run, qrels, names, query_set=query_set, slice_rows=None)
    for slice_rows, threads in ((1, 1), (37, 2), (400, 1), (400, 2)):
        sliced = evaluate_run(
            run, qrels, names, query_set=query_set, slice_rows=slice_rows, threads=threads
        )
        pd.testing.assert_frame_equal(sliced.per_query, whole.per_query, check_exact=True)
        assert sliced.means == whole.means
        assert (sliced.n_evaluated, sliced.n_in_run) == (whole.n_evaluated, whole.n_in_run)
    reference = trec_eval(run, qrels, 1)
    got = whole.per_query.loc[reference.index, "nDCG@10"].to_numpy()
    np.testing.assert_allclose(got, reference["ndcg_cut_10"].to_numpy(), rtol=0, atol=1e-9)


def test_a_repeated_document_in_a_later_slice_is_an_error():
    run, qrels = random_case(5)
    last = run[run["query_id"] == "q58"]
    repeated = pd.concat([run, last.iloc[:1].assign(score=-1.0)])
    repeated = repeated.iloc[np.argsort(repeated["query_id"] == "only-in-run", kind="stable")]
    doc = last["doc_id"].iloc[0]
    with pytest.raises(DataError, match=rf"document '{doc}' more than once for query 'q58'"):
        evaluate_run(repeated, qrels, ["MAP"], query_set="run", slice_rows=10)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_interpolated_precision_is_trec_evals_to_the_bit(seed):
    """The best precision from a rank on is a maximum of trec_eval's own quotients: no
    arithmetic on them (an offset per query would round them by the query count)."""
    run, qrels = random_case(seed, n_queries=400)
    names = [f"IPrec@{level / 10:.1f}" for level in range(11)]
    ours = evaluate_run(run, qrels, names, query_set="run").per_query
    reference = trec_eval(run, qrels, 1)
    for name in names:
        expected = reference_values(reference, name).reindex(ours.index).to_numpy(float)
        np.testing.assert_array_equal(ours[name].to_numpy(), expected, err_msg=name)
