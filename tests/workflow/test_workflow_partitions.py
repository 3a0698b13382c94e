"""retrieval.partitions through the DAG: per-partition jobs, whose merged runs are byte
for byte the single job's for every model kind, on a corpus of exact ties that the
partitions cut through; and what a change reruns."""

from __future__ import annotations

import json
import re
import shutil

import pytest
import yaml
from conftest import corpus_folder, shared_path, write_collection
from support.samefiles import assert_same_files
from support.snakemake_runs import planned_jobs, snakemake

from sparsebench.retrieve.costs import read_cost
from sparsebench.workflow import layout

pytestmark = pytest.mark.slow

# 40 documents in 4 groups of identical texts: a query matching a group ties 10
# documents, whose ids interleave the partitions (d00, d04, d08, ... share a text).
DOCS = [
    (f"d{i:02d}", "", f"moon tides ocean {['bread', 'salt', 'wind', 'stone'][i % 4]}")
    for i in range(40)
]
QUERIES = [("q1", "moon bread"), ("q2", "salt wind"), ("q3", "ocean stone tides"), ("q4", "d00")]
QRELS = [("q1", "d00", 1), ("q1", "d12", 2), ("q2", "d01", 1), ("q3", "d03", 1), ("q4", "d05", 1)]


def models(tmp_path):
    splade = tmp_path / "splade-tiny"
    shutil.copytree(shared_path("models", "splade-tiny"), splade)
    (splade / "idf.json").write_text(json.dumps({"moon": 3.0, "bread": 2.0, "salt": 1.5}))
    learned = {"kind": "splade", "model": str(splade), "max_length": 32, "device": "cpu"}
    return {
        "bm25": {"kind": "bm25", "k1": 0.9, "b": 0.4},
        "bm25-lucene": {"kind": "bm25", "k1": 0.9, "b": 0.4, "statistics": "lucene"},
        "splade-pruned": {**learned, "top_k": 3},
        "doc-only": {
            "kind": "splade",
            "doc_model": str(splade),
            "query_encoder": "tokenizer",
            "idf": "model",
            "max_length": 32,
            "device": "cpu",
        },
    }


def run(workdir, configfile, entries, partitions, *targets, k=7):
    """The experiment's runs (and `targets`) with `partitions`, in `workdir`."""
    config = {
        "datasets": {"ties": {"source": "local", "path": str(workdir.parent / "ties")}},
        "models": entries,
        "corpus": {"shard_size": 14},
        "retrieval": {"k": k, "partitions": partitions},
        "significance": {"resamples": 200},
    }
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    runs = [f"results/runs/{model}/ties.trec" for model in entries]
    return snakemake(workdir, *runs, *targets, configfile=configfile)


def test_partitioned_runs_are_the_single_jobs_and_rerun_only_what_changed(tmp_path):
    write_collection(tmp_path / "ties", DOCS, QUERIES, QRELS)
    entries = models(tmp_path)
    workdir, configfile = tmp_path / "experiment", tmp_path / "experiment.yaml"
    run(workdir, configfile, entries, 1)
    single = tmp_path / "single"
    shutil.copytree(workdir / "results" / "runs", single)
    single_costs = {
        m: read_cost(workdir / layout.COST["evaluation"].format(model=m, dataset="ties"))
        for m in entries
    }
    costs = "results/report/costs.tsv"
    # 40 documents in shards of 14: 3 shards, one per partition (the library's tests
    # take partitions of several shards, tests/partitions/test_partitions.py). The
    # encoded shards stay: partitions split the weighing and the search only.
    rules = {rule for rule, _ in planned_jobs(run(workdir, configfile, entries, 3, costs))}
    assert "partition_postings" in rules and "merge_runs" in rules
    assert not rules & {"prepare", "encode_corpus_shard", "retrieve"}
    assert not rules & {"stack_shards", "term_weights"}  # no job held the whole corpus
    for model in entries:
        assert_same_files(
            workdir / "results" / "runs" / model / "ties.trec", single / model / "ties.trec"
        )
        # the partitions' cost records add up to the single search's
        merged = read_cost(workdir / layout.COST["evaluation"].format(model=model, dataset="ties"))
        assert merged["partitions"] == 3
        for key in ("documents", "postings", "document_nonzeros", "postings_touched"):
            assert merged[key] == single_costs[model][key], (model, key)
    corpus = corpus_folder(workdir / "results", "ties").name
    model_dir = workdir / "results" / "models" / "bm25" / corpus
    assert sorted(p.name for p in (model_dir / "partitions").iterdir()) == ["0", "1", "2"]
    jobs = (workdir / costs).read_text()
    assert "partition_postings" in jobs and "merge_runs" in jobs
    # the tied scores at the top of q1 are cut by k; the merge kept the same ones
    lines = (single / "bm25" / "ties.trec").read_text().splitlines()
    first = [line.split() for line in lines if line.startswith("q1 ")]
    assert len(first) == 7 and len({row[4] for row in first}) < 7

    # k changes: each partition's retrieval and the merge rerun, not the weights
    config = yaml.safe_load(configfile.read_text())
    config["retrieval"]["k"] = 5
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    plan = planned_jobs(snakemake(workdir, "-n", configfile=configfile))
    rules = {rule for rule, _ in plan}
    assert {"retrieve_partition", "merge_runs", "evaluate"} <= rules
    assert not rules & {
        "partition_postings",
        "partition_statistics",
        "global_statistics",
        "encode_corpus_shard",
        "vocabulary",
        "stack_shards",
        "retrieve",
    }
    assert len([w for r, w in plan if r == "retrieve_partition"]) == 3 * len(entries)
    # a model's b changes its statistics' params: every partition of it is weighed again
    config["models"]["bm25"]["b"] = 0.5
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    plan = planned_jobs(snakemake(workdir, "-n", configfile=configfile))
    postings = [w for r, w in plan if r == "partition_postings"]
    assert len(postings) == 3 and all(re.search(r"for bm25\b(?!-)", w) for w in postings)
