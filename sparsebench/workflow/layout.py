"""Where the workflow keeps its files, and how its jobs' logs and benchmarks are named:
the path patterns the rule files declare and the plan (sparsebench.workflow.plan) fills.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

QUERYSETS = ("evaluation", "tuning")  # the evaluated queries; a training split's (sweeps)

# Every rule and the wildcards of its jobs, in pipeline order: its log and benchmark files
# are results/{logs,benchmarks}/{rule}/{wildcard values}.log/.tsv (`{rule}.tsv` without).
RULES: dict[str, tuple[str, ...]] = {
    "download_beir": ("name",),
    "prepare_corpus": ("corpus",),
    "prepare": ("dataset",),
    "encode_corpus_shard": ("encoder", "corpus", "shard"),
    "stack_shards": ("encoder", "corpus"),
    "vocabulary": ("encoder", "corpus"),
    "term_weights": ("model", "corpus"),
    "partition_statistics": ("model", "corpus", "partition"),
    "global_statistics": ("model", "corpus"),
    "partition_postings": ("model", "corpus", "partition"),
    "encode_queries": ("encoder", "corpus", "query_encoder", "dataset", "queryset"),
    "retrieve": ("model", "dataset"),
    "retrieve_tuning": ("model", "dataset"),
    "retrieve_partition": ("model", "dataset", "partition", "queryset"),
    "merge_runs": ("model", "dataset"),
    "merge_runs_tuning": ("model", "dataset"),
    "import_run": ("model", "dataset"),
    "fuse": ("model", "dataset"),
    "fuse_tuning": ("model", "dataset"),
    "evaluate": ("model", "dataset"),
    "evaluate_tuning": ("model", "dataset"),
    "tune": ("model", "dataset"),
    "significance": (),
    "leaderboard": (),
    "visual_report": (),
}


def job_file(folder: str, rule: str, suffix: str, **wildcards: Any) -> str:
    """results/{folder}/{rule}/{wildcards...}{suffix}; with no values given, the pattern
    with the wildcards themselves (what a rule's log: and benchmark: say)."""
    names = RULES[rule]
    values = [str(wildcards[n]) if n in wildcards else "{" + n + "}" for n in names]
    return f"results/{folder}/{'/'.join([rule, *values])}{suffix}"


def log_path(rule: str, **wildcards: Any) -> str:
    return job_file("logs", rule, ".log", **wildcards)


def benchmark_path(rule: str, **wildcards: Any) -> str:
    return job_file("benchmarks", rule, ".tsv", **wildcards)


# --- where the files are ------------------------------------------------------------------

DOWNLOAD = "results/downloads/beir/{name}.zip"
CORPUS = "results/corpora/{corpus}"  # corpus.parquet, corpus.json
DATA = "results/data/{dataset}"  # queries.parquet, qrels.tsv, qrels.tuning.tsv, dataset.json
ENCODED = "results/encode/{encoder}/{corpus}"  # shards/, corpus.npz, vocab.txt, doc_ids.txt
ENCODED_QUERIES = f"{ENCODED}/queries/{{query_encoder}}/{{dataset}}/{{queryset}}"
WEIGHTS = "results/models/{model}/{corpus}"  # postings.npz, idf.npy, term_stats.json
PARTITION = f"{WEIGHTS}/partitions/{{partition}}"
PARTITION_RUN = "results/partition_runs/{model}/{dataset}/{partition}/{queryset}.trec"
RUN = {
    "evaluation": "results/runs/{model}/{dataset}.trec",
    "tuning": "results/tuning/runs/{model}/{dataset}.trec",
}
# what each search cost (sparsebench.retrieve.costs)
COST = {
    "evaluation": "results/costs/{model}/{dataset}.json",
    "tuning": "results/tuning/costs/{model}/{dataset}.json",
}
PARTITION_COST = "results/partition_runs/{model}/{dataset}/{partition}/{queryset}.cost.json"
EVAL = {
    "evaluation": "results/eval/{model}/{dataset}",
    "tuning": "results/tuning/eval/{model}/{dataset}",
}
QRELS = {"evaluation": "qrels.tsv", "tuning": "qrels.tuning.tsv"}
TUNING = "results/tuning/{model}/{dataset}"  # selection.json, surface.tsv
REPORT = "results/report"
# The visual report's files by kind (rule visual_report, sparsebench.report.contents):
# each path pattern and whether it is a figure, whose pattern has no suffix (a .png with an
# .svg copy beside it).
REPORT_FILES: dict[str, tuple[str, bool]] = {
    "leaderboard_table": (f"{REPORT}/leaderboard.html", False),
    "leaderboard": (f"{REPORT}/leaderboard", True),
    "precision_recall": (f"{REPORT}/precision_recall/{{dataset}}", True),
    "query_differences": (f"{REPORT}/query_differences/{{model}}/{{dataset}}", True),
    "efficiency": (f"{REPORT}/efficiency", True),
    "costs_table": (f"{REPORT}/costs.tsv", False),
    "costs": (f"{REPORT}/costs", True),
    "dataset_costs": (f"{REPORT}/costs/{{dataset}}", True),
    "provenance": (f"{REPORT}/provenance.html", False),
    "sweep": (f"{REPORT}/sweeps/{{model}}/{{dataset}}", True),
}


def report_folder(pattern: str) -> tuple[str, str] | None:
    """The folder a kind of report file drawn per dataset or pair fills, and its files'
    pattern within it; None for a kind drawn once (a pattern without wildcards)."""
    if "{" not in pattern:
        return None
    folder, _, inside = pattern.partition("/{")
    return folder, "{" + inside


def n_shards(n_docs: int, shard_size: int) -> int:
    """Encoding jobs of a corpus of n_docs documents."""
    return max(1, math.ceil(n_docs / shard_size))


def downloaded_archive(entry: Mapping[str, Any]) -> Path | None:
    """Where the download_beir rule puts the archive a dataset entry reads (None: the
    entry reads no archive)."""
    return Path(DOWNLOAD.format(name=entry["name"])) if entry["source"] == "beir" else None


def partition_problem(corpus: str, n_docs: int, partitions: int, shard_size: int) -> str | None:
    """Why a corpus of `n_docs` documents cannot be split into `partitions` partitions
    (a partition is one encoding shard or more); None when it can."""
    shards = n_shards(n_docs, shard_size)
    if partitions <= shards:
        return None
    return (
        f"config.retrieval.partitions: {partitions} partitions, but the corpus {corpus} "
        f"({n_docs:,} documents) makes {shards} shard(s) of corpus.shard_size "
        f"{shard_size:,}, and a partition is one shard or more: use at most {shards} "
        "partitions, or a smaller shard_size"
    )


def partition_shards(n_shards: int, partitions: int) -> list[range]:
    """The encoding shards of each partition: consecutive, as even as can be, never an
    empty partition (at most one partition per shard)."""
    if partitions < 1:
        raise ValueError("partitions must be at least 1")
    count = min(partitions, n_shards)
    return [range(p * n_shards // count, (p + 1) * n_shards // count) for p in range(count)]
