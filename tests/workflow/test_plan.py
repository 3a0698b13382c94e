"""The plan (sparsebench.workflow.plan): one corpus however many datasets read it, one
document encoding per corpus and encoding settings, and the jobs that follow."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict

import pytest
from conftest import REPO

from sparsebench.core.errors import ConfigError
from sparsebench.runs.fusion.settings import Fusion
from sparsebench.workflow.config import load_config_file, validate_config
from sparsebench.workflow.jobs import pipeline_jobs
from sparsebench.workflow.plan import Plan

BM25 = {"bm25": {"kind": "bm25"}, "bm25-classic": {"kind": "bm25", "idf": "classic"}}


def plan_of(datasets: dict, models: dict = BM25) -> Plan:
    return Plan(validate_config({"datasets": datasets, "models": models}))


def test_the_msmarco_preset_encodes_its_passages_once_per_model():
    """Dev/small, TREC DL 2019 and 2020 read the same 8.8M passages: one corpus, and one
    document encoding per SPLADE model (BM25's analysis is one more), not three."""
    plan = Plan(validate_config(load_config_file(str(REPO / "workflow/presets/msmarco.yaml"))))
    assert len(plan.corpora) == 1
    (corpus,) = plan.corpora.values()
    assert corpus.datasets == ("msmarco-dev", "dl19", "dl20")
    assert {plan.corpus_of[d] for d in plan.datasets} == {corpus.name}
    # one analysis for the five BM25 models (default, tuned, with feedback), and three SPLADE
    assert len(plan.encoded_corpora) == 4
    jobs = Counter(job.rule for job in pipeline_jobs(plan, {corpus.name: 45}, {}))
    assert jobs["prepare_corpus"] == 1 and jobs["prepare"] == 3
    assert jobs["encode_corpus_shard"] == 4 * 45 and jobs["stack_shards"] == 4
    assert jobs["term_weights"] == 8  # per model and corpus, not per dataset
    assert jobs["retrieve"] == jobs["evaluate"] == 8 * 3  # per model and dataset


def test_miracl_dev_and_train_of_one_language_share_their_corpus():
    plan = plan_of(
        {
            "sw-dev": {"source": "miracl", "language": "sw", "split": "dev"},
            "sw-train": {"source": "miracl", "language": "sw", "split": "train"},
            "yo-dev": {"source": "miracl", "language": "yo", "split": "dev"},
        }
    )
    assert plan.corpus_of["sw-dev"] == plan.corpus_of["sw-train"] != plan.corpus_of["yo-dev"]
    assert len(plan.corpora) == 2
    assert plan.corpora[plan.corpus_of["sw-dev"]].datasets == ("sw-dev", "sw-train")


def test_two_local_datasets_on_one_folder_share_their_corpus(tmp_path):
    folder = tmp_path / "c"
    (folder / "qrels").mkdir(parents=True)
    for name in ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv", "qrels/dev.tsv"):
        (folder / name).write_text("")
    plan = plan_of(
        {
            "test": {"source": "local", "path": str(folder)},
            "dev": {"source": "local", "path": str(folder), "split": "dev"},
        }
    )
    assert len(plan.corpora) == 1 and plan.corpus_of["test"] == plan.corpus_of["dev"]
    name = plan.corpus_of["test"]
    jobs = pipeline_jobs(plan, {name: 3}, {})
    shards = [job for job in jobs if job.rule == "encode_corpus_shard"]
    assert len(shards) == 3 and {job.dataset for job in shards} == {"test,dev"}
    # per dataset from the queries on: the query encodings, runs and metrics
    assert Counter(job.rule for job in jobs)["encode_queries"] == 2


def test_datasets_that_give_one_corpus_two_languages_are_refused(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    with pytest.raises(ConfigError, match=r"read the same documents .* \(a: en, b: fr\)"):
        plan_of(
            {
                "a": {"source": "local", "path": str(folder)},
                "b": {"source": "local", "path": str(folder), "language": "fr"},
            }
        )


def test_a_subsample_is_its_own_corpus_drawn_from_the_full_one():
    plan = plan_of(
        {
            "full": {"source": "miracl", "language": "sw"},
            "small": {"source": "miracl", "language": "sw", "subsample": {"documents": 100}},
        }
    )
    small = plan.corpora[plan.corpus_of["small"]]
    assert small.sample_of == plan.corpus_of["full"] != small.name
    assert small.datasets == ("small",) and len(plan.corpora) == 2


def test_benchmark_files_are_those_the_rules_write():
    """The cost report reads the jobs' benchmark files from the plan's job list: each
    path is the one the rule's `benchmark:` directive names (workflow/layout.py)."""
    plan = plan_of({"mini": {"source": "builtin", "name": "minibeir"}})
    jobs = pipeline_jobs(plan, {plan.corpus_of["mini"]: 2}, {})
    corpus = plan.corpus_of["mini"]
    encoder, _ = plan.encoders("bm25", "mini")
    assert {job.benchmark for job in jobs} >= {
        f"results/benchmarks/prepare_corpus/{corpus}.tsv",
        f"results/benchmarks/encode_corpus_shard/{encoder}/{corpus}/1.tsv",
        f"results/benchmarks/term_weights/bm25/{corpus}.tsv",
        f"results/benchmarks/term_weights/bm25-classic/{corpus}.tsv",
        "results/benchmarks/retrieve/bm25/mini.tsv",
    }


def test_k_is_the_plans():
    """Every rule reads the number of documents retrieved per query from the plan, never
    from the config (a fusion's `k` is RRF's constant, not this k)."""
    plan = Plan(
        validate_config(
            {
                "datasets": {"mini": {"source": "builtin", "name": "minibeir"}},
                "models": {**BM25, "rrf": {"kind": "fusion", "runs": list(BM25), "k": 10}},
                "retrieval": {"k": 7},
            }
        )
    )
    assert plan.k == 7 and plan.retrieval_settings("mini")["k"] == 7
    rules = [*(REPO / "workflow" / "rules").glob("*.smk"), REPO / "Snakefile"]
    assert not [p.name for p in rules if re.search(r"""\[["']k["']\]""", p.read_text())]


def test_no_job_builds_the_plan():
    """The rule files build the plan once; a job gets what it needs from its rule (what
    only changes speed as a param derived from its threads, never a rerun trigger)."""
    scripts = sorted((REPO / "scripts").glob("*.py"))
    assert scripts
    assert not [p.name for p in scripts if re.search(r"workflow\.plan|\bPlan\(", p.read_text())]


def test_a_fusion_reaches_its_job_as_the_plans_fusion_field_by_field():
    """The fuse rule hands its job the fields of the plan's Fusion (a param Snakemake
    compares: changing any of them reruns the fusion), which make the same Fusion again."""
    plan = Plan(
        validate_config(
            {
                "datasets": {"mini": {"source": "builtin", "name": "minibeir"}},
                "models": {
                    **BM25,
                    "mix": {"kind": "fusion", "runs": list(BM25), "method": "wsum",
                            "weights": {"bm25": 0.3}, "depth": 20},
                },
            }
        )
    )  # fmt: skip
    fusion = plan.fusion("mix")
    assert fusion == Fusion(("bm25", "bm25-classic"), "wsum", "min-max", 60.0, {"bm25": 0.3}, 20)
    fields = asdict(fusion)
    assert Fusion(**fields) == fusion and "Fusion" not in repr(fields)
