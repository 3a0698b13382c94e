"""Significance tables: every model against the baseline (or all pairs), per dataset and
metric, with a family-wise correction over the comparisons of each table."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sparsebench.core.errors import DataError
from sparsebench.evaluate.measures import aggregate, from_mean
from sparsebench.evaluate.significance import (
    TESTS,
    adjust_p_values,
    align,
    comparison_seed,
    mean_interval,
    paired_tests,
)

COLUMNS = [
    "dataset",
    "metric",
    "model",
    "baseline",
    "test",
    "statistic",
    "p",
    "p_adjusted",
    "significant",
    "delta",
    "ci_low",
    "ci_high",
    "wins",
    "ties",
    "losses",
    "n_queries",
]
INTERVAL_COLUMNS = ["dataset", "metric", "model", "mean", "ci_low", "ci_high", "n_queries"]
BETTER, WORSE = "▲", "▼"


@dataclass(frozen=True)
class SignificanceSettings:
    """What the report depends on (the `significance` section of config.yaml)."""

    baseline: str = "bm25"
    all_pairs: bool = False
    metrics: tuple[str, ...] = ("nDCG@10",)
    tests: tuple[str, ...] = TESTS
    primary_test: str = "t-test"
    alpha: float = 0.05
    correction: str = "holm"
    resamples: int = 10_000
    seed: int = 42
    notes: dict = field(default_factory=dict)


def read_per_query(path: str | Path, metrics: Sequence[str]) -> pd.DataFrame:
    """A per_query.tsv (query_id, metric, value) as a wide frame of the chosen metrics."""
    long = pd.read_csv(
        path, sep="\t", dtype={"query_id": str, "metric": str}, keep_default_na=False
    )
    missing = sorted(set(metrics) - set(long["metric"]))
    if missing:
        raise DataError(f"{path} has no values for {', '.join(missing)}")
    chosen = long[long["metric"].isin(list(metrics))]
    return chosen.pivot(index="query_id", columns="metric", values="value").astype(np.float64)


def read_significance(path: str | Path) -> pd.DataFrame:
    """A significance.tsv as written (COLUMNS), `significant` as booleans."""
    table = pd.read_csv(
        path,
        sep="\t",
        keep_default_na=False,
        dtype={"dataset": str, "model": str, "baseline": str},
    )
    missing = sorted(set(COLUMNS) - set(table.columns))
    if missing:
        raise DataError(f"{path} is not a significance table: no {', '.join(missing)} column")
    table["significant"] = table["significant"].astype(str).str.lower() == "true"
    return table


def pairs_to_compare(
    models: Sequence[str], settings: SignificanceSettings
) -> list[tuple[str, str]]:
    """(model, baseline) pairs: each model against the baseline, or every pair."""
    if settings.all_pairs:  # each later model against each earlier one
        return [(later, earlier) for earlier, later in itertools.combinations(models, 2)]
    if settings.baseline not in models:
        raise DataError(
            f"the baseline {settings.baseline!r} is not one of the models: {list(models)}"
        )
    return [(m, settings.baseline) for m in models if m != settings.baseline]


def significance_table(
    values: Mapping[tuple[str, str], pd.DataFrame],
    models: Sequence[str],
    datasets: Sequence[str],
    settings: SignificanceSettings,
) -> pd.DataFrame:
    """Long table (COLUMNS) of every test of every pair on every dataset and metric.

    values: (model, dataset) -> wide per-query frame (queries x metrics).
    """
    rows = []
    for dataset, metric in itertools.product(datasets, settings.metrics):
        family = []
        for model, baseline in pairs_to_compare(models, settings):
            if (model, dataset) not in values or (baseline, dataset) not in values:
                continue  # an external run that does not cover this dataset
            what = f"{model} vs {baseline} on {dataset} ({metric})"
            a, b = align(
                values[(model, dataset)][metric], values[(baseline, dataset)][metric], what
            )
            seed = comparison_seed(settings.seed, dataset, metric, model, baseline)
            for result in paired_tests(a, b, settings.tests, settings.resamples, seed):
                family.append(
                    {
                        "dataset": dataset,
                        "metric": metric,
                        "model": model,
                        "baseline": baseline,
                        **result.as_row(),
                    }
                )
        for test in settings.tests:
            members = [r for r in family if r["test"] == test]
            adjusted = adjust_p_values([r["p"] for r in members], settings.correction)
            for row, p_adjusted in zip(members, adjusted, strict=True):
                row["p_adjusted"] = float(p_adjusted)
                row["significant"] = bool(p_adjusted < settings.alpha)
        rows += family
    return pd.DataFrame(rows, columns=COLUMNS)


def score_intervals(
    values: Mapping[tuple[str, str], pd.DataFrame],
    models: Sequence[str],
    datasets: Sequence[str],
    settings: SignificanceSettings,
) -> pd.DataFrame:
    """Long table (INTERVAL_COLUMNS) of each model's score on each dataset and metric with
    its 95% bootstrap interval, the error bars of the report. Each cell has its own seed
    (from the configured seed and its names), so adding a model moves no other interval."""
    rows = []
    for dataset, metric, model in itertools.product(datasets, settings.metrics, models):
        if (model, dataset) not in values:
            continue  # an external run that does not cover this dataset
        scores = values[(model, dataset)][metric].to_numpy()
        seed = comparison_seed(settings.seed, "mean", dataset, metric, model)
        low, high = mean_interval(scores, settings.resamples, np.random.default_rng(seed))
        rows.append(
            {
                "dataset": dataset,
                "metric": metric,
                "model": model,
                "mean": aggregate(metric, scores),
                "ci_low": from_mean(metric, low),
                "ci_high": from_mean(metric, high),
                "n_queries": len(scores),
            }
        )
    return pd.DataFrame(rows, columns=INTERVAL_COLUMNS)


def markers(table: pd.DataFrame, metric: str, test: str) -> dict[tuple[str, str], str]:
    """(model, dataset) -> ▲ / ▼ where the model differs significantly from the baseline."""
    chosen = table[(table["metric"] == metric) & (table["test"] == test) & table["significant"]]
    return {
        (r.model, r.dataset): BETTER if r.delta > 0 else WORSE
        for r in chosen.itertuples(index=False)
    }


def summary(
    values: Mapping[tuple[str, str], pd.DataFrame],
    table: pd.DataFrame,
    models: Sequence[str],
    datasets: Sequence[str],
    metric: str,
    test: str,
) -> pd.DataFrame:
    """Per model: macro average of the metric over datasets, and on how many datasets it is
    significantly better / worse than the baseline."""
    marks = markers(table, metric, test)
    rows = []
    for model in models:
        scores = [
            aggregate(metric, values[(model, d)][metric].to_numpy())
            if (model, d) in values
            else float("nan")
            for d in datasets
        ]
        rows.append(
            {
                "model": model,
                "macro_average": float(np.mean(scores)),
                "significantly_better": int(sum(marks.get((model, d)) == BETTER for d in datasets)),
                "significantly_worse": int(sum(marks.get((model, d)) == WORSE for d in datasets)),
            }
        )
    return pd.DataFrame(rows).set_index("model")


def _format_p(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def markdown_report(
    values: Mapping[tuple[str, str], pd.DataFrame],
    table: pd.DataFrame,
    models: Sequence[str],
    datasets: Sequence[str],
    settings: SignificanceSettings,
    provenance: Sequence[str],
    partial: Mapping[tuple[str, str], str] | None = None,
) -> str:
    """significance.md: one table per dataset and metric, then the summary. `partial`:
    (model, dataset) -> a note on a run that misses evaluated queries, shown beside the
    model (or baseline) in that dataset's tables and listed at the top."""
    partial = partial or {}
    lines = [
        "# Significance report",
        "",
        f"Paired, two-sided tests on per-query values; alpha = {settings.alpha}; "
        f"{settings.correction} correction over the comparisons of each table "
        f"(one family per dataset, metric and test); {settings.resamples:,} resamples "
        f"(seed {settings.seed}) for the bootstrap test, the randomization test and the 95% "
        f"confidence interval of the mean difference. p-values shown are adjusted. "
        f"{BETTER} / {WORSE}: significantly better / worse than the baseline by the "
        f"{settings.primary_test}.",
        "",
        *[line for note in partial.values() for line in (note, "")],
    ]

    def named(model: str, dataset: str) -> str:
        return model + (" (PARTIAL run)" if (model, dataset) in partial else "")

    for dataset, metric in itertools.product(datasets, settings.metrics):
        part = table[(table["dataset"] == dataset) & (table["metric"] == metric)]
        lines += [f"## {dataset}: {metric}", ""]
        if part.empty:
            lines += ["No comparisons (one model only).", ""]
            continue
        header = [
            "model",
            "baseline",
            metric,
            "baseline " + metric,
            "delta [95% CI]",
            "wins/ties/losses",
            *[f"p {t}" for t in settings.tests],
        ]
        lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for (model, baseline), group in part.groupby(["model", "baseline"], sort=False):
            first = group.iloc[0]
            by_test = group.set_index("test")
            mark = ""
            if (
                settings.primary_test in by_test.index
                and by_test.loc[settings.primary_test, "significant"]
            ):
                mark = " " + (BETTER if first.delta > 0 else WORSE)
            mean = aggregate(metric, values[(model, dataset)][metric].to_numpy())
            base = aggregate(metric, values[(baseline, dataset)][metric].to_numpy())
            cells = [
                named(model, dataset),
                named(baseline, dataset),
                f"{mean:.4f}{mark}",
                f"{base:.4f}",
                f"{first.delta:+.4f} [{first.ci_low:+.4f}, {first.ci_high:+.4f}]",
                f"{first.wins}/{first.ties}/{first.losses}",
                *[
                    _format_p(by_test.loc[t, "p_adjusted"])
                    + ("*" if by_test.loc[t, "significant"] else "")
                    for t in settings.tests
                ],
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines += [
            "",
            f"n = {int(part['n_queries'].iloc[0])} queries; * = significant at "
            f"alpha {settings.alpha} after correction.",
            "",
        ]
    if not settings.all_pairs and settings.baseline in models:
        for metric in settings.metrics:
            totals = summary(values, table, models, datasets, metric, settings.primary_test)
            lines += [
                f"## Summary across datasets: {metric}",
                "",
                "| model | macro average | datasets significantly better | worse |",
                "|---|---:|---:|---:|",
            ]
            for model, row in totals.iterrows():
                lines.append(
                    f"| {model} | {row.macro_average:.4f} | "
                    f"{int(row.significantly_better)} | {int(row.significantly_worse)} |"
                )
            lines.append("")
    lines += ["## Provenance", "", *[f"- {line}" for line in provenance], ""]
    return "\n".join(lines)
