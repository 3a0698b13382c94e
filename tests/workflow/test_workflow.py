"""The Snakemake DAG end to end, on a collection made by the test (one served as a BEIR
archive from 127.0.0.1), run from another directory with its own config file."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import threading
import zipfile
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import REPO, TINY_DOCS, TINY_QRELS, TINY_QUERIES, corpus_folder, write_collection
from support.snakemake_runs import REPORT_RULES, pair_jobs, planned_jobs, snakemake
from support.trec_eval_reference import trec_eval

from sparsebench.data.qrels import read_qrels
from sparsebench.runs.runfile import read_run
from sparsebench.workflow.config import validate_config
from sparsebench.workflow.jobs import pipeline_jobs
from sparsebench.workflow.layout import n_shards
from sparsebench.workflow.plan import Plan

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def beir_server(tmp_path_factory):
    """Serve a BEIR-layout zip of the tiny collection over HTTP on 127.0.0.1."""
    root = tmp_path_factory.mktemp("served")
    collection = write_collection(root / "src", TINY_DOCS, TINY_QUERIES, TINY_QRELS)
    with zipfile.ZipFile(root / "tinybeir.zip", "w") as archive:
        for path in sorted(collection.rglob("*")):
            if path.is_file():
                archive.write(path, "tinybeir/" + path.relative_to(collection).as_posix())
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    md5 = hashlib.md5((root / "tinybeir.zip").read_bytes()).hexdigest()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", md5
    httpd.shutdown()


@pytest.fixture(scope="module")
def experiment(tmp_path_factory, beir_server):
    base = tmp_path_factory.mktemp("experiment")
    url, md5 = beir_server
    local = write_collection(base / "local", TINY_DOCS, TINY_QUERIES, TINY_QRELS)
    config = {
        "datasets": {
            "web": {"source": "beir", "name": "tinybeir", "base_url": url, "md5": md5},
            "local": {"source": "local", "path": str(local)},
        },
        "models": {
            "bm25": {"kind": "bm25", "k1": 0.9, "b": 0.4},
            "bm25-classic-idf": {"kind": "bm25", "k1": 0.9, "b": 0.4, "idf": "classic"},
        },
        "corpus": {"shard_size": 3},
        "retrieval": {"k": 5},
    }
    configfile = base / "experiment.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    workdir = base / "work"
    snakemake(workdir, configfile=configfile)
    return workdir, configfile, config


def test_every_pair_has_its_outputs(experiment):
    workdir, _, _ = experiment
    results = workdir / "results"
    for model in ("bm25", "bm25-classic-idf"):
        for dataset in ("web", "local"):
            assert (results / "runs" / model / f"{dataset}.trec").stat().st_size > 0
            metrics = json.loads((results / "eval" / model / dataset / "metrics.json").read_text())
            assert {"nDCG@10", "Recall@100", "MAP", "MRR"} <= set(metrics)
            manifest = json.loads(
                (results / "eval" / model / dataset / "manifest.json").read_text()
            )
            assert manifest["versions"]["snakemake"] and manifest["dataset"]["files"]
            assert manifest["n_queries"] == 4 and "snakemake" in manifest["command"]
    assert (results / "downloads" / "beir" / "tinybeir.zip").exists()
    # 8 documents in shards of 3, encoded once for both BM25 variants (one encoding)
    corpus = corpus_folder(results, "web").name
    shards = sorted((results / "encode").glob(f"*/{corpus}/shards/*.npz"))
    assert [p.name for p in shards] == ["0.npz", "1.npz", "2.npz"]


def test_the_plan_lists_every_benchmark_file_the_jobs_wrote(experiment):
    """The cost report reads the jobs' benchmark files from the plan's job list: it names
    exactly the files Snakemake wrote (the report's own jobs aside)."""
    workdir, _, config = experiment
    results = workdir / "results"
    plan = Plan(validate_config(config))
    shards = {
        name: n_shards(
            json.loads((results / "corpora" / name / "corpus.json").read_text())["n_docs"], 3
        )
        for name in plan.corpora
    }
    listed = {
        job.benchmark for job in pipeline_jobs(plan, shards, {d: False for d in plan.datasets})
    }
    written = {
        path.relative_to(workdir).as_posix()
        for path in (results / "benchmarks").rglob("*.tsv")
        if path.relative_to(results / "benchmarks").parts[0] != "visual_report.tsv"
    }
    assert listed == written


def test_metrics_equal_trec_eval_on_the_run_files(experiment):
    workdir, _, _ = experiment
    results = workdir / "results"
    qrels = read_qrels(results / "data" / "local" / "qrels.tsv")
    run = read_run(results / "runs" / "bm25" / "local.trec")
    assert (run.groupby("query_id").size() <= 5).all()  # k = 5
    reference = trec_eval(run, qrels)
    metrics = json.loads((results / "eval" / "bm25" / "local" / "metrics.json").read_text())
    assert metrics["nDCG@10"] == pytest.approx(reference["ndcg_cut_10"].mean(), abs=1e-12)
    assert metrics["MAP"] == pytest.approx(reference["map"].mean(), abs=1e-12)


def test_leaderboard(experiment):
    workdir, _, _ = experiment
    table = pd.read_csv(workdir / "results" / "leaderboard.tsv", sep="\t", index_col="model")
    assert list(table.index) == ["bm25", "bm25-classic-idf"]
    assert list(table.columns) == [
        "web",
        "local",
        "average",
        "sig:web",
        "sig:local",
        "judged@10:web",
        "judged@10:local",
        "optimistic:web",
        "optimistic:local",
        "flops:web",
        "flops:local",
        "postings_per_query:web",
        "postings_per_query:local",
    ]
    # the primary metric with unjudged documents counted relevant: a score of its own
    for dataset in ("web", "local"):
        assert table[f"optimistic:{dataset}"].between(0, 1).all()
        assert (table[f"optimistic:{dataset}"] != table[dataset]).any()
    efficiency = pd.read_csv(workdir / "results" / "efficiency.tsv", sep="\t")
    pairs = sorted(zip(efficiency["model"], efficiency["dataset"], strict=True))
    assert pairs == [(m, d) for m in ("bm25", "bm25-classic-idf") for d in ("local", "web")]
    row = efficiency.set_index(["model", "dataset"]).loc[("bm25", "web")]
    assert table.loc["bm25", "flops:web"] == pytest.approx(row["flops"], rel=1e-5)
    assert row["queries_per_second"] > 0 and row["latency_queries"] > 0
    metrics = json.loads(
        (workdir / "results" / "eval" / "bm25" / "web" / "metrics.json").read_text()
    )
    assert table.loc["bm25", "web"] == pytest.approx(metrics["nDCG@10"], abs=1e-6)
    assert table.loc["bm25", "judged@10:web"] == pytest.approx(metrics["Judged@10"], abs=1e-6)
    tex = (workdir / "results" / "leaderboard.tex").read_text()
    assert "% experiment sha256:" in tex and r"\toprule" in tex
    assert r"a & bm25 & " in tex and r"b & bm25-classic-idf & " in tex
    assert table.loc["bm25", "average"] == pytest.approx(table.loc["bm25", ["web", "local"]].mean())
    markdown = (workdir / "results" / "leaderboard.md").read_text()
    assert "nDCG@10" in markdown and "experiment sha256" in markdown and "dataset web" in markdown
    long = pd.read_csv(workdir / "results" / "metrics.tsv", sep="\t")
    assert set(long.columns) == {"model", "dataset", "metric", "value"} and len(long) > 40


def test_significance_report(experiment):
    workdir, _, _ = experiment
    table = pd.read_csv(workdir / "results" / "significance.tsv", sep="\t")
    assert list(table.columns) == [
        "dataset",
        "metric",
        "model",
        "baseline",
        "test",
        "statistic",
        "p",
        "p_adjusted",
        "significant",
        "delta",
        "ci_low",
        "ci_high",
        "wins",
        "ties",
        "losses",
        "n_queries",
    ]
    assert set(table["model"]) == {"bm25-classic-idf"} and set(table["baseline"]) == {"bm25"}
    assert set(table["dataset"]) == {"web", "local"} and (table["n_queries"] == 4).all()
    report = (workdir / "results" / "significance.md").read_text()
    assert "## web: nDCG@10" in report and "holm" in report and "experiment sha256" in report


def test_changing_one_model_plans_only_that_model(experiment, tmp_path):
    workdir, configfile, config = experiment
    assert planned_jobs(snakemake(workdir, "-n", configfile=configfile)) == set()
    changed = json.loads(json.dumps(config))
    changed["models"]["bm25"]["k1"] = 1.2
    other = tmp_path / "changed.yaml"
    other.write_text(yaml.safe_dump(changed, sort_keys=False))
    jobs = planned_jobs(snakemake(workdir, "-n", configfile=other))
    per_pair = {"term_weights", "retrieve", "evaluate"}
    assert pair_jobs(jobs, per_pair, config) == {
        (rule, "bm25", d) for rule in per_pair for d in ("web", "local")
    }
    assert {rule for rule, _ in jobs} == per_pair | {"significance", "leaderboard", "all"} | (
        REPORT_RULES
    )


def test_speed_settings_rerun_nothing(experiment, tmp_path):
    """What only changes speed reaches the jobs without being a rerun trigger: the search's
    batches, memory budget, backend, device, strategy and latency sample (read by the
    script from the config), download patience, and the threads of every job (an
    encoding's runtime, threads included, is a param derived from the job's threads:
    workflow/rules/common.smk)."""
    workdir, _, config = experiment
    changed = json.loads(json.dumps(config))
    changed["retrieval"].update(query_batch_size=3, max_block_mb=64, backend="scipy", device="cpu")
    changed["retrieval"].update(strategy="exhaustive", latency_queries=5)
    changed["download"] = {"retries": 5, "timeout_s": 10}
    other = tmp_path / "speed.yaml"
    other.write_text(yaml.safe_dump(changed, sort_keys=False))
    threads = [
        "--set-threads",
        "prepare_corpus=2",
        "encode_corpus_shard=2",
        "encode_queries=2",
        "retrieve=1",
    ]
    assert planned_jobs(snakemake(workdir, "-n", *threads, configfile=other)) == set()


def reciprocal_rank_fusion(paths: list[Path], k: float = 60) -> dict[tuple[str, str], float]:
    """RRF by hand: each run ranked by score descending, then document id descending."""
    fused: dict[tuple[str, str], float] = {}
    for path in paths:
        lines = [line.split() for line in path.read_text().splitlines()]
        by_query: dict[str, list[tuple[float, str]]] = {}
        for query, _, doc, _, score, _ in lines:
            by_query.setdefault(query, []).append((float(score), doc))
        for query, docs in by_query.items():
            for rank, (_, doc) in enumerate(sorted(docs, reverse=True), 1):
                fused[(query, doc)] = fused.get((query, doc), 0.0) + 1 / (k + rank)
    return fused


def test_a_fusion_model_fuses_its_members_runs_and_reruns_nothing_else(experiment, tmp_path):
    workdir, _, config = experiment
    copy = tmp_path / "work"
    shutil.copytree(workdir, copy, symlinks=True)
    changed = json.loads(json.dumps(config))
    changed["models"]["hybrid"] = {"kind": "fusion", "runs": ["bm25", "bm25-classic-idf"]}
    changed["models"]["mix"] = {
        "kind": "fusion",
        "runs": ["bm25", "hybrid"],
        "method": "wsum",
        "weights": {"bm25": {"grid": [0.2, 0.8]}},
        "tune": {"method": "cv", "folds": 2},
    }
    other = tmp_path / "fusion.yaml"
    other.write_text(yaml.safe_dump(changed, sort_keys=False))
    jobs = planned_jobs(snakemake(copy, "-n", configfile=other))
    assert {rule for rule, _ in jobs} == {"fuse", "evaluate", "tune"} | REPORTS
    fused = {(m, d) for _, m, d in pair_jobs(jobs, {"fuse"})}
    points = {"mix+weights.bm25_0.2", "mix+weights.bm25_0.8"}
    assert fused == {(m, d) for m in {"hybrid", *points} for d in ("web", "local")}
    tuned = "results/tuning/mix/web/selection.json"
    snakemake(copy, "results/runs/hybrid/web.trec", tuned, configfile=other)
    runs = copy / "results" / "runs"
    members = [runs / "bm25" / "web.trec", runs / "bm25-classic-idf" / "web.trec"]
    expected = reciprocal_rank_fusion(members)
    got = {
        (q, d): float(s)
        for q, _, d, _, s, _ in map(
            str.split, (runs / "hybrid" / "web.trec").read_text().splitlines()
        )
    }
    per_query = pd.Series(expected).groupby(level=0).size()
    assert len(got) == sum(min(n, 5) for n in per_query)  # retrieval.k = 5
    assert all(abs(got[key] - expected[key]) < 1e-12 for key in got)
    assert json.loads((copy / tuned).read_text())["chosen_by"].startswith("2-fold")


REPORTS = {"significance", "leaderboard", "all"} | REPORT_RULES


def every_pair(rules, datasets=("web", "local"), models=("bm25", "bm25-classic-idf")):
    return {(r, m, d) for r in rules for m in models for d in datasets}


def test_changing_a_metric_setting_reruns_only_evaluation(experiment, tmp_path):
    workdir, _, config = experiment
    changed = {**config, "evaluation": {"query_set": "run"}}
    other = tmp_path / "changed.yaml"
    other.write_text(yaml.safe_dump(changed, sort_keys=False))
    jobs = planned_jobs(snakemake(workdir, "-n", configfile=other))
    assert {rule for rule, _ in jobs} == {"evaluate"} | REPORTS
    assert pair_jobs(jobs, {"evaluate"}) == every_pair(["evaluate"])


@pytest.mark.parametrize("change", ["touch", "edit"])
def test_touching_a_dataset_source_reruns_only_its_column(experiment, change):
    workdir, configfile, config = experiment
    source = Path(config["datasets"]["local"]["path"]) / "corpus.jsonl"
    before, text = source.stat(), source.read_text()
    try:
        if change == "touch":  # the same content, a new time: a new version, as in make
            source.touch()
        else:
            source.write_text(text + json.dumps({"_id": "new", "title": "", "text": "x"}) + "\n")
        jobs = planned_jobs(snakemake(workdir, "-n", configfile=configfile))
    finally:
        source.write_text(text)
        os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    per_pair = {"term_weights", "retrieve", "evaluate"}
    # one document and one query encoding, shared by both BM25 variants (the shards are
    # planned once prepare_corpus, a checkpoint, has run)
    shared = {"prepare_corpus", "prepare", "stack_shards", "encode_queries"}
    assert {rule for rule, _ in jobs} == per_pair | shared | REPORTS
    assert pair_jobs(jobs, per_pair, config) == every_pair(per_pair, ["local"])
    assert all(
        re.search(r"\blocal\b", what) and not re.search(r"\bweb\b", what)
        for rule, what in jobs
        if rule in shared
    )


@pytest.mark.parametrize(
    ("module", "first"),
    [
        ("encode/weighting.py", {"term_weights"}),
        ("search/scipy_backend.py", {"retrieve"}),
        ("evaluate/measures.py", set()),  # evaluate, and the significance report, read measures
    ],
)
def test_editing_the_library_code_of_a_stage_reruns_that_stage(experiment, tmp_path, module, first):
    workdir, configfile, config = experiment
    copy = tmp_path / "checkout"
    copy.mkdir()
    for name in ("Snakefile", "config.yaml", "workflow", "scripts", "sparsebench", "envs"):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, copy / name, symlinks=True)
        else:
            shutil.copy2(source, copy / name)
    snakefile = copy / "Snakefile"
    assert (
        planned_jobs(snakemake(workdir, "-n", configfile=configfile, snakefile=snakefile)) == set()
    )
    with (copy / "sparsebench" / module).open("a") as edited:
        edited.write("# an edit\n")
    jobs = planned_jobs(snakemake(workdir, "-n", configfile=configfile, snakefile=snakefile))
    per_pair = first | ({"retrieve", "evaluate"} if first == {"term_weights"} else {"evaluate"})
    assert {rule for rule, _ in jobs} == per_pair | REPORTS
    assert pair_jobs(jobs, per_pair, config) == every_pair(per_pair)


def test_a_single_pair_is_a_target(tmp_path, experiment):
    _, configfile, _ = experiment
    jobs = planned_jobs(
        snakemake(
            tmp_path / "fresh", "-n", "results/eval/bm25/local/metrics.json", configfile=configfile
        )
    )
    # the shard jobs are planned once the prepare_corpus checkpoint has counted the documents
    assert {rule for rule, _ in jobs} == {
        "prepare_corpus",
        "prepare",
        "stack_shards",
        "term_weights",
        "encode_queries",
        "retrieve",
        "evaluate",
    }
    assert all("bm25-classic-idf" not in w and "web" not in w for _, w in jobs)


def test_unknown_model_kind_fails_with_a_clear_message(tmp_path):
    configfile = tmp_path / "bad.yaml"
    configfile.write_text(
        yaml.safe_dump(
            {
                "datasets": {"d": {"source": "builtin", "name": "minibeir"}},
                "models": {"splode": {"kind": "splode"}},
            }
        )
    )
    result = snakemake(tmp_path / "w", "-n", configfile=configfile, check=False)
    assert result.returncode != 0
    assert "config.models.splode.kind: unknown model kind 'splode'" in result.stdout + result.stderr


def test_embedded_default_runs_offline_from_any_directory(tmp_path):
    workdir = tmp_path / "default"
    snakemake(workdir)
    table = pd.read_csv(workdir / "results" / "leaderboard.tsv", sep="\t", index_col="model")
    assert list(table.columns) == [
        "minibeir",
        "average",
        "sig:minibeir",
        "judged@10:minibeir",
        "optimistic:minibeir",
        "flops:minibeir",
        "postings_per_query:minibeir",
    ]
    assert (table["minibeir"] > 0.5).all()
