"""MIRACL and mMARCO read from hub repositories that still ship a loading script beside
their data files (as miracl/miracl-corpus, miracl/miracl and unicamp-dl/mmarco do), served
by a local stand-in for the hub's file API: `datasets` refuses such a repository, the
project reads its files with the packaged builders, through the whole DAG."""

from __future__ import annotations

import json

import pytest
import yaml
from support.hubserver import NEEDS_SCRIPT_REFUSAL, HubServer, hub_env, serve_hub
from support.snakemake_runs import snakemake
from test_hub_datasets import build_miracl, build_mmarco

from sparsebench.core.errors import DataError

datasets = pytest.importorskip("datasets")

SCRIPT = '''import datasets


class Loader(datasets.GeneratorBasedBuilder):
    """The repository's own loading script: never run by sparsebench."""
'''


def hub_repositories(root):
    """miracl/miracl-corpus, miracl/miracl and unicamp-dl/mmarco in the hub's layout,
    each with its loading script and README at the top."""
    built_corpus, built_topics, _ = build_miracl(root.parent / "build")
    corpus = root / "miracl" / "miracl-corpus"
    topics = root / "miracl" / "miracl"
    mmarco = root / "unicamp-dl" / "mmarco"
    corpus.parent.mkdir(parents=True)
    built_corpus.rename(corpus)
    built_topics.rename(topics)
    mmarco.mkdir(parents=True)
    build_mmarco(mmarco)
    for repo, script in (
        (corpus, "miracl-corpus.py"),
        (topics, "miracl.py"),
        (mmarco, "mmarco.py"),
    ):
        (repo / script).write_text(SCRIPT)
        (repo / "README.md").write_text(f"---\nlicense: apache-2.0\n---\n# {repo.name}\n")
    return root


@NEEDS_SCRIPT_REFUSAL
def test_datasets_refuses_a_repository_with_a_loading_script(tmp_path, monkeypatch):
    """The failure this project avoids: `load_dataset(repo, data_files=...)` on such a
    repository raises, whatever data_files says."""
    root = hub_repositories(tmp_path / "hub")
    refused = pytest.raises(RuntimeError, match="Dataset scripts are no longer supported")
    with serve_hub(root, monkeypatch, cache_dir=tmp_path / "cache"), refused:
        datasets.load_dataset(
            "miracl/miracl-corpus",
            data_files="miracl-corpus-v1.0-sw/*.jsonl.gz",
            split="train",
            streaming=True,
        )


@pytest.mark.slow
def test_mmarco_runs_from_the_hub_through_the_dag(tmp_path):
    """mMARCO from the hub, its default judgments fetched (MIRACL's run from the hub:
    tests/workflow/test_tutorial_miracl.py)."""
    root = hub_repositories(tmp_path / "hub")
    config = {
        "datasets": {
            "mmarco-pt-en": {"source": "mmarco", "language": "pt", "query_language": "en"},
        },
        "models": {"bm25": {"kind": "bm25"}},
    }
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    pair = "results/eval/bm25/mmarco-pt-en/metrics.json"
    with HubServer(root) as server:
        snakemake(tmp_path / "work", pair, configfile=configfile, env=hub_env(server, tmp_path))
        fetched = server.downloads()
        commit = server.commit("unicamp-dl/mmarco")
    assert not [f for f in fetched if f.endswith((".py", "README.md"))], fetched
    assert "unicamp-dl/mmarco/data/qrels.dev.small.tsv" in fetched  # the default judgments
    assert json.loads((tmp_path / "work" / pair).read_text())["nDCG@10"] >= 0
    mm = json.loads(
        (tmp_path / "work" / "results" / "data" / "mmarco-pt-en" / "dataset.json").read_text()
    )
    assert mm["source"]["commits"] == {"unicamp-dl/mmarco": commit}


def test_a_cut_download_never_counts_as_complete(tmp_path, monkeypatch):
    """Connections cut midway through a corpus file, more often than huggingface_hub
    retries within one call: nothing that looks complete is left in the cache, and the
    next read fetches the file whole and reads exactly what the repository holds."""
    import test_hub_datasets
    from huggingface_hub import file_download

    from sparsebench.data.miracl import MiraclSource

    monkeypatch.setattr(file_download.time, "sleep", lambda seconds: None)
    root = hub_repositories(tmp_path / "hub")
    relative = "miracl-corpus-v1.0-sw/docs-0.jsonl.gz"
    cache = tmp_path / "cache" / "hub"
    with serve_hub(root, monkeypatch, cache_dir=tmp_path / "cache") as server:
        server.interrupt("miracl/miracl-corpus", relative, after_bytes=100, times=50)
        with pytest.raises(DataError, match="cannot fetch"):
            list(MiraclSource("sw").corpus_batches())
        tries = server.downloads("miracl/miracl-corpus").count(f"miracl/miracl-corpus/{relative}")
        assert tries > 1  # retried within the call, every try cut
        assert not [p for p in cache.rglob("*.jsonl.gz") if p.exists()]
        server._faults.clear()  # the cuts still queued: the next download is whole
        batches = list(MiraclSource("sw").corpus_batches())
    ids = [i for b in batches for i in b.column("_id").to_pylist()]
    assert ids == [d for d, _, _ in test_hub_datasets.SW_DOCS]
    (stored,) = [p for p in cache.rglob("*.jsonl.gz") if p.exists()]
    assert stored.read_bytes() == (root / "miracl" / "miracl-corpus" / relative).read_bytes()


def test_miracls_two_repositories_are_pinned_each_at_its_own_commit(tmp_path, monkeypatch):
    """miracl/miracl-corpus and miracl/miracl have histories of their own: the corpus's
    commit is unknown to the topics' repository, so `revision` alone cannot pin both;
    `topics_revision` pins the topics', and dataset.json records both commits."""
    from conftest import prepare_entry

    root = hub_repositories(tmp_path / "hub")
    with serve_hub(root, monkeypatch, cache_dir=tmp_path / "cache") as server:
        corpus, topics = server.commit("miracl/miracl-corpus"), server.commit("miracl/miracl")
        assert corpus != topics
        entry = {"source": "miracl", "language": "sw", "split": "dev", "revision": corpus}
        with pytest.raises(DataError, match=f"'miracl/miracl' at revision '{corpus}'"):
            prepare_entry(entry, tmp_path / "one", "miracl-sw")
        summary = prepare_entry(
            {**entry, "topics_revision": topics}, tmp_path / "both", "miracl-sw"
        )
    assert summary["source"]["commits"] == {"miracl/miracl-corpus": corpus, "miracl/miracl": topics}
    assert summary["source"]["topics_revision"] == topics and summary["n_queries"] > 0
