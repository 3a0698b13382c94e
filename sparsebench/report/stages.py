"""The report stage (rule visual_report in workflow/rules/report.smk): the figures and tables of
`snakemake --report`, each written by a function of its own, all by write_report.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pandas as pd

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_json, write_text
from sparsebench.evaluate.columns import PARTIAL_MARK
from sparsebench.evaluate.comparisons import markers, read_significance
from sparsebench.evaluate.leaderboard import (
    partial_cells,
    score_columns,
    significance_note,
)
from sparsebench.report import costs, data, efficiency_figure, figures, tables
from sparsebench.report.contents import (
    TABLES,
    ReportContents,
    evaluated_file,
    report_file,
    tuning_file,
)
from sparsebench.report.drawing import Task, run_all
from sparsebench.report.style import save_figure
from sparsebench.workflow.layout import REPORT

log = logging.getLogger(__name__)


def _read_intervals(path: str | Path) -> pd.DataFrame:
    return pd.read_csv(
        path, sep="\t", keep_default_na=False, dtype={"dataset": str, "model": str, "metric": str}
    )


def _read_leaderboard(path: str | Path) -> pd.DataFrame:
    return pd.read_csv(
        path, sep="\t", index_col="model", dtype={"model": str}, keep_default_na=False
    )


def _partial_note(partial: dict[tuple[str, str], str]) -> str:
    covered = "; ".join(f"{model} on {column}, {n}" for (model, column), n in partial.items())
    return f"{PARTIAL_MARK} Partial run, results for only some queries: {covered}."


def report_leaderboard(
    leaderboard_tsv: str | Path,
    intervals_tsv: str | Path,
    significance_tsv: str | Path,
    models: list[str],
    datasets: list[str],
    metric: str,
    settings: dict[str, Any],
    out_html: str | Path,
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """The leaderboard as an HTML table and as bars per dataset, with each score's 95%
    bootstrap interval and the leaderboard's significance marks (`metric`: the primary
    metric; `settings`: the significance section)."""
    table = _read_leaderboard(leaderboard_tsv)
    partial = partial_cells(table)
    table = table[score_columns(table.columns)]
    intervals = _read_intervals(intervals_tsv)
    comparisons = read_significance(significance_tsv)
    marks = markers(comparisons, metric, settings["primary_test"])
    notes = [
        significance_note(settings, bool(marks), len(table.index)),
        "Error bars and [low, high]: 95% bootstrap intervals of the mean over the queries "
        f"({settings['resamples']:,} resamples, seed {settings['seed']}).",
    ]
    if partial:
        for cell in partial:
            marks[cell] = marks.get(cell, "") + PARTIAL_MARK
        notes.append(_partial_note(partial))
    write_text(out_html, tables.leaderboard_html(table, intervals, marks, metric, notes))
    chart = figures.leaderboard_chart(intervals, marks, models, datasets, metric, " ".join(notes))
    save_figure(chart, out_png, out_svg)


def report_sweep(
    model: str,
    dataset: str,
    surface_tsv: str | Path,
    selection_json: str | Path,
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """The metric surface of a tuned model's grid on one dataset, the chosen point(s)
    framed: on the training split, or the mean over all queries with each fold's choice."""
    selection = read_json(selection_json)
    surface = pd.read_csv(surface_tsv, sep="\t")
    split = selection["choices"][0].get("split")
    column = f"mean_{split}_queries" if split else "mean_all_queries"
    how = f"the {split} queries" if split else f"all queries; {selection['chosen_by']}"
    title = f"{model} on {dataset}: {selection['metric']} over the grid ({how})"
    chart = figures.sweep_chart(
        surface, selection["parameters"], selection["choices"], column, selection["metric"], title
    )
    save_figure(chart, out_png, out_svg)


def report_precision_recall(
    dataset: str,
    models: list[str],
    metrics_files: list[str],
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """Precision-recall curves (11-point interpolated precision) of the `models` on one
    dataset, from their metrics.json files (in the same order)."""
    if len(models) != len(metrics_files):
        raise DataError(f"{len(metrics_files)} metrics files for {len(models)} models")
    ordered = dict(zip(models, metrics_files, strict=True))
    save_figure(
        figures.precision_recall_chart(data.precision_recall(ordered), dataset), out_png, out_svg
    )


def report_query_differences(
    model: str,
    dataset: str,
    model_per_query: str | Path,
    baseline_per_query: str | Path,
    significance_tsv: str | Path,
    metric: str,
    settings: dict[str, Any],
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """The model's per-query differences from the baseline on the primary `metric`,
    sorted, with the significance stage's verdict on them (`settings`: the significance
    section)."""
    baseline, test = settings["baseline"], settings["primary_test"]
    differences = data.read_query_differences(
        model_per_query, baseline_per_query, metric, f"{model} vs {baseline} on {dataset}"
    )
    summary = f"mean Δ {differences.mean():+.4f}"
    row = data.comparison_row(
        read_significance(significance_tsv), model, baseline, dataset, metric, test
    )
    if row is not None:
        verdict = "significant" if row["significant"] else "not significant"
        summary += (
            f", 95% interval [{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]; {test} "
            f"p = {row['p_adjusted']:.4g} ({settings['correction']} correction): {verdict} "
            f"at alpha {settings['alpha']}"
        )
    chart = figures.query_difference_chart(differences, model, baseline, dataset, metric, summary)
    save_figure(chart, out_png, out_svg)


def report_efficiency(
    efficiency_tsv: str | Path,
    metrics_tsv: str | Path,
    leaderboard_tsv: str | Path,
    metric: str,
    models: list[str],
    datasets: list[str],
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """The primary metric of every model against its FLOPS and its single-query latency,
    per dataset (results/efficiency.tsv beside results/metrics.tsv; leaderboard.tsv says
    which runs are partial)."""
    costs_table = pd.read_csv(efficiency_tsv, sep="\t", dtype={"model": str, "dataset": str})
    long = pd.read_csv(metrics_tsv, sep="\t", dtype={"model": str, "dataset": str})
    scores = long[long["metric"] == metric].rename(columns={"value": "score"})
    points = costs_table.merge(scores[["model", "dataset", "score"]], on=["model", "dataset"])
    setups = costs_table[["cpu", "threads", "backend"]].drop_duplicates()
    where = "; ".join(f"{s.cpu}, {s.threads} thread(s), {s.backend}" for s in setups.itertuples())
    note = (
        "FLOPS: the mean multiplications of a query-document dot product. Latency: each "
        f"of up to {int(costs_table['latency_queries'].max())} queries searched alone, by "
        f"the retrieval stage's own clock ({where}). Fused runs and runs made elsewhere "
        "have no cost here."
    )
    partial = {
        cell: covered
        for cell, covered in partial_cells(_read_leaderboard(leaderboard_tsv)).items()
        if cell[1] in datasets
    }
    if partial:
        note += " " + _partial_note(partial)
    chart = efficiency_figure.efficiency_chart(points, metric, models, datasets, note, set(partial))
    save_figure(chart, out_png, out_svg)


def report_costs(jobs: list[dict[str, str]], out_tsv: str | Path) -> None:
    """costs.tsv: every job's wall time, CPU time and peak memory, by rule, dataset and
    model; `jobs`: the plan's jobs as records (sparsebench.workflow.jobs.Job.record),
    each naming its benchmark file. The figures of costs read it."""
    table = costs.cost_table(jobs)
    costs.write_cost_table(table, out_tsv)
    log.info("%d jobs, %.1f s of wall time in total", len(table), table["wall_s"].sum())


def report_rule_costs(costs_tsv: str | Path, out_png: str | Path, out_svg: str | Path) -> None:
    """The figure of each rule's total cost over all datasets and models."""
    table = costs.read_cost_table(costs_tsv)
    chart = figures.cost_chart(
        costs.rule_costs(table), "Cost of each stage over all datasets and models"
    )
    save_figure(chart, out_png, out_svg)


def report_dataset_costs(
    costs_tsv: str | Path, dataset: str, out_png: str | Path, out_svg: str | Path
) -> None:
    """The cost of each stage on one dataset, per model (and per shared encoding)."""
    rows = costs.dataset_costs(costs.read_cost_table(costs_tsv), dataset)
    save_figure(figures.cost_chart(rows, f"Cost of each stage on {dataset}"), out_png, out_svg)


def report_provenance(
    leaderboard_manifest: str | Path, significance_manifest: str | Path, out_html: str | Path
) -> None:
    """The provenance block: command, versions, dataset and model checksums, settings."""
    write_text(
        out_html,
        tables.provenance_html(read_json(leaderboard_manifest), read_json(significance_manifest)),
    )


def write_report(contents: ReportContents, jobs: list[dict[str, str]], workers: int = 1) -> None:
    """Every file of the experiment's report (contents.files()), in one job: the tables'
    and figures' libraries load once, not once a figure, and the figures are drawn by up
    to `workers` processes forked from this one (report/drawing.py). `jobs`: the plan's
    jobs as records (report_costs)."""
    settings, metric = dict(contents.significance), contents.metric
    models, datasets = list(contents.models), list(contents.datasets)
    costs_table, figure = report_file("costs_table").path, report_file("costs")
    report_costs(jobs, costs_table)  # before the figures that read it
    board = report_file("leaderboard")
    tasks: list[Task] = [
        (report_rule_costs, (costs_table, figure.path, figure.svg)),
        (
            report_leaderboard,
            (
                TABLES["leaderboard"],
                TABLES["intervals"],
                TABLES["significance"],
                models,
                datasets,
                metric,
                settings,
                report_file("leaderboard_table").path,
                board.path,
                board.svg,
            ),
        ),
    ]
    for dataset, curves in contents.curve_models().items():
        figure = report_file("precision_recall", dataset=dataset)
        metrics = [evaluated_file(m, dataset, "metrics.json") for m in curves]
        tasks.append((report_precision_recall, (dataset, curves, metrics, figure.path, figure.svg)))
    for model, dataset in contents.differences():
        figure = report_file("query_differences", model=model, dataset=dataset)
        arguments = (
            model,
            dataset,
            evaluated_file(model, dataset, "per_query.tsv"),
            evaluated_file(contents.baseline, dataset, "per_query.tsv"),
            TABLES["significance"],
            metric,
            settings,
            figure.path,
            figure.svg,
        )
        tasks.append((report_query_differences, arguments))
    if contents.searched:
        figure = report_file("efficiency")
        arguments = (
            TABLES["efficiency"],
            TABLES["metrics"],
            TABLES["leaderboard"],
            metric,
            models,
            datasets,
            figure.path,
            figure.svg,
        )
        tasks.append((report_efficiency, arguments))
    for dataset in datasets:
        figure = report_file("dataset_costs", dataset=dataset)
        tasks.append((report_dataset_costs, (costs_table, dataset, figure.path, figure.svg)))
    provenance = (TABLES["leaderboard_manifest"], TABLES["significance_manifest"])
    tasks.append((report_provenance, (*provenance, report_file("provenance").path)))
    for model, dataset in contents.tuned:
        figure = report_file("sweep", model=model, dataset=dataset)
        arguments = (
            model,
            dataset,
            tuning_file(model, dataset, "surface.tsv"),
            tuning_file(model, dataset, "selection.json"),
            figure.path,
            figure.svg,
        )
        tasks.append((report_sweep, arguments))
    run_all(tasks, workers)
    log.info("%d files in %s", len(contents.paths()), REPORT)
