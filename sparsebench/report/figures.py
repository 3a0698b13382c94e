"""The report's figures, each drawn from a tidy table (data.py and costs.py make them).

Every figure labels its axes with what is measured and its unit, keeps its legend and
notes outside the plotting area, and grows with the number of models, datasets, queries
or jobs it shows, so that no text overlaps (style.layout_problems checks it)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from sparsebench.core.errors import DataError
from sparsebench.evaluate.measures import RECALL_LEVELS
from sparsebench.report.style import (
    BAR_STYLES,
    LINE_STYLES,
    MARKERS,
    bar_style,
    line_style,
    new_figure,
    styled,
    warn_if_styles_repeat,
    wrap,
)

MAX_WIDTH = 14.0  # inches: wider figures are split into rows
_CHARS_PER_INCH = 13  # of 8-point text, to wrap notes to the figure's width


def add_note(figure: Figure, text: str, width: float) -> None:
    """A note under the plots (it takes part in the layout, so nothing overlaps it)."""
    figure.supxlabel(wrap(text, int(width * _CHARS_PER_INCH)), fontsize=8, ha="center")


@styled
def leaderboard_chart(
    intervals: pd.DataFrame,
    marks: Mapping[tuple[str, str], str],
    models: Sequence[str],
    datasets: Sequence[str],
    metric: str,
    note: str,
) -> Figure:
    """Grouped bars: one group per dataset, one bar per model (its mean over the queries)
    with the 95% bootstrap interval as error bar and the leaderboard's significance mark
    above it. intervals: columns dataset, metric, model, mean, ci_low, ci_high, n_queries."""
    cells = intervals[intervals["metric"] == metric].set_index(["model", "dataset"])
    models = [m for m in models if m in cells.index.get_level_values("model")]
    datasets = [d for d in datasets if d in cells.index.get_level_values("dataset")]
    if not models or not datasets:
        raise DataError(f"no scores with intervals of {metric} to draw")
    warn_if_styles_repeat(len(models), len(BAR_STYLES))
    group = 0.3 * len(models) + 0.5  # inches per dataset
    per_row = max(1, int((MAX_WIDTH - 1.2) // group))
    n_rows = math.ceil(len(datasets) / per_row)
    width = min(MAX_WIDTH, max(4.8, 1.2 + group * min(len(datasets), per_row)))
    legend_columns = min(len(models), max(1, int(width // 2.2)))
    legend_rows = math.ceil(len(models) / legend_columns)
    figure = new_figure(width, 1.4 + 0.2 * legend_rows + 2.9 * n_rows)
    axes = figure.subplots(n_rows, 1, squeeze=False)[:, 0]
    top = float(cells["ci_high"].max())
    limit = max(top * 1.12 + 0.02, 0.05)  # room for the marks above the error bars
    bar = 0.8 / len(models)
    for row, ax in enumerate(axes):
        chunk = datasets[row * per_row : (row + 1) * per_row]
        for i, model in enumerate(models):
            present = [(j, d) for j, d in enumerate(chunk) if (model, d) in cells.index]
            if not present:
                continue
            part = cells.loc[[(model, d) for _, d in present]]
            x = np.array([j for j, _ in present]) - 0.4 + bar * (i + 0.5)
            mean = part["mean"].to_numpy()
            ax.bar(x, mean, width=bar, **bar_style(i))
            ax.errorbar(
                x,
                mean,
                yerr=[mean - part["ci_low"].to_numpy(), part["ci_high"].to_numpy() - mean],
                fmt="none",
                ecolor="black",
                elinewidth=0.9,
                capsize=min(3.0, 40 * bar),
            )
            for xi, high, (_, dataset) in zip(x, part["ci_high"], present, strict=True):
                mark = marks.get((model, dataset))
                if mark:
                    ax.text(xi, high + 0.01 * limit, mark, ha="center", va="bottom", fontsize=8)
        queries = [int(cells.xs(d, level="dataset")["n_queries"].max()) for d in chunk]
        ax.set_xticks(
            range(len(chunk)),
            [f"{wrap(d, 16)}\n({n:,} queries)" for d, n in zip(chunk, queries, strict=True)],
        )
        ax.set_xlim(-0.5, (per_row if n_rows > 1 else len(chunk)) - 0.5)
        ax.set_ylim(0, limit)
        ax.set_ylabel(f"{metric}\n(mean over queries)")
        ax.grid(axis="x", visible=False)
    handles = [Patch(label=wrap(m, 30), **bar_style(i)) for i, m in enumerate(models)]
    axes[0].legend(
        handles=handles,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.02),
        ncols=legend_columns,
        frameon=False,
    )
    figure.suptitle(f"Leaderboard: {metric} per dataset")
    add_note(figure, note, width)
    return figure


@styled
def precision_recall_chart(curves: pd.DataFrame, dataset: str) -> Figure:
    """One line per model: interpolated precision at the 11 standard recall levels
    (curves: rows = recall levels, columns = models)."""
    models = list(curves.columns)
    warn_if_styles_repeat(len(models), len(MARKERS) * len(LINE_STYLES))
    columns = min(len(models), 3)
    figure = new_figure(6.4, 4.4 + 0.22 * math.ceil(len(models) / columns))
    ax = figure.subplots()
    for i, model in enumerate(models):
        ax.plot(curves.index, curves[model], label=wrap(model, 30), **line_style(i))
    ax.set_xticks(RECALL_LEVELS)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("Recall (fraction of the relevant documents retrieved)")
    ax.set_ylabel("Interpolated precision\n(mean over queries)")
    ax.set_title(f"{dataset}: precision-recall, 11-point interpolated")
    figure.legend(loc="outside lower center", ncols=columns)
    return figure


@styled
def query_difference_chart(
    differences: pd.Series,
    model: str,
    baseline: str,
    dataset: str,
    metric: str,
    summary: str,
) -> Figure:
    """The per-query wins and losses: model - baseline on every query, sorted from the
    largest gain to the largest loss (query ids on the axis when there are few)."""
    n = len(differences)
    if n == 0:
        raise DataError(f"no queries to compare {model} and {baseline} on {dataset}")
    show_ids = n <= 60
    width = min(12.0, max(6.4, 1.6 + (0.17 * n if show_ids else n / 150)))
    figure = new_figure(width, 4.8 if show_ids else 4.2)
    ax = figure.subplots()
    values = differences.to_numpy()
    x = np.arange(n)
    better, worse = values > 0, values < 0
    bar = 0.8 if show_ids else 1.0
    ax.bar(x[better], values[better], width=bar, color="0.15", linewidth=0)
    ax.bar(x[worse], values[worse], width=bar, color="0.65", linewidth=0)
    ax.axhline(0, color="black", linewidth=0.8)
    reach = float(np.abs(values).max())
    ax.set_ylim(-(reach * 1.1 or 0.05), reach * 1.1 or 0.05)
    ax.set_xlim(-0.6, n - 0.4)
    ax.set_ylabel(f"Δ {metric}\n({wrap(model, 24)} − {wrap(baseline, 24)})")
    if show_ids:
        ax.set_xticks(x, [str(q) for q in differences.index], rotation=90, fontsize=7)
        ax.set_xlabel("Query (sorted by difference)")
    else:
        ax.set_xlabel(f"Query rank, sorted by difference ({n:,} queries)")
    ax.grid(axis="x", visible=False)
    ties = n - int(better.sum()) - int(worse.sum())
    handles = [
        Patch(color="0.15", label=f"better than {baseline}: {int(better.sum())}"),
        Patch(color="0.65", label=f"worse: {int(worse.sum())}"),
        Patch(facecolor="white", edgecolor="none", label=f"tied: {ties}"),
    ]
    figure.legend(handles=handles, loc="outside lower center", ncols=3)
    figure.suptitle(f"{model} vs {baseline} on {dataset}: {metric} per query")
    ax.set_title(wrap(summary, int(width * _CHARS_PER_INCH)), fontsize=8)
    return figure


def _seconds(value: float) -> str:
    return "n/a" if np.isnan(value) else f"{value:.3g} s"


def _mebibytes(value: float) -> str:
    return "n/a" if np.isnan(value) else f"{value:,.0f} MiB"


@styled
def cost_chart(rows: pd.DataFrame, title: str) -> Figure:
    """Wall time and peak memory of each row (a rule, or a rule's jobs for one model),
    top to bottom in pipeline order. rows: columns label, wall_s, peak_rss_mib."""
    if rows.empty:
        raise DataError(f"no benchmark records for {title!r}")
    labels = [wrap(label, 44) for label in rows["label"]]
    lines = [label.count("\n") + 1 for label in labels]
    height = 1.3 + sum(0.14 + 0.14 * n for n in lines)
    longest = max(len(line) for label in labels for line in label.split("\n"))
    figure = new_figure(min(11.0, 7.0 + 0.075 * longest), height)  # labels, then two panels
    time_ax, memory_ax = figure.subplots(1, 2, sharey=True)
    y = np.arange(len(rows))
    for ax, column, style, unit, axis_label in (
        (time_ax, "wall_s", {"color": "0.35"}, _seconds, "Wall time, summed over the jobs (s)"),
        (
            memory_ax,
            "peak_rss_mib",
            {"facecolor": "white", "hatch": "////"},
            _mebibytes,
            "Peak memory of a job, resident set (MiB)",
        ),
    ):
        values = rows[column].to_numpy(dtype=float)
        bars = ax.barh(y, np.nan_to_num(values), height=0.7, edgecolor="black", **style)
        ax.bar_label(bars, labels=[unit(v) for v in values], padding=3, fontsize=7)
        reach = np.nanmax(values) if np.isfinite(values).any() else 0.0
        ax.set_xlim(0, reach * 1.3 or 1.0)
        ax.set_xlabel(axis_label)
        ax.grid(axis="y", visible=False)
    time_ax.set_yticks(y, labels, fontsize=8)
    time_ax.invert_yaxis()
    figure.suptitle(title)
    return figure


def _chosen_label(folds: Sequence[int | None]) -> str:
    if folds == [None]:
        return "chosen on the training split"
    plural = "s" if len(folds) > 1 else ""
    return f"chosen for fold{plural} " + ", ".join(str(f) for f in folds)


@styled
def sweep_chart(
    surface: pd.DataFrame,
    parameters: Mapping[str, Sequence[float]],
    choices: Sequence[Mapping[str, Any]],
    column: str,
    metric: str,
    title: str,
) -> Figure:
    """The metric over a parameter grid, the chosen point(s) marked: a line for one
    parameter, a heat map for two (with more, the first two, each cell the best over the
    others). surface: one row per point, a column per parameter and `column` (the mean
    the points were compared by); choices: selection.json's, each with its point."""
    names = list(parameters)
    if not names or column not in surface.columns:
        raise DataError(f"no {column} over a parameter grid to draw")
    chosen: dict[tuple, list] = {}
    for choice in choices:
        key = tuple(choice["point"][n] for n in names[:2])
        chosen.setdefault(key, []).append(choice.get("fold"))
    if len(names) == 1:
        name = names[0]
        line = surface.sort_values(name)
        figure = new_figure(6.4, 4.4)
        ax = figure.subplots()
        ax.plot(line[name], line[column], **line_style(0))
        for (value,), folds in chosen.items():
            y = float(line.loc[line[name] == value, column].iloc[0])
            ax.plot([value], [y], marker="*", markersize=16, color="black", linestyle="none")
            ax.annotate(
                wrap(_chosen_label(folds), 24),
                (value, y),
                xytext=(0, 10),
                textcoords="offset points",
                ha="center",
                fontsize=7,
            )
        ax.set_xlabel(name)
        ax.set_ylabel(f"{metric}\n({column.replace('_', ' ')})")
        ax.margins(y=0.25)
        figure.suptitle(wrap(title, 70))
        return figure
    rows_name, columns_name = names[:2]
    grid = surface.groupby([rows_name, columns_name])[column].max().unstack(columns_name)
    grid = grid.reindex(
        index=sorted(parameters[rows_name]), columns=sorted(parameters[columns_name])
    )
    n_rows, n_columns = grid.shape
    annotate = n_rows * n_columns <= 400
    width = min(MAX_WIDTH, max(5.6, 2.4 + 0.55 * n_columns))
    figure = new_figure(width, min(12.0, max(4.2, 1.9 + 0.36 * n_rows)))
    ax = figure.subplots()
    values = grid.to_numpy(dtype=float)
    image = ax.imshow(values, cmap="Greys", aspect="auto", origin="lower")
    colorbar = figure.colorbar(image, ax=ax)
    colorbar.set_label(f"{metric} ({column.replace('_', ' ')})")
    finite = values[np.isfinite(values)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0.0
    if annotate:
        size = 7 if n_columns <= 12 else 5
        for (i, j), value in np.ndenumerate(values):
            if np.isfinite(value):
                ax.text(
                    j,
                    i,
                    f"{value:.3f}",
                    ha="center",
                    va="center",
                    fontsize=size,
                    color="white" if value > middle else "black",
                )
    for row_value, column_value in chosen:
        i = list(grid.index).index(row_value)
        j = list(grid.columns).index(column_value)
        ax.add_patch(
            Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=2.5)
        )
        ax.add_patch(
            Rectangle(
                (j - 0.42, i - 0.42), 0.84, 0.84, fill=False, edgecolor="white", linewidth=1.2
            )
        )
    ax.set_xticks(
        range(n_columns), [f"{v:g}" for v in grid.columns], rotation=90 if n_columns > 12 else 0
    )
    ax.set_yticks(range(n_rows), [f"{v:g}" for v in grid.index])
    ax.set_xlabel(columns_name)
    ax.set_ylabel(rows_name)
    ax.grid(False)
    note = "Framed: " + "; ".join(
        f"{rows_name}={r:g}, {columns_name}={c:g} {_chosen_label(f)}"
        for (r, c), f in chosen.items()
    )
    if len(names) > 2:
        note += f". Each cell: the best over {', '.join(names[2:])}."
    add_note(figure, note, width)
    figure.suptitle(wrap(title, int(width * 8)))
    return figure
