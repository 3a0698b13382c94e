"""SPLADE through the whole Snakemake DAG (a tiny random masked LM built by the test); the
real splade-tiny's scores on real collections: tests/workflow/test_tutorial_splade_fusion.py."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import (
    TINY_DOCS,
    TINY_QRELS,
    TINY_QUERIES,
    corpus_folder,
    write_collection,
)
from support.snakemake_runs import planned_jobs, snakemake

pytest.importorskip("torch")
from support.masked_lm import build_masked_lm  # noqa: E402

from sparsebench.encode.pruning import prune_rows  # noqa: E402
from sparsebench.search.postings import load_postings  # noqa: E402

pytestmark = pytest.mark.slow


def test_splade_models_flow_through_the_dag(tmp_path):
    model = build_masked_lm(tmp_path / "mlm")
    (model / "idf.json").write_text(json.dumps({"moon": 3.0, "tides": 2.0, "bread": 2.0}))
    collection = write_collection(tmp_path / "c", TINY_DOCS, TINY_QUERIES, TINY_QRELS)
    config = {
        "datasets": {"tiny": {"source": "local", "path": str(collection)}},
        "models": {
            "bm25": {"kind": "bm25"},
            "splade": {"kind": "splade", "model": str(model), "max_length": 32, "device": "cpu"},
            "splade+idf": {
                "kind": "splade",
                "model": str(model),
                "max_length": 32,
                "idf": "lucene",
            },
            "doc-only": {
                "kind": "splade",
                "doc_model": str(model),
                "query_encoder": "tokenizer",
                "idf": "model",
                "max_length": 32,
            },
        },
        "corpus": {"shard_size": 5},
        "significance": {"resamples": 200},
    }
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    workdir = tmp_path / "work"
    target = "results/leaderboard.tsv"  # the report's jobs aside
    snakemake(workdir, target, configfile=configfile)
    results = workdir / "results"
    board = pd.read_csv(results / "leaderboard.tsv", sep="\t", index_col="model")
    assert list(board.index) == ["bm25", "splade", "splade+idf", "doc-only"]
    assert board["tiny"].notna().all()
    # the three SPLADE variants share one document encoding: 8 docs in 2 shards, once
    encodings = sorted(p.name for p in (results / "encode").iterdir())
    assert len(encodings) == 2 and sum(e.startswith("splade-") for e in encodings) == 1
    splade_dir = next(p for p in (results / "encode").iterdir() if p.name.startswith("splade-"))
    corpus = corpus_folder(results, "tiny").name
    assert sorted(p.name for p in (splade_dir / corpus / "shards").glob("*.npz")) == [
        "0.npz",
        "1.npz",
    ]
    idf = np.load(results / "models" / "doc-only" / corpus / "idf.npy")
    vocab = (splade_dir / corpus / "vocab.txt").read_text().split("\n")
    assert idf[vocab.index("moon")] == 3.0 and idf[vocab.index("solar")] == 0.0
    significance = pd.read_csv(results / "significance.tsv", sep="\t")
    assert set(significance["model"]) == {"splade", "splade+idf", "doc-only"}
    # provenance: the local model's files by checksum, beside every report
    manifest = json.loads((results / "leaderboard.manifest.json").read_text())
    files = manifest["model_provenance"]["splade"][str(model)]
    assert set(files) >= {"config.json", "model.safetensors"} and len(files["config.json"]) == 64
    report = json.loads((results / "significance.manifest.json").read_text())
    assert report["tests"] and report["command"] and report["versions"]["snakemake"]
    # changing the IDF of one variant reruns its weights, not the shared encoding
    config["models"]["splade+idf"]["idf"] = "classic"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    rules = {
        rule for rule, _ in planned_jobs(snakemake(workdir, "-n", target, configfile=configfile))
    }
    assert "encode_corpus_shard" not in rules and "term_weights" in rules
    # the block shape is part of the encoding: another batch size re-encodes
    config["models"]["splade+idf"]["idf"] = "lucene"
    config["models"]["splade"]["batch_size"] = 7
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    rules = {
        rule for rule, _ in planned_jobs(snakemake(workdir, "-n", target, configfile=configfile))
    }
    assert "encode_corpus_shard" in rules
    # the device is speed only: naming it reruns nothing
    del config["models"]["splade"]["batch_size"]
    config["models"]["splade"]["device"] = "auto"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    assert planned_jobs(snakemake(workdir, "-n", target, configfile=configfile)) == set()
    # pruning applies to the stored encoding: a top_k variant reruns weights onward only
    weights = results / "models" / "splade" / corpus / "postings.npz"
    unpruned = load_postings(weights).documents()
    config["models"]["splade"]["top_k"] = 3
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    rules = {
        rule for rule, _ in planned_jobs(snakemake(workdir, "-n", target, configfile=configfile))
    }
    assert "encode_corpus_shard" not in rules and "term_weights" in rules
    snakemake(workdir, str(weights.relative_to(workdir)), configfile=configfile)
    pruned = load_postings(weights).documents()
    assert np.diff(pruned.indptr).max() == 3
    assert (pruned != prune_rows(unpruned, top_k=3)).nnz == 0
