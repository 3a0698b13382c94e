"""A k1 x b sweep with 5-fold cross-validation through the workflow, on a real collection."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import yaml
from conftest import shared_path
from test_workflow import planned_jobs, snakemake

pytestmark = pytest.mark.slow
GRID = {"k1": [0.6, 1.2, 1.8], "b": [0.3, 0.75]}


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    base = tmp_path_factory.mktemp("sweep")
    config = {
        "datasets": {"adi": {"source": "local", "path": str(shared_path("data", "adi"))}},
        "models": {
            "bm25": {"kind": "bm25"},
            "bm25-tuned": {
                "kind": "bm25",
                "k1": {"grid": GRID["k1"]},
                "b": {"grid": GRID["b"]},
                "tune": {"folds": 5, "seed": 42},
            },
        },
        "corpus": {"shard_size": 30},
        "significance": {"resamples": 500},
    }
    configfile = base / "sweep.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    workdir = base / "work"
    planned = planned_jobs(snakemake(workdir, "-n", configfile=configfile))
    snakemake(workdir, configfile=configfile)
    return workdir, configfile, planned


def test_the_term_count_encoding_runs_once_for_the_whole_grid(swept):
    workdir, _, planned = swept
    rules = pd.Series([rule for rule, _ in planned]).value_counts()
    assert rules["stack_shards"] == 1 and rules["encode_queries"] == 1
    assert rules["term_weights"] == rules["retrieve"] == 1 + 6  # bm25 and the 6 points
    assert rules["tune"] == 1
    encodings = list((workdir / "results" / "encode").glob("*/adi"))
    assert len(encodings) == 1
    assert sorted(p.name for p in encodings[0].glob("shards/*.npz")) == ["0.npz", "1.npz", "2.npz"]


def test_the_tuned_score_is_the_mean_of_held_out_queries(swept):
    workdir, _, _ = swept
    results = workdir / "results"
    selection = json.loads(
        (results / "tuning" / "bm25-tuned" / "adi" / "selection.json").read_text()
    )
    assert selection["method"] == "cross-validation" and len(selection["choices"]) == 5
    held_out = []
    for choice in selection["choices"]:
        per_query = pd.read_csv(
            results / "eval" / choice["variant"] / "adi" / "per_query.tsv",
            sep="\t",
            dtype={"query_id": str},
        )
        values = per_query[per_query["metric"] == "nDCG@10"].set_index("query_id")["value"]
        held_out.append(values.loc[choice["held_out_queries"]])
    held_out = pd.concat(held_out)
    assert held_out.index.is_unique and len(held_out) == 35  # every adi query, once
    metrics = json.loads((results / "eval" / "bm25-tuned" / "adi" / "metrics.json").read_text())
    assert metrics["nDCG@10"] == pytest.approx(held_out.mean(), abs=1e-12)


def test_the_leaderboard_marks_the_tuned_row_and_hides_the_points(swept):
    workdir, _, _ = swept
    table = pd.read_csv(workdir / "results" / "leaderboard.tsv", sep="\t", index_col="model")
    assert list(table.index) == ["bm25", "bm25-tuned"]
    assert table.loc["bm25-tuned", "tuning"].startswith("k1 in {0.6, 1.2, 1.8} x b in {0.3, 0.75}")
    assert "5-fold cross-validation" in table.loc["bm25-tuned", "tuning"]
    markdown = (workdir / "results" / "leaderboard.md").read_text()
    assert "| bm25-tuned (tuned) |" in markdown and "TUNED: bm25-tuned" in markdown
    surface = pd.read_csv(
        workdir / "results" / "tuning" / "bm25-tuned" / "adi" / "surface.tsv", sep="\t"
    )
    assert len(surface) == 6 and {"k1", "b", "mean_all_queries", "train_mean_fold4"} <= set(surface)


def test_changing_the_grid_reencodes_nothing(swept, tmp_path):
    workdir, configfile, _ = swept
    config = yaml.safe_load(configfile.read_text())
    config["models"]["bm25-tuned"]["k1"] = {"grid": [*GRID["k1"], 2.4]}
    other = tmp_path / "wider.yaml"
    other.write_text(yaml.safe_dump(config, sort_keys=False))
    rules = {rule for rule, _ in planned_jobs(snakemake(workdir, "-n", configfile=other))}
    assert rules == {
        "term_weights",
        "retrieve",
        "evaluate",
        "tune",
        "significance",
        "leaderboard",
        "all",
    }
