"""Hub datasets that cannot be read whole fail before anything large is fetched, or read
as they are at one commit: a gated or missing topics file stops preparation before the
corpus is requested; an offline cache that lacks a shard is named, never read as a
smaller corpus; mMARCO's passages and queries come from one commit, even when its branch
moves between the corpus job and the dataset job."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys

import pyarrow.parquet as pq
import pytest
from conftest import REPO, prepare_entry
from support.hubserver import hub_env, serve_hub
from test_hub_datasets import SW_DOCS
from test_hub_repositories import hub_repositories

from sparsebench.core.errors import DataError
from sparsebench.data import hubrepo, stages
from sparsebench.workflow.config import validate_config
from sparsebench.workflow.plan import Plan

datasets = pytest.importorskip("datasets")

CORPUS = "miracl/miracl-corpus"
TOPICS = "miracl/miracl"
QRELS = "miracl-v1.0-sw/qrels/qrels.miracl-v1.0-sw-dev.tsv"
MIRACL_SW = {"source": "miracl", "language": "sw", "split": "dev"}


@pytest.mark.parametrize(
    ("status", "said"),
    [
        (401, "access refused (HTTP 401)"),
        (403, "access refused (HTTP 403)"),
        (404, "does not exist"),
    ],
)
def test_gated_or_missing_topics_fail_before_the_corpus_is_fetched(
    tmp_path, monkeypatch, status, said
):
    root = hub_repositories(tmp_path / "hub")
    if status == 404:
        (root / TOPICS / QRELS).unlink()
    with serve_hub(root, monkeypatch, cache_dir=tmp_path / "cache") as server:
        if status != 404:
            server.gate(TOPICS, status)
        with pytest.raises(DataError) as raised:
            prepare_entry(MIRACL_SW, tmp_path / "out", "miracl-sw")
        assert server.downloads(CORPUS) == []  # not one byte of the corpus
    message = str(raised.value)
    print(message)
    assert TOPICS in message and said in message
    assert "qrels.miracl-v1.0-sw-dev.tsv" in message or "topics.miracl-v1.0-sw-dev.tsv" in message
    if status != 404:
        assert "token" in message and f"/datasets/{TOPICS}" in message
    assert not (tmp_path / "out" / "corpus.parquet").exists()


def _shard_repositories(root, names):
    """The hub repositories with the Swahili corpus split into files named `names`."""
    root = hub_repositories(root)
    folder = root / CORPUS / "miracl-corpus-v1.0-sw"
    for old in folder.iterdir():
        old.unlink()
    per = -(-len(SW_DOCS) // len(names))
    for i, name in enumerate(names):
        with gzip.open(folder / name, "wt", encoding="utf-8") as handle:
            for doc, title, text in SW_DOCS[i * per : (i + 1) * per]:
                handle.write(json.dumps({"docid": doc, "title": title, "text": text}) + "\n")
    return root


READ_OFFLINE = (
    "from sparsebench.data.miracl import MiraclSource\n"
    "print(sum(b.num_rows for b in MiraclSource('sw').corpus_batches()))\n"
)


@pytest.mark.parametrize(
    ("names", "listing", "said"),
    [
        (
            [f"docs-{i:05d}-of-00003.jsonl.gz" for i in range(3)],
            False,
            "lacks 1 of the 3 files of miracl-corpus-v1.0-sw/*.jsonl*",
        ),
        (
            [f"docs-{i}.jsonl.gz" for i in range(3)],
            False,
            "no listing of the repository's files",
        ),
        (
            [f"docs-{i}.jsonl.gz" for i in range(3)],
            True,
            "lacks 1 of the 3 files of miracl-corpus-v1.0-sw/*.jsonl*",
        ),
    ],
)
def test_an_offline_cache_missing_a_shard_is_refused(tmp_path, names, listing, said):
    """The corpus read once online, then one shard taken out of the hub cache (and, for a
    cache huggingface_hub did not fill, the listing it records): offline, the next read
    names what is missing instead of reading fewer documents."""
    root = _shard_repositories(tmp_path / "hub", names)
    cache = tmp_path / "cache"
    with serve_hub(root, cache_dir=cache) as server:
        env = hub_env(server, cache)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        online = subprocess.run(
            [sys.executable, "-c", READ_OFFLINE], env=env, capture_output=True, text=True
        )
        commit = server.commit(CORPUS)
    assert online.stdout.strip() == str(len(SW_DOCS)), online.stderr
    stored = cache / "hub" / "datasets--miracl--miracl-corpus"
    (stored / "snapshots" / commit / "miracl-corpus-v1.0-sw" / names[1]).unlink()
    if not listing:
        shutil.rmtree(stored / "trees")
    env.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_ENDPOINT="http://127.0.0.1:9")
    offline = subprocess.run(
        [sys.executable, "-c", READ_OFFLINE], env=env, capture_output=True, text=True
    )
    assert offline.returncode != 0 and offline.stdout == ""
    message = offline.stderr.strip().splitlines()[-1]
    assert message.startswith("sparsebench.core.errors.DataError: "), offline.stderr
    print(message)
    assert said in message and CORPUS in message and commit in message
    if "lacks" in said:
        assert message.endswith(
            f"{names[1]}. Fetch them online (HF_HUB_OFFLINE=0), or copy the "
            "complete snapshot into the cache"
        )


def test_local_shards_named_with_their_count_must_all_be_there(tmp_path):
    names = [f"docs-{i:05d}-of-00003.jsonl.gz" for i in range(3)]
    root = _shard_repositories(tmp_path / "hub", names)
    (root / CORPUS / "miracl-corpus-v1.0-sw" / names[2]).unlink()
    entry = {**MIRACL_SW, "corpus": str(root / CORPUS), "topics": str(root / TOPICS)}
    with pytest.raises(DataError, match=f"lacks 1 shards of .*: .*{names[2]}$"):
        prepare_entry(entry, tmp_path / "out")


def test_mmarco_passages_and_queries_are_read_at_one_commit(tmp_path, monkeypatch):
    """The corpus job reads the passages at main's commit; main then moves (new queries);
    the dataset job, a new process, reads the queries at the corpus's commit and records
    it; every file is asked for at the commit, never at `main`."""
    root = hub_repositories(tmp_path / "hub")
    entry = {"source": "mmarco", "language": "pt", "query_language": "en"}
    plan = Plan(validate_config({"datasets": {"mm": entry}, "models": {"m": {"kind": "bm25"}}}))
    corpus, out = plan.corpus("mm"), tmp_path / "out"
    queries = root / "unicamp-dl/mmarco/data/google/queries/dev/english_queries.dev.small.tsv"
    with serve_hub(root, monkeypatch, cache_dir=tmp_path / "cache") as server:
        first = server.keep("unicamp-dl/mmarco")
        stages.prepare_corpus(corpus.name, corpus.identity, out, readers=plan.readers(corpus.name))
        queries.write_text("10\tchanged query\n11\tanother\n", encoding="utf-8")
        assert server.commit("unicamp-dl/mmarco") != first
        monkeypatch.setattr(hubrepo, "_COMMITS", {})  # the dataset job: a new process
        monkeypatch.setattr(hubrepo, "_READ", set())
        stages.prepare("mm", plan.datasets["mm"], out, out / "corpus.parquet", corpus.name)
        fetched = [p for p in server.paths("GET") if "/resolve/" in p]
    texts = pq.read_table(out / "queries.parquet")["text"].to_pylist()
    assert texts == ["what controls the ocean tides", "how is bread made"]
    recorded = [
        json.loads((out / f).read_text())["source"]["commits"]
        for f in ("corpus.json", "dataset.json")
    ]
    assert recorded == [{"unicamp-dl/mmarco": first}] * 2
    assert fetched and all(f"/resolve/{first}/" in p for p in fetched), fetched
