"""Hold the leaderboard against published figures, as Pyserini's two-click reproductions do.

Each (model x dataset) cell present in both is OK (within `ok`, default 0.0005), OKISH
(within `okish`, default 0.005) or FAIL.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import pandas as pd

from sparsebench.errors import DataError

BUILTIN = ("beir-ndcg10",)
STATUS_ORDER = ("OK", "OKISH", "FAIL")


def load_expected(source: str) -> tuple[pd.DataFrame, str]:
    """A table of published figures (rows: datasets, columns: systems) and its metric.

    `source` is a built-in table name or a path; '# metric: NAME' in a comment line names
    the metric (default nDCG@10).
    """
    if source in BUILTIN:
        text = (
            resources.files("sparsebench").joinpath(f"resources/reference/{source}.tsv").read_text()
        )
    else:
        path = Path(source)
        if not path.is_file():
            raise DataError(
                f"no table of expected figures at {source} (built-in: {', '.join(BUILTIN)})"
            )
        text = path.read_text(encoding="utf-8")
    metric = "nDCG@10"
    for line in text.splitlines():
        if line.startswith("# metric:"):
            metric = line.split(":", 1)[1].strip()
    table = pd.read_csv(io.StringIO(text), sep="\t", comment="#", index_col=0, dtype={0: str})
    return table, metric


def check(
    leaderboard: pd.DataFrame,
    expected: pd.DataFrame,
    models: Mapping[str, str],
    datasets: Mapping[str, str],
    ok: float = 0.0005,
    okish: float = 0.005,
) -> pd.DataFrame:
    """One row per (model, dataset) cell found in both tables, with its status.

    leaderboard: rows models, columns datasets; models: model -> expected column;
    datasets: dataset -> expected row.
    """
    rows = []
    for model, system in models.items():
        if model not in leaderboard.index:
            raise DataError(f"model {model!r} is not on the leaderboard")
        if system not in expected.columns:
            raise DataError(
                f"the expected figures have no system {system!r} "
                f"(they have: {', '.join(expected.columns)})"
            )
        for dataset, row_name in datasets.items():
            if dataset not in leaderboard.columns or row_name not in expected.index:
                continue
            ours, theirs = leaderboard.loc[model, dataset], expected.loc[row_name, system]
            if pd.isna(ours) or pd.isna(theirs):
                continue
            difference = float(ours) - float(theirs)
            status = (
                "OK"
                if abs(difference) <= ok + 1e-12
                else ("OKISH" if abs(difference) <= okish + 1e-12 else "FAIL")
            )
            rows.append(
                {
                    "model": model,
                    "dataset": dataset,
                    "expected_system": system,
                    "expected_dataset": row_name,
                    "expected": float(theirs),
                    "measured": float(ours),
                    "difference": difference,
                    "status": status,
                }
            )
    return pd.DataFrame(
        rows,
        columns=[
            "model",
            "dataset",
            "expected_system",
            "expected_dataset",
            "expected",
            "measured",
            "difference",
            "status",
        ],
    )


def markdown(result: pd.DataFrame, metric: str, ok: float, okish: float) -> str:
    lines = [f"## Reproduction check: {metric}", ""]
    if result.empty:
        return "\n".join(
            lines
            + [
                "No cell of the leaderboard has a published figure to "
                "compare with (see `reproduction` in config.yaml).",
                "",
            ]
        )
    lines += [
        f"OK: within {ok}; OKISH: within {okish}; FAIL: further.",
        "",
        "| model | dataset | published | measured | difference | status |",
        "|---|---|---:|---:|---:|---|",
    ]
    for r in result.itertuples(index=False):
        lines.append(
            f"| {r.model} | {r.dataset} | {r.expected:.4f} ({r.expected_system}) | "
            f"{r.measured:.4f} | {r.difference:+.4f} | {r.status} |"
        )
    return "\n".join(lines + [""])
