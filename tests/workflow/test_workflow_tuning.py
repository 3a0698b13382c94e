"""A k1 x b sweep with 5-fold cross-validation through the workflow, on a real collection."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest
import yaml
from conftest import (
    TINY_DOCS,
    TINY_QRELS,
    TINY_QUERIES,
    corpus_folder,
    shared_path,
    write_collection,
)
from support.snakemake_runs import REPORT_RULES, planned_jobs, snakemake

from sparsebench.workflow.config import validate_config
from sparsebench.workflow.jobs import pipeline_jobs
from sparsebench.workflow.plan import Plan

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
    # the jobs that ran (a dry run cannot list the variants' jobs yet: whether they are
    # scored on a training split is known once the prepare checkpoint has run)
    ran = planned_jobs(snakemake(workdir, configfile=configfile))
    return workdir, configfile, ran


def test_the_term_count_encoding_runs_once_for_the_whole_grid(swept):
    workdir, _, planned = swept
    rules = pd.Series([rule for rule, _ in planned]).value_counts()
    assert rules["stack_shards"] == 1 and rules["encode_queries"] == 1
    assert rules["term_weights"] == rules["retrieve"] == 1 + 6  # bm25 and the 6 points
    assert rules["tune"] == 1
    corpus = corpus_folder(workdir / "results", "adi").name
    encodings = list((workdir / "results" / "encode").glob(f"*/{corpus}"))
    assert len(encodings) == 1
    assert sorted(p.name for p in encodings[0].glob("shards/*.npz")) == ["0.npz", "1.npz", "2.npz"]


def test_the_tuned_score_is_the_mean_of_held_out_queries(swept):
    workdir, _, _ = swept
    results = workdir / "results"
    selection = json.loads(
        (results / "tuning" / "bm25-tuned" / "adi" / "selection.json").read_text()
    )
    assert selection["chosen_by"] == "5-fold cross-validation" and len(selection["choices"]) == 5
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
    assert "[adi: 5-fold cross-validation]" in table.loc["bm25-tuned", "tuning"]
    markdown = (workdir / "results" / "leaderboard.md").read_text()
    assert "| bm25-tuned (tuned) |" in markdown and "TUNED: bm25-tuned" in markdown
    surface = pd.read_csv(
        workdir / "results" / "tuning" / "bm25-tuned" / "adi" / "surface.tsv", sep="\t"
    )
    assert len(surface) == 6 and {"k1", "b", "mean_all_queries", "train_mean_fold4"} <= set(surface)
    sweep = workdir / "results" / "report" / "sweeps" / "bm25-tuned" / "adi.png"
    assert sweep.stat().st_size > 10_000  # the heat map, in the visual report


def test_changing_the_grid_reencodes_nothing(swept, tmp_path):
    workdir, configfile, _ = swept
    config = yaml.safe_load(configfile.read_text())
    config["models"]["bm25-tuned"]["k1"] = {"grid": [*GRID["k1"], 2.4]}
    other = tmp_path / "wider.yaml"
    other.write_text(yaml.safe_dump(config, sort_keys=False))
    rules = {rule for rule, _ in planned_jobs(snakemake(workdir, "-n", configfile=other))}
    assert (
        rules
        == {
            "term_weights",
            "retrieve",
            "evaluate",
            "tune",
            "significance",
            "leaderboard",
            "all",
        }
        | REPORT_RULES
    )


TRAIN_QRELS = [("q3", "d5", 2), ("q3", "d8", 1), ("q4", "d6", 2), ("q5", "d2", 1)]


def test_a_dataset_with_a_train_split_is_tuned_on_it_and_evaluated_once(tmp_path):
    collection = write_collection(tmp_path / "tiny", TINY_DOCS, TINY_QUERIES, TINY_QRELS[:5])
    write_collection(tmp_path / "train", TINY_DOCS, TINY_QUERIES, TRAIN_QRELS, split="train")
    shutil.copy(tmp_path / "train" / "qrels" / "train.tsv", collection / "qrels" / "train.tsv")
    config = {
        "datasets": {"tiny": {"source": "local", "path": str(collection)}},
        "models": {
            "bm25": {"kind": "bm25"},
            "t": {"kind": "bm25", "k1": {"grid": [0.5, 3.0]}, "b": {"grid": [0.0, 1.0]}},
            # a fusion chosen on the split: its points fuse the members' training runs (a
            # point of t's is a model searched here like any other)
            "mix": {"kind": "fusion", "runs": ["bm25", "t+k1_3+b_1"], "k": {"grid": [1, 60]}},
        },
        "significance": {"resamples": 100},
    }
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    workdir = tmp_path / "work"
    snakemake(workdir, configfile=configfile)
    results = workdir / "results"
    info = json.loads((results / "data" / "tiny" / "dataset.json").read_text())
    assert info["tuning_split"] == "train" and info["n_tuning_queries"] == 3
    selection = json.loads((results / "tuning" / "t" / "tiny" / "selection.json").read_text())
    assert selection["chosen_by"] == "training split train" and len(selection["choices"]) == 1
    means = {}
    for variant in ("t+k1_0.5+b_0", "t+k1_0.5+b_1", "t+k1_3+b_0", "t+k1_3+b_1"):
        per_query = pd.read_csv(
            results / "tuning" / "eval" / variant / "tiny" / "per_query.tsv", sep="\t"
        )
        values = per_query[per_query["metric"] == "nDCG@10"]
        assert set(values["query_id"]) == {"q3", "q4", "q5"}  # training queries only
        means[variant] = values["value"].mean()
        # no variant is ever scored on the evaluated queries
        assert not (results / "eval" / variant).exists()
    chosen = selection["choices"][0]["variant"]
    assert chosen == max(means, key=lambda v: (means[v], -list(means).index(v)))
    tuned = (results / "runs" / "t" / "tiny.trec").read_text().splitlines()
    source = (results / "runs" / chosen / "tiny.trec").read_text().splitlines()
    assert tuned == [line.rsplit(" ", 1)[0] + " t" for line in source]
    table = pd.read_csv(results / "leaderboard.tsv", sep="\t", index_col="model")
    assert "[tiny: training split train]" in table.loc["t", "tuning"]
    mix = json.loads((results / "tuning" / "mix" / "tiny" / "selection.json").read_text())
    assert mix["chosen_by"] == "training split train"
    for point in ("mix+k_1", "mix+k_60"):
        scored = pd.read_csv(
            results / "tuning" / "eval" / point / "tiny" / "per_query.tsv", sep="\t"
        )
        assert set(scored["query_id"]) == {"q3", "q4", "q5"}
        assert not (results / "eval" / point).exists()
    fused = (results / "tuning" / "runs" / "mix+k_1" / "tiny.trec").read_text().split()
    members = [
        (results / "tuning" / "runs" / m / "tiny.trec").read_text() for m in ("bm25", "t+k1_3+b_1")
    ]
    assert set(fused[0::6]) <= {q for text in members for q in text.split()[0::6]}
    assert "[tiny: training split train]" in table.loc["mix", "tuning"]
    # the cost report's job list names exactly the benchmark files the jobs wrote
    plan = Plan(validate_config(config))
    listed = {
        job.benchmark for job in pipeline_jobs(plan, {c: 1 for c in plan.corpora}, {"tiny": True})
    }
    written = {
        path.relative_to(workdir).as_posix()
        for path in (results / "benchmarks").rglob("*.tsv")
        if path.relative_to(results / "benchmarks").parts[0] != "visual_report.tsv"
    }
    assert listed == written
