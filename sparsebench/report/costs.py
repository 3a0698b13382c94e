"""Where the time and memory go: every job's Snakemake benchmark file (wall time, CPU
time, peak resident memory) in one table, named by rule, dataset and model.

Document encodings are shared by the models that encode documents alike, so the jobs
of an encoding (its shards and their stacking) name every model they serve.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sparsebench.errors import DataError
from sparsebench.fileio import atomic_path
from sparsebench.partitions.stages import partition_shards
from sparsebench.workflow import params as sbparams

# rule -> the wildcards in results/benchmarks/{rule}/{...}.tsv, in path order; rules
# without wildcards write results/benchmarks/{rule}.tsv. Pipeline order.
LAYOUT: dict[str, tuple[str, ...]] = {
    "download_beir": ("name",),
    "prepare": ("dataset",),
    "encode_corpus_shard": ("encoder", "dataset", "shard"),
    "stack_shards": ("encoder", "dataset"),
    "vocabulary": ("encoder", "dataset"),
    "term_weights": ("model", "dataset"),
    "partition_statistics": ("model", "dataset", "partition"),
    "global_statistics": ("model", "dataset"),
    "partition_postings": ("model", "dataset", "partition"),
    "encode_queries": ("encoder", "dataset", "query_encoder", "queryset"),
    "retrieve": ("model", "dataset"),
    "retrieve_tuning": ("model", "dataset"),
    "retrieve_partition": ("model", "dataset", "partition", "queryset"),
    "merge_runs": ("model", "dataset"),
    "merge_runs_tuning": ("model", "dataset"),
    "import_run": ("model", "dataset"),
    "evaluate": ("model", "dataset"),
    "evaluate_tuning": ("model", "dataset"),
    "tune": ("model", "dataset"),
    "significance": (),
    "leaderboard": (),
}
COLUMNS = [
    "rule",
    "dataset",
    "model",
    "encoder",
    "shard",
    "models",
    "wall_s",
    "cpu_s",
    "peak_rss_mib",
    "benchmark",
]
BENCHMARKS = "results/benchmarks"


def benchmark_path(rule: str, **wildcards: Any) -> str:
    """Where a job of `rule` writes its benchmark (as the rule's benchmark: says)."""
    parts = [str(wildcards[name]) for name in LAYOUT[rule]]
    return f"{BENCHMARKS}/{'/'.join([rule, *parts])}.tsv"


def _run_models(config: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(model, dataset, reported model) of every model that runs on a dataset: the
    reported pairs, and the variants of each tuned model on its datasets."""
    found = []
    for model, dataset in sbparams.covered_pairs(config):
        entry = config["models"][model]
        if entry["kind"] == "tuned":
            found += [(v, dataset, model) for v in entry["sweep"]["variants"]]
        found.append((model, dataset, model))
    return found


def _encodings(
    config: Mapping[str, Any], side: str = "documents"
) -> dict[tuple[str, str], list[str]]:
    """(encoder, dataset) -> the reported models that use that document (or query)
    encoding there (a sweep by its tuned model)."""
    users: dict[tuple[str, str], list[str]] = {}
    for model, dataset, reported in _run_models(config):
        entry = config["models"][model]
        if entry["kind"] in ("run", "tuned"):
            continue
        language = sbparams.dataset_language(config, dataset)
        served = users.setdefault((sbparams.encoder_id(entry, language, side), dataset), [])
        if reported not in served:
            served.append(reported)
    return users


def _model_jobs(entry: Mapping[str, Any], sweep_on_split: bool) -> tuple[str, ...]:
    if entry["kind"] == "run":
        return ("import_run", "evaluate")
    if entry["kind"] == "tuned":
        return ("tune", "evaluate")
    if "variant_of" in entry and sweep_on_split:
        return ("term_weights", "retrieve", "retrieve_tuning", "evaluate_tuning")
    return ("term_weights", "retrieve", "evaluate")


# With retrieval.partitions > 1, a single-job rule becomes these rules: (rule, per
# partition, the query set of retrieve_partition).
PARTITIONED_JOBS: dict[str, tuple[tuple[str, bool, str | None], ...]] = {
    "term_weights": (
        ("partition_statistics", True, None),
        ("global_statistics", False, None),
        ("partition_postings", True, None),
    ),
    "retrieve": (("retrieve_partition", True, "evaluation"), ("merge_runs", False, None)),
    "retrieve_tuning": (
        ("retrieve_partition", True, "tuning"),
        ("merge_runs_tuning", False, None),
    ),
}


def _benchmarks_of(rule: str, model: str, dataset: str, partitions: int) -> list[str]:
    """The benchmark files of one model job, split by partition when there are several."""
    if partitions == 1 or rule not in PARTITIONED_JOBS:
        return [benchmark_path(rule, model=model, dataset=dataset)]
    files = []
    for name, per_partition, queryset in PARTITIONED_JOBS[rule]:
        extra = {"queryset": queryset} if queryset else {}
        files += [
            benchmark_path(name, model=model, dataset=dataset, partition=p, **extra)
            for p in (range(partitions) if per_partition else [None])
        ]
    return files


def pipeline_benchmarks(
    config: Mapping[str, Any], shards: Mapping[str, int], infos: Mapping[str, Mapping[str, Any]]
) -> list[str]:
    """Benchmark files of every job of the pipeline, download to leaderboard, in order
    (shards: the number of corpus shards of each dataset; infos: its dataset.json, which
    says whether sweeps are chosen on a training split)."""
    from sparsebench.tune.sweeps import uses_training_split

    datasets = config["datasets"]
    # an archive the user put in place had no download job: asking for that job's
    # benchmark would schedule it, and Snakemake would delete the archive first
    downloads = [
        benchmark_path("download_beir", name=name)
        for name in dict.fromkeys(e["name"] for e in datasets.values() if e["source"] == "beir")
    ]
    files = [path for path in downloads if Path(path).exists()]
    files += [benchmark_path("prepare", dataset=d) for d in datasets]
    for encoder, dataset in _encodings(config):
        files += [
            benchmark_path("encode_corpus_shard", encoder=encoder, dataset=dataset, shard=s)
            for s in range(shards[dataset])
        ]
        stack = "stack_shards" if config["retrieval"]["partitions"] == 1 else "vocabulary"
        files.append(benchmark_path(stack, encoder=encoder, dataset=dataset))
    jobs: dict[str, list[str]] = {rule: [] for rule in LAYOUT}
    for model, dataset, reported in _run_models(config):
        entry = config["models"][model]
        owner = config["models"][reported]
        on_split = owner["kind"] == "tuned" and uses_training_split(owner["sweep"], infos[dataset])
        count = len(partition_shards(shards[dataset], config["retrieval"]["partitions"]))
        for rule in _model_jobs(entry, on_split):
            for path in _benchmarks_of(rule, model, dataset, count):
                jobs[parse_benchmark_path(path)[0]].append(path)
        if entry["kind"] in ("run", "tuned"):
            continue
        language = sbparams.dataset_language(config, dataset)
        for queryset in ("evaluation", "tuning") if on_split else ("evaluation",):
            query_job = benchmark_path(
                "encode_queries",
                encoder=sbparams.encoder_id(entry, language),
                dataset=dataset,
                query_encoder=sbparams.encoder_id(entry, language, "queries"),
                queryset=queryset,
            )
            if query_job not in jobs["encode_queries"]:
                jobs["encode_queries"].append(query_job)
    files += [path for rule in LAYOUT for path in jobs[rule]]
    return files + [benchmark_path("significance"), benchmark_path("leaderboard")]


def parse_benchmark_path(path: str | Path) -> tuple[str, dict[str, str]]:
    """(rule, wildcards) of a benchmark file path."""
    parts = Path(path).with_suffix("").parts
    if "benchmarks" not in parts:
        raise DataError(f"{path} is not under a benchmarks/ folder")
    tail = parts[len(parts) - parts[::-1].index("benchmarks") :]
    rule, values = tail[0], tail[1:]
    if rule not in LAYOUT or len(values) != len(LAYOUT[rule]):
        raise DataError(
            f"{path}: not the benchmark of a pipeline job (known: "
            + ", ".join(benchmark_path(r, **{w: "{" + w + "}" for w in LAYOUT[r]}) for r in LAYOUT)
            + ")"
        )
    return rule, dict(zip(LAYOUT[rule], values, strict=True))


def read_benchmark(path: str | Path) -> dict[str, float]:
    """Wall time and CPU time (s, mean over the rule's repeats) and peak resident memory
    (MiB, the largest) of one Snakemake benchmark file; 'NA' (too short to measure) is NaN."""
    table = pd.read_csv(path, sep="\t", na_values=["NA", "-"])
    missing = [c for c in ("s", "max_rss") if c not in table.columns]
    if missing or table.empty:
        raise DataError(
            f"{path} is not a Snakemake benchmark file: "
            + (f"no {', '.join(missing)} column" if missing else "no measurement")
        )
    cpu = table["cpu_time"] if "cpu_time" in table.columns else pd.Series([np.nan])
    return {
        "wall_s": float(table["s"].mean()),
        "cpu_s": float(cpu.mean()),
        "peak_rss_mib": float(table["max_rss"].max()),
    }


def cost_table(files: Sequence[str | Path], config: Mapping[str, Any]) -> pd.DataFrame:
    """One row per job (COLUMNS): its rule, dataset, model or encoding, the models it
    serves (blank: every model) and its measurements."""
    users, query_users = _encodings(config), _encodings(config, "queries")
    rows = []
    for path in files:
        rule, wildcards = parse_benchmark_path(path)
        dataset = wildcards.get("dataset", "")
        if rule == "download_beir":  # one archive can feed several datasets (cqadupstack)
            dataset = ",".join(
                d
                for d, e in config["datasets"].items()
                if e["source"] == "beir" and e["name"] == wildcards["name"]
            )
        model, encoder = wildcards.get("model", ""), wildcards.get("encoder", "")
        if model:  # a sweep's variants are counted under their tuned model
            served = config["models"].get(model, {}).get("variant_of", model)
        elif "query_encoder" in wildcards:
            served = ",".join(query_users.get((wildcards["query_encoder"], dataset), []))
        else:
            served = ",".join(users.get((encoder, dataset), []))
        rows.append(
            {
                "rule": rule,
                "dataset": dataset,
                "model": model,
                "encoder": encoder,
                "shard": wildcards.get("shard", wildcards.get("partition", "")),
                "models": served,
                **read_benchmark(path),
                "benchmark": str(path),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def write_cost_table(table: pd.DataFrame, path: str | Path) -> None:
    with atomic_path(path) as tmp:
        table.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.6g")


def read_cost_table(path: str | Path) -> pd.DataFrame:
    """A costs.tsv as written by write_cost_table."""
    text = ["rule", "dataset", "model", "encoder", "shard", "models", "benchmark"]
    table = pd.read_csv(path, sep="\t", dtype={c: str for c in text}, keep_default_na=False)
    missing = sorted(set(COLUMNS) - set(table.columns))
    if missing:
        raise DataError(f"{path} is not a cost table: no {', '.join(missing)} column")
    numbers = ["wall_s", "cpu_s", "peak_rss_mib"]
    table[numbers] = table[numbers].apply(pd.to_numeric, errors="coerce")
    return table


def _grouped(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Rows summed over jobs (time) and maximised (memory), in pipeline order."""
    order = {rule: i for i, rule in enumerate(LAYOUT)}
    ranked = table.assign(_stage=table["rule"].map(order)).sort_values("_stage", kind="stable")
    return (
        ranked.groupby(keys, sort=False)
        .agg(
            wall_s=("wall_s", lambda s: s.sum(min_count=1)),
            peak_rss_mib=("peak_rss_mib", "max"),
            jobs=("rule", "size"),
        )
        .reset_index()
    )


def dataset_costs(table: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """The jobs of one dataset by rule and model (an encoding's shards together): label,
    wall_s (summed over the jobs), peak_rss_mib (the largest), jobs."""
    mine = table[table["dataset"].str.split(",").map(lambda ds: dataset in ds)]
    rows = _grouped(mine, ["rule", "models"])
    served = rows["models"].str.replace(",", ", ")
    rows["label"] = rows["rule"].where(served == "", rows["rule"] + ": " + served)
    rows["label"] += [f" ({n} jobs)" if n > 1 else "" for n in rows["jobs"]]
    return rows[["label", "wall_s", "peak_rss_mib", "jobs"]]


def rule_costs(table: pd.DataFrame) -> pd.DataFrame:
    """Every rule over all its jobs: label, wall_s (summed), peak_rss_mib (largest), jobs."""
    rows = _grouped(table, ["rule"])
    rows["label"] = [
        f"{r} ({n} job{'s' if n > 1 else ''})"
        for r, n in zip(rows["rule"], rows["jobs"], strict=True)
    ]
    return rows[["label", "wall_s", "peak_rss_mib", "jobs"]]
