"""Mistakes the files, earlier runs and the hub cache already show are refused before any
job: each on one line naming the key and the model or dataset, with no traceback
(sparsebench.workflow.preflight)."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest
import yaml
from conftest import TINY_DOCS, TINY_QRELS, TINY_QUERIES, write_collection
from support.snakemake_runs import snakemake

from sparsebench.core.errors import ConfigError
from sparsebench.data.facts import count_documents
from sparsebench.workflow import preflight
from sparsebench.workflow.config import validate_config
from sparsebench.workflow.plan import Plan

SWEEP = {"kind": "bm25", "k1": {"grid": [0.9, 1.2]}}
HUB_MODEL = "sparsebench-test/splade-offline"


def _offline_env(cache: Path) -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HUB_CACHE": str(cache)}


def _cache_model(cache: Path, repo: str) -> None:
    """A hub cache entry as huggingface_hub lays it out: refs/main names a snapshot."""
    folder = cache / f"models--{repo.replace('/', '--')}"
    sha = "0" * 40
    (folder / "refs").mkdir(parents=True)
    (folder / "refs" / "main").write_text(sha)
    (folder / "snapshots" / sha).mkdir(parents=True)
    (folder / "snapshots" / sha / "config.json").write_text("{}")


def _error_lines(result) -> list[str]:
    """The lines of a refusal: what follows `Error:`; nothing of a traceback around it."""
    output = result.stdout + result.stderr
    assert result.returncode != 0
    for noise in ("Traceback", "InputFunctionException", 'File "', "WorkflowError"):
        assert noise not in output, output[-3000:]
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Error: "))
    return lines[start:]


def test_every_mistake_the_files_show_is_refused_before_any_job_one_line_each(tmp_path):
    collection = write_collection(tmp_path / "exp" / "col", TINY_DOCS, TINY_QUERIES, TINY_QRELS)
    spec = {
        "datasets": {
            "col": {"source": "local", "path": "col"},
            "sw": {"source": "miracl", "language": "sw", "split": "dev"},
        },
        "models": {
            "bm25": {"kind": "bm25"},
            "bm25-cv": {**SWEEP, "tune": {"folds": 5}},
            "bm25-split": {**SWEEP, "tune": {"method": "split"}},
            "splade": {"kind": "splade", "model": HUB_MODEL},
        },
        "retrieval": {"partitions": 2},
    }
    configfile = tmp_path / "exp" / "c.yaml"
    configfile.write_text(yaml.safe_dump(spec))
    work = tmp_path / "work"
    env = _offline_env(tmp_path / "hub")
    lines = _error_lines(snakemake(work, "-n", configfile=configfile, check=False, env=env))
    assert lines[0] == "Error: 5 problems, found before any job:"
    problems = [line.strip() for line in lines[1:6]]
    assert problems[0] == (
        "config.models.bm25-cv.tune.folds: 5 folds, but dataset col has 4 judged queries to "
        "cross-validate over; use at most 4 folds"
    )
    assert problems[1].startswith(
        "config.models.bm25-split.tune.method: split, but dataset col has no training split"
    )
    assert problems[2].startswith("config.retrieval.partitions: 2 partitions, but the corpus ")
    assert "(8 documents) makes 1 shard(s)" in problems[2] and problems[2].endswith("(read by col)")
    assert problems[3].startswith(
        f"config.models.splade: the hub model '{HUB_MODEL}' is not in the hub cache "
    )
    assert problems[4].startswith("config.datasets.sw: cannot read the hub dataset ")
    assert "offline (HF_HUB_OFFLINE=1)" in problems[4]
    assert not (work / "results").exists() and not (work / ".snakemake" / "log").exists()

    # each put right, the same plan passes: a training split, fewer folds, one partition,
    # the model in the cache, the hub dataset dropped
    write_collection(collection, TINY_DOCS, TINY_QUERIES, TINY_QRELS, split="train")
    _cache_model(tmp_path / "hub", HUB_MODEL)
    del spec["datasets"]["sw"]
    spec["models"]["bm25-cv"]["tune"] = {"folds": 4, "method": "cv"}
    spec["retrieval"] = {"partitions": 1}
    configfile.write_text(yaml.safe_dump(spec))
    result = snakemake(work, "-n", configfile=configfile, env=env)
    assert "prepare_corpus" in result.stdout


def _plan(tmp_path: Path, dataset: dict, **settings) -> Plan:
    config = {"datasets": {"d": dataset}, "models": {"bm25": {"kind": "bm25"}}, **settings}
    return Plan(validate_config(config))


def test_an_earlier_prepare_tells_what_a_download_would(tmp_path, monkeypatch):
    """A BEIR dataset before its download: unknown; then its prepared dataset.json (the
    same settings) and corpus.json answer; another dataset's settings do not."""
    monkeypatch.chdir(tmp_path)
    plan = _plan(tmp_path, {"source": "beir", "name": "scifact"}, retrieval={"partitions": 3})
    corpus = plan.corpus_of["d"]
    assert preflight.dataset_facts(plan, "d") is None
    assert preflight.corpus_documents(plan, corpus, 10) is None
    info = tmp_path / "results" / "data" / "d" / "dataset.json"
    info.parent.mkdir(parents=True)
    recorded = {"name": "d", "settings": plan.datasets["d"], "n_judged_queries": 2}
    info.write_text(json.dumps({**recorded, "tuning_split": None}))
    assert preflight.dataset_facts(plan, "d")["n_judged_queries"] == 2
    info.write_text(json.dumps({**recorded, "settings": {**plan.datasets["d"], "split": "dev"}}))
    assert preflight.dataset_facts(plan, "d") is None
    (tmp_path / "results" / "corpora" / corpus).mkdir(parents=True)
    (tmp_path / "results" / "corpora" / corpus / "corpus.json").write_text('{"n_docs": 5}')
    assert preflight.corpus_documents(plan, corpus, 10) == 5
    assert preflight.corpus_documents(plan, corpus, 3) == 3
    problems = preflight.preflight_problems(plan)
    assert problems == [
        f"config.retrieval.partitions: 3 partitions, but the corpus {corpus} (5 documents) "
        "makes 1 shard(s) of corpus.shard_size 100,000, and a partition is one shard or more: "
        "use at most 1 partitions, or a smaller shard_size (read by d)"
    ]


def test_a_folder_corpus_is_counted_only_as_far_as_the_question_needs(tmp_path, monkeypatch):
    """Four partitions of shard_size 2 need 7 documents or more: 8 documents pass, and the
    count stops at 7; with shard_size 3 (3 shards), refused."""
    monkeypatch.chdir(tmp_path)
    root = write_collection(tmp_path / "col", TINY_DOCS, TINY_QUERIES, TINY_QRELS)
    entry = {"source": "local", "path": str(root)}
    plan = _plan(tmp_path, entry, retrieval={"partitions": 4}, corpus={"shard_size": 2})
    corpus = plan.corpus_of["d"]
    assert preflight.corpus_documents(plan, corpus, 7) == 7
    assert preflight.preflight_problems(plan) == []
    plan = _plan(tmp_path, entry, retrieval={"partitions": 4}, corpus={"shard_size": 3})
    (problem,) = preflight.preflight_problems(plan)
    assert "(8 documents) makes 3 shard(s)" in problem


class _Bytes:
    """A source whose corpus is `data` (a JSON-lines corpus, as the collection readers)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    @contextlib.contextmanager
    def open(self, member: str):
        yield io.BytesIO(self.data)


@pytest.mark.parametrize("block", [3, 1 << 24])
def test_documents_are_non_blank_lines_whatever_the_blocks(monkeypatch, block):
    monkeypatch.setattr("sparsebench.data.facts._BLOCK", block)
    cases = {
        b'{"_id": "a"}\n{"_id": "b"}\n': 2,
        b'{"_id": "a"}\n\n \t\r\n{"_id": "b"}': 2,  # blank lines; the last without newline
        b"": 0,
        b"\n\n": 0,
        b"{}\n" * 100: 100,
    }
    for data, expected in cases.items():
        assert count_documents(_Bytes(data), 10**9) == expected
        assert count_documents(_Bytes(data), 3) == min(expected, 3)


def test_a_refusal_is_one_line_or_a_list_of_them():
    assert preflight.refusal(["a: b"]) == "Error: a: b"
    assert preflight.refusal(["a", "b"]) == "Error: 2 problems, found before any job:\n  a\n  b"


def test_an_invalid_hub_id_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    assert "is neither a folder nor a hub model id" in preflight.uncached_model("a b/c d")


def test_the_tune_rule_still_refuses_what_only_prepare_shows():
    """After a download, prepare's count: the same message, naming the model."""
    from sparsebench.tune.sweeps import uses_training_split

    sweep = {"method": "auto", "folds": 5}
    info = {"name": "d", "n_judged_queries": 4}
    expected = "config.models.m.tune.folds: 5 folds, but dataset d has 4 judged"
    with pytest.raises(ConfigError, match=expected):
        uses_training_split("m", sweep, info)
    assert uses_training_split("m", sweep, {**info, "tuning_split": "train"})  # folds unused
    assert not uses_training_split("m", {**sweep, "folds": 4}, info)


@pytest.mark.slow
def test_what_only_a_download_shows_is_refused_by_the_job_that_counts_it(tmp_path):
    """A BEIR archive not yet fetched: prepare_corpus refuses the partitions (prepare the
    folds) in its own log, before any encoding job, with no traceback of Snakemake's; the
    next run has the archive at hand and refuses both before any job."""
    import functools
    import http.server
    import threading

    from conftest import TINY_DOCS
    from support.archive_server import tiny_beir_zip

    served = tmp_path / "served"
    md5 = tiny_beir_zip(served / "tinybeir.zip", TINY_DOCS)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    entry = {"source": "beir", "name": "tinybeir", "md5": md5}
    entry["base_url"] = f"http://127.0.0.1:{httpd.server_address[1]}"
    spec = {
        "datasets": {"tiny": entry},
        "models": {"bm25-cv": {**SWEEP, "tune": {"folds": 5}}},
        "retrieval": {"partitions": 2},
    }
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(spec))
    work = tmp_path / "work"
    try:
        first = snakemake(work, configfile=configfile, check=False)
    finally:
        httpd.shutdown()
    output = first.stdout + first.stderr
    assert first.returncode != 0
    assert "config.retrieval.partitions: 2 partitions, but the corpus tinybeir-" in output
    assert "InputFunctionException" not in output and "Traceback" not in output
    assert not (work / "results" / "encode").exists()
    lines = _error_lines(snakemake(work, "-n", configfile=configfile, check=False))
    assert lines[0] == "Error: 2 problems, found before any job:"
    assert lines[1].strip().startswith("config.models.bm25-cv.tune.folds: 5 folds, but dataset")
    assert lines[2].strip().startswith("config.retrieval.partitions: 2 partitions")


def test_offline_an_idf_json_the_cache_lacks_is_named(tmp_path, monkeypatch):
    """`idf: model` reads the model's idf.json, which loading the model never fetches:
    offline, a cache that holds the model but not that file is refused before any job."""
    from huggingface_hub import constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    _cache_model(tmp_path, HUB_MODEL)
    entry = {"kind": "splade", "doc_model": HUB_MODEL, "query_encoder": "tokenizer"}
    collection = write_collection(tmp_path / "col", TINY_DOCS, TINY_QUERIES, TINY_QRELS)
    config = {"datasets": {"d": {"source": "local", "path": str(collection)}}}
    config["models"] = {"free": {**entry, "idf": "model"}, "plain": entry}
    plan = Plan(validate_config(config))
    problems = preflight.preflight_problems(plan)
    assert problems == [
        f"config.models.free: idf: model reads the idf.json of '{HUB_MODEL}', which the hub "
        f"cache {tmp_path} lacks, and HF_HUB_OFFLINE=1 keeps it from being fetched: fetch it "
        f"once online (`hf download {HUB_MODEL} idf.json`) or name a local copy"
    ]
    snapshot = next((tmp_path / f"models--{HUB_MODEL.replace('/', '--')}" / "snapshots").iterdir())
    (snapshot / "idf.json").write_text("{}")
    assert preflight.preflight_problems(plan) == []
