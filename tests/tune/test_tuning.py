"""Parameter sweeps: grids, variants, k-fold choice on training queries only, the tuned run,
and the classic limits of BM25 as model kinds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import run_stages
from support.samefiles import assert_same_files

from sparsebench.core.csrfiles import load_csr
from sparsebench.core.errors import ConfigError, DataError
from sparsebench.core.fileio import read_lines
from sparsebench.runs.runfile import read_run
from sparsebench.tune import selection
from sparsebench.tune import sweeps as tuning
from sparsebench.workflow.config import validate_config

DATASETS = {"d": {"source": "builtin", "name": "minibeir"}}


def config_with(**models):
    return validate_config({"datasets": DATASETS, "models": {"bm25": {"kind": "bm25"}, **models}})


def test_grids_and_ranges():
    assert tuning.grid_values({"range": [0.5, 2.0, 0.5]}, "k1") == [0.5, 1.0, 1.5, 2.0]
    values = tuning.grid_values({"range": [0.0, 1.0, 0.1]}, "b")
    assert len(values) == 11 and values[3] == 0.3 and values[-1] == 1.0
    assert tuning.grid_values({"range": [10, 50, 20]}, "top_k") == [10, 30, 50]
    assert tuning.grid_values({"grid": [1.2, 0.9]}, "k1") == [1.2, 0.9]
    with pytest.raises(ConfigError, match=r"k1.range: \[start, stop, step\]"):
        tuning.grid_values({"range": [1.0, 0.5, 0.1]}, "k1")
    with pytest.raises(ConfigError, match="k1.grid: repeated values"):
        tuning.grid_values({"grid": [0.9, 0.9]}, "k1")


def test_a_swept_model_becomes_a_tuned_model_and_its_variants():
    config = config_with(
        t={"kind": "bm25", "k1": {"grid": [0.9, 1.2]}, "b": {"range": [0.3, 0.4, 0.1]}}
    )
    assert list(config["models"]) == [
        "bm25",
        "t",
        "t+k1_0.9+b_0.3",
        "t+k1_0.9+b_0.4",
        "t+k1_1.2+b_0.3",
        "t+k1_1.2+b_0.4",
    ]
    tuned = config["models"]["t"]
    assert tuned["kind"] == "tuned" and tuned["sweep"]["folds"] == 5
    assert tuned["sweep"]["metric"] == "nDCG@10"  # the primary metric by default
    variant = config["models"]["t+k1_1.2+b_0.3"]
    assert (variant["k1"], variant["b"], variant["variant_of"]) == (1.2, 0.3, "t")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"kind": "bm25", "tune": {"folds": 3}}, "no parameter has a grid or range"),
        ({"kind": "bm25", "k1": {"grid": [1.0]}, "tune": {"folds": 1}}, "folds: an integer >= 2"),
        ({"kind": "bm25", "k1": {"grid": [1.0]}, "tune": {"fold": 3}}, "unknown keys"),
        ({"kind": "bm25", "k1": {"grid": [1.0]}, "tune": {"metric": "nDCG@x"}}, "tune.metric"),
        ({"kind": "bm25", "k1": {"grid": [-1.0]}}, "is less than the minimum of 0"),
    ],
)
def test_bad_sweeps_are_clear_errors(entry, message):
    with pytest.raises(ConfigError, match=message):
        config_with(t=entry)


def test_a_variant_cannot_be_the_baseline():
    with pytest.raises(ConfigError, match="baseline: 't\\+k1_1' is not a model"):
        validate_config(
            {
                "datasets": DATASETS,
                "models": {"bm25": {"kind": "bm25"}, "t": {"kind": "bm25", "k1": {"grid": [1, 2]}}},
                "significance": {"baseline": "t+k1_1"},
            }
        )


def test_folds_are_balanced_seeded_and_independent_of_input_order():
    ids = [str(i) for i in range(23)]
    folds = selection.assign_folds(ids, 5, seed=42)
    sizes = folds.value_counts().sort_index()
    assert list(sizes.index) == [0, 1, 2, 3, 4] and sizes.max() - sizes.min() <= 1
    assert selection.assign_folds(ids[::-1], 5, seed=42).equals(folds)
    assert not selection.assign_folds(ids, 5, seed=7).equals(folds)
    with pytest.raises(DataError, match="3 judged queries cannot make 5 folds"):
        selection.assign_folds(ids[:3], 5, seed=42)


def sweep_of(variants: list[str], folds: int = 5) -> tuning.Sweep:
    return tuning.Sweep(
        model="t",
        parameters={"k1": list(range(len(variants)))},
        variants={v: {"k1": i} for i, v in enumerate(variants)},
        metric="nDCG@10",
        folds=folds,
        seed=42,
    )


def random_scores(n_queries=40, variants=("a", "b", "c", "d"), seed=0):
    rng = np.random.default_rng(seed)
    index = pd.Index([f"q{i}" for i in range(n_queries)], name="query_id")
    return pd.DataFrame(rng.random((n_queries, len(variants))), index=index, columns=variants)


def test_each_fold_is_chosen_on_the_other_folds_only():
    scores = random_scores()
    sweep = sweep_of(list(scores.columns))
    result = selection.cross_validate(scores, sweep)
    for choice in result.choices:
        held_out = choice["held_out_queries"]
        train = scores.index.difference(held_out)
        means = scores.loc[train].mean()
        assert choice["variant"] == means.idxmax()
        assert choice["train_score"] == pytest.approx(means.max())
        # whatever the held-out queries score, the fold's choice does not move
        rigged = scores.copy()
        loser = means.idxmin()
        rigged.loc[held_out] = 0.0
        rigged.loc[held_out, loser] = 1e6
        again = selection.cross_validate(rigged, sweep).choices[choice["fold"]]
        assert again["variant"] == choice["variant"]
        assert again["held_out_score"] == 0.0  # ... though its held-out score does
    assert sorted(q for c in result.choices for q in c["held_out_queries"]) == sorted(scores.index)


def test_ties_go_to_the_first_point_in_grid_order():
    scores = random_scores(variants=("a", "b"))
    scores["b"] = scores["a"]
    chosen = selection.cross_validate(scores, sweep_of(["a", "b"])).choices
    assert {c["variant"] for c in chosen} == {"a"}


def test_the_tuned_run_takes_each_query_from_its_folds_choice(tmp_path):
    runs = {}
    for variant in ("a", "b"):
        lines = [
            f"{q} Q0 {variant}{d} {r} {10 - r:.6f} run-{variant}\n"
            for q in ("q1", "q2", "q3")
            for r, d in enumerate(("x", "y"), start=1)
        ]
        runs[variant] = tmp_path / f"{variant}.trec"
        runs[variant].write_text("".join(lines))
    out = tmp_path / "tuned.trec"
    selection.compose_run(runs, {"a": ["q2"], "b": ["q1", "q3"]}, "t", out)
    assert out.read_text().splitlines() == [
        "q1 Q0 bx 1 9.000000 t",
        "q1 Q0 by 2 8.000000 t",
        "q2 Q0 ax 1 9.000000 t",
        "q2 Q0 ay 2 8.000000 t",
        "q3 Q0 bx 1 9.000000 t",
        "q3 Q0 by 2 8.000000 t",
    ]


def test_per_query_files_must_cover_the_same_queries(tmp_path):
    for name, queries in (("a", ["q1", "q2"]), ("b", ["q1"])):
        rows = [f"{q}\tnDCG@10\t0.5\n" for q in queries]
        (tmp_path / f"{name}.tsv").write_text("query_id\tmetric\tvalue\n" + "".join(rows))
    files = {v: tmp_path / f"{v}.tsv" for v in ("a", "b")}
    with pytest.raises(DataError, match="do not cover the same queries"):
        selection.per_query_scores(files, "nDCG@10")
    with pytest.raises(DataError, match="no per-query values of MAP"):
        selection.per_query_scores(files, "MAP")


def scores_by_hand(out, document_weight, idf_variant):
    """score(q, d) = sum over terms of q_count * idf * w(tf) from the stacked term counts."""
    counts = load_csr(out.encoded / "corpus.npz").toarray().astype(np.float64)
    queries = load_csr(out.queries / "queries.npz").toarray().astype(np.float64)
    n, df = counts.shape[0], (counts > 0).sum(axis=0)
    if idf_variant == "classic":
        idf = np.where(df > 0, np.log2(n / np.maximum(df, 1)), 0.0)
    else:
        idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    scores = (queries * idf) @ document_weight(counts).T
    docs = read_lines(out.encoded / "doc_ids.txt")
    return {
        (q, docs[j]): scores[i, j]
        for i, q in enumerate(read_lines(out.queries / "query_ids.txt"))
        for j in np.flatnonzero(scores[i] > 0)
    }


@pytest.mark.parametrize(
    ("kind", "document_weight", "idf_variant"),
    [
        ("binary", lambda c: (c > 0).astype(np.float64), "lucene"),
        ("tfidf", lambda c: c, "classic"),
    ],
)
def test_classic_limits_of_bm25_score_by_hand(
    tiny_collection, tmp_path, kind, document_weight, idf_variant
):
    out = run_stages(tiny_collection, tmp_path / kind, model={"kind": kind})
    run = read_run(out.run)
    expected = scores_by_hand(out, document_weight, idf_variant)
    got = {(q, d): s for q, d, s in zip(run["query_id"], run["doc_id"], run["score"], strict=True)}
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-5)


def test_binary_is_bm25_at_k1_0_b_0(tiny_collection, tmp_path):
    binary = run_stages(tiny_collection, tmp_path / "binary", model={"kind": "binary"})
    bm25 = run_stages(tiny_collection, tmp_path / "bm25", model={"kind": "bm25", "k1": 0, "b": 0})
    assert_same_files(binary.run, bm25.run)
