"""Efficiency beside effectiveness: results/efficiency.tsv, one row per evaluated (model x
dataset) from the cost records its jobs wrote (sparsebench.retrieve.costs for the search,
the encoding shards' for the documents), and the cost columns of the leaderboard.

A tuned model's row is the variant chosen for the most evaluated queries (the one a
training split chose, or the one cross-validation chose for the most held-out queries;
ties by name), named in `measured_on`. Fused runs and runs made elsewhere have no search
of their own here: they have no row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path, read_json
from sparsebench.evaluate.columns import COST_COLUMNS
from sparsebench.retrieve.costs import read_cost, summary

# The columns of efficiency.tsv (a header even when no pair was searched here): the pair,
# the variant measured, what retrieve.costs.summary gives of its search (kept here, not
# there, so that naming a column reruns the leaderboard and not every retrieval) and what
# encoding_summary gives of its encoding.
SUMMARY_COLUMNS = (
    *("documents", "postings", "index_mb", "doc_nonzeros_mean", "doc_nonzeros_median"),
    *("queries", "query_nonzeros_mean", "query_nonzeros_median", "flops"),
    *("postings_touched_mean", "postings_touched_p50", "postings_touched_p99"),
    *("queries_per_second", "latency_mean_ms", "latency_p50_ms", "latency_p99_ms"),
    *("latency_queries", "startup_seconds", "load_seconds", "retrieval_seconds"),
    *("write_seconds", "threads", "query_batch_size", "backend", "device", "cpu"),
    "partitions",
)
ENCODING_COLUMNS = ("encoding_docs_per_second", "encoding_device", "encoding_threads")
COLUMNS = ("model", "dataset", "measured_on", *SUMMARY_COLUMNS, *ENCODING_COLUMNS)


def chosen_variant(selection: Mapping[str, Any]) -> str:
    """The variant a tuned run holds for the most evaluated queries (ties by name)."""
    weights: dict[str, int] = {}
    for choice in selection.get("choices") or []:
        held_out = choice.get("held_out_queries")
        weights[choice["variant"]] = weights.get(choice["variant"], 0) + (
            len(held_out) if held_out is not None else 1
        )
    if not weights:
        raise DataError(f"the selection of {selection.get('model')!r} names no variant")
    return min(weights, key=lambda v: (-weights[v], v))


def encoding_summary(paths: Sequence[str | Path]) -> dict[str, Any]:
    """Documents per second over a corpus's encoding shards (their documents over their
    encoding seconds, the model's loading apart), and the device and threads."""
    records = [read_json(p) for p in paths]
    documents = sum(r["documents"] for r in records)
    seconds = sum(r["seconds"] for r in records)
    return {
        "encoding_docs_per_second": documents / seconds if seconds else float("nan"),
        "encoding_device": ",".join(sorted({str(r["device"]) for r in records})),
        "encoding_threads": max((int(r["threads"]) for r in records), default=0),
    }


def efficiency_table(
    sources: Mapping[str, Mapping[str, Any]], selections: Sequence[str | Path] = ()
) -> pd.DataFrame:
    """One row per pair of `sources` ("model/dataset" -> {"searched": {model or variant:
    cost record}, "encoded": {model or variant: [shard cost records]}})."""
    chosen = {}
    for path in selections:
        selection = read_json(path)
        chosen[f"{selection['model']}/{selection['dataset']}"] = chosen_variant(selection)
    rows = []
    for pair, files in sources.items():
        model, dataset = pair.split("/", 1)
        measured = chosen.get(pair, model)
        if measured not in files["searched"]:
            raise DataError(f"{pair}: no cost record of {measured!r} (the run it holds)")
        rows.append(
            {
                "model": model,
                "dataset": dataset,
                "measured_on": measured,
                **summary(read_cost(files["searched"][measured])),
                **encoding_summary(files["encoded"][measured]),
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def write_efficiency(table: pd.DataFrame, path: str | Path) -> None:
    with atomic_path(path) as tmp:
        table.to_csv(tmp, sep="\t", index=False, float_format="%.6g", lineterminator="\n")


def leaderboard_columns(
    efficiency: pd.DataFrame,
    models: Sequence[str],
    datasets: Sequence[str],
    groups: Mapping[str, str] | None = None,
) -> dict[str, list[float]]:
    """The cost columns of leaderboard.tsv (columns.COST_COLUMNS), per column of its
    table: a dataset, or a group's mean over its datasets."""
    groups = groups or {}
    columns: dict[str, list[str]] = {}
    for dataset in datasets:
        columns.setdefault(groups.get(dataset, dataset), []).append(dataset)
    indexed = efficiency.set_index(["model", "dataset"]) if len(efficiency) else None
    out = {}  # a cost's columns together, as leaderboard.tsv groups each kind of column
    for prefix, field in COST_COLUMNS.items():
        for column, members in columns.items():
            values = []
            for model in models:
                found = [
                    float(indexed.loc[(model, d), field])
                    for d in members
                    if indexed is not None and (model, d) in indexed.index
                ]
                values.append(float(np.mean(found)) if len(found) == len(members) else np.nan)
            out[f"{prefix}{column}"] = values
    return out


# leaderboard.md's efficiency table: (header, efficiency.tsv column, format)
_MARKDOWN = (
    ("FLOPS", "flops", "{:.4g}"),
    ("postings/query", "postings_touched_mean", "{:,.0f}"),
    ("p99 postings", "postings_touched_p99", "{:,.0f}"),
    ("nnz/query", "query_nonzeros_mean", "{:.1f}"),
    ("nnz/doc", "doc_nonzeros_mean", "{:.1f}"),
    ("index MB", "index_mb", "{:.1f}"),
    ("queries/s", "queries_per_second", "{:,.0f}"),
    ("p50 ms", "latency_p50_ms", "{:.2f}"),
    ("p99 ms", "latency_p99_ms", "{:.2f}"),
    ("encoding docs/s", "encoding_docs_per_second", "{:,.0f}"),
)


def markdown(efficiency: pd.DataFrame) -> str:
    """The efficiency table under the leaderboard, with where it was measured."""
    if efficiency.empty:
        return ""
    lines = [
        "## Efficiency",
        "",
        "FLOPS: the mean multiplications of a query-document dot product (the postings a "
        "query's terms hold, over the corpus size). Queries/s: the batched search by the "
        "retrieval stage's own clock (loading and writing apart); p50/p99 ms: queries "
        "searched one at a time. All of results/efficiency.tsv.",
        "",
        "| model | dataset | " + " | ".join(h for h, _, _ in _MARKDOWN) + " |",
        "|---|---|" + "---:|" * len(_MARKDOWN),
    ]
    for _, row in efficiency.iterrows():
        label = row["model"] + (
            "" if row["measured_on"] == row["model"] else f" ({row['measured_on']})"
        )
        cells = ["" if pd.isna(row[c]) else f.format(row[c]) for _, c, f in _MARKDOWN]
        lines.append(f"| {label} | {row['dataset']} | " + " | ".join(cells) + " |")
    setups = efficiency[
        ["cpu", "threads", "backend", "device", "encoding_device"]
    ].drop_duplicates()
    lines.append("")
    for _, s in setups.iterrows():
        lines.append(
            f"Measured on {s['cpu']}: search with {s['threads']} thread(s), backend "
            f"{s['backend']} on {s['device']}; encoding on {s['encoding_device']}."
        )
    return "\n".join(lines)
