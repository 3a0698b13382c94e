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

from sparsebench import config as sbconfig
from sparsebench.errors import DataError
from sparsebench.fileio import atomic_path

# rule -> the wildcards in results/benchmarks/{rule}/{...}.tsv, in path order; rules
# without wildcards write results/benchmarks/{rule}.tsv. Pipeline order.
LAYOUT: dict[str, tuple[str, ...]] = {
    "download_beir": ("name",),
    "prepare": ("dataset",),
    "encode_corpus_shard": ("encoder", "dataset", "shard"),
    "stack_shards": ("encoder", "dataset"),
    "term_weights": ("model", "dataset"),
    "encode_queries": ("model", "dataset"),
    "retrieve": ("model", "dataset"),
    "import_run": ("model", "dataset"),
    "evaluate": ("model", "dataset"),
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
_MODEL_RULES = ("term_weights", "encode_queries", "retrieve", "evaluate")
_RUN_RULES = ("import_run", "evaluate")  # an external run is imported, then evaluated


def benchmark_path(rule: str, **wildcards: Any) -> str:
    """Where a job of `rule` writes its benchmark (as the rule's benchmark: says)."""
    parts = [str(wildcards[name]) for name in LAYOUT[rule]]
    return f"{BENCHMARKS}/{'/'.join([rule, *parts])}.tsv"


def _encodings(config: Mapping[str, Any]) -> dict[tuple[str, str], list[str]]:
    """(encoder, dataset) -> the models that use that document encoding there."""
    users: dict[tuple[str, str], list[str]] = {}
    for model, dataset in sbconfig.covered_pairs(config):
        entry = config["models"][model]
        if entry["kind"] == "run":
            continue
        language = sbconfig.dataset_language(config, dataset)
        users.setdefault((sbconfig.encoder_id(entry, language), dataset), []).append(model)
    return users


def pipeline_benchmarks(config: Mapping[str, Any], shards: Mapping[str, int]) -> list[str]:
    """Benchmark files of every job of the pipeline, download to leaderboard, in order
    (shards: the number of corpus shards of each dataset)."""
    datasets = config["datasets"]
    files = [
        benchmark_path("download_beir", name=name)
        for name in dict.fromkeys(e["name"] for e in datasets.values() if e["source"] == "beir")
    ]
    files += [benchmark_path("prepare", dataset=d) for d in datasets]
    for encoder, dataset in _encodings(config):
        files += [
            benchmark_path("encode_corpus_shard", encoder=encoder, dataset=dataset, shard=s)
            for s in range(shards[dataset])
        ]
        files.append(benchmark_path("stack_shards", encoder=encoder, dataset=dataset))
    pairs = sbconfig.covered_pairs(config)
    for rule in ("term_weights", "encode_queries", "retrieve", "import_run", "evaluate"):
        for model, dataset in pairs:
            external = config["models"][model]["kind"] == "run"
            if rule in (_RUN_RULES if external else _MODEL_RULES):
                files.append(benchmark_path(rule, model=model, dataset=dataset))
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
    users = _encodings(config)
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
        served = model or ",".join(users.get((encoder, dataset), []))
        rows.append(
            {
                "rule": rule,
                "dataset": dataset,
                "model": model,
                "encoder": encoder,
                "shard": wildcards.get("shard", ""),
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
