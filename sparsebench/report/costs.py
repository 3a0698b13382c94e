"""Where the time and memory go: every job's Snakemake benchmark file (wall time, CPU
time, peak resident memory) in one table, named by rule, dataset and model.

The jobs come from the plan (sparsebench.workflow.jobs.pipeline_jobs). A corpus and its
encodings are shared by the datasets that read it and the models that encode documents
alike, so their jobs name every dataset and model they serve.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path
from sparsebench.workflow.layout import RULES

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


def cost_table(jobs: Sequence[Mapping[str, str]]) -> pd.DataFrame:
    """One row per job (COLUMNS): its rule, dataset, model or encoding, the models it
    serves (blank: every model) and the measurements of its benchmark file. `jobs`: the
    plan's jobs as records (sparsebench.workflow.plan.Job.record)."""
    rows = [{**job, **read_benchmark(job["benchmark"])} for job in jobs]
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
    order = {rule: i for i, rule in enumerate(RULES)}
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
