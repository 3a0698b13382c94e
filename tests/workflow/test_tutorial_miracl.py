"""The tutorial MIRACL in 18 languages (docs/tutorials/miracl.md), followed as a reader
follows it (support/tutorials.py), on a stand-in for the hub's two MIRACL repositories
(support/miracl_standin.py)."""

from __future__ import annotations

import json
import subprocess

import pytest
from conftest import REPO, SHARED, corpus_folder
from support.hubserver import HubServer, hub_env
from support.miracl_standin import build_miracl_hub
from support.tutorials import follow, reader_environment, reader_folder

TUTORIALS = REPO / "docs" / "tutorials"
pytestmark = pytest.mark.slow


def test_miracl_in_18_languages(tmp_path):
    """The tutorial, and what it reads from the hub: the data files only (never a loading
    script or README), the commits recorded (the corpus's in corpus.json, the topics' in
    dataset.json), and offline, with the server gone, the same corpus from the cache."""
    root = build_miracl_hub(tmp_path / "hub")
    clone = reader_folder(tmp_path / "reader", REPO, SHARED)
    cache = tmp_path / "cache"
    with HubServer(root) as server:
        online = hub_env(server, cache, base=reader_environment())
        for offline in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
            online.pop(offline, None)
        follow(TUTORIALS / "miracl.md", clone, online)
        fetched = server.downloads()
        commits = {r: server.commit(r) for r in ("miracl/miracl-corpus", "miracl/miracl")}
    assert not [f for f in fetched if f.endswith((".py", "README.md"))], fetched
    results = clone / "results"
    info = json.loads((results / "data" / "miracl-sw" / "dataset.json").read_text())
    assert info["source"]["commits"] == {"miracl/miracl": commits["miracl/miracl"]}
    corpus = corpus_folder(results, "miracl-sw")
    prepared = json.loads((corpus / "corpus.json").read_text())
    assert prepared["source"]["commits"] == {
        "miracl/miracl-corpus": commits["miracl/miracl-corpus"]
    }
    assert prepared["source"]["path"] == "miracl/miracl-corpus"  # no split, no topics
    assert "split" not in prepared["source"]
    before = (corpus / "corpus.parquet").read_bytes()
    offline = hub_env("http://127.0.0.1:9", cache, base=reader_environment())
    offline.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    again = "snakemake --cores 1 --configfile miracl-three.yaml --forcerun"
    again += " prepare_corpus prepare -- results/data/miracl-sw/dataset.json"
    ran = subprocess.run(["bash", "-c", again], cwd=clone, env=offline, capture_output=True)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert (corpus / "corpus.parquet").read_bytes() == before
