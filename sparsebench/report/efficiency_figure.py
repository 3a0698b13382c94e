"""The report's efficiency figure: each model's primary metric against its cost (FLOPS and
single-query latency) on log axes that always carry labels to read a point by."""

from __future__ import annotations

import math
from collections.abc import Sequence, Set

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, FuncFormatter

from sparsebench.core.errors import DataError
from sparsebench.report.figures import MAX_WIDTH, add_note
from sparsebench.report.style import (
    MARKERS,
    line_style,
    new_figure,
    styled,
    warn_if_styles_repeat,
    wrap,
)


class _FewDecades(Formatter):
    """Minor ticks of a log axis as plain numbers where the decades' own ticks are too few
    to read it by: every one within a decade, 2 and 5 times a power of ten within two
    (an axis from 3 to 80 has one decade tick, 10); none over wider spans."""

    def __call__(self, value: float, pos: int | None = None) -> str:
        low, high = sorted(self.axis.get_view_interval())
        if low <= 0 or value <= 0 or high / low >= 100:
            return ""
        if high / low < 10:
            return f"{value:.3g}"
        leading = round(value / 10 ** math.floor(math.log10(value) + 1e-9), 6)
        return f"{value:g}" if leading in (2.0, 5.0) else ""


# the costs the efficiency chart sets the primary metric against: (column, axis label)
EFFICIENCY_AXES = (
    ("flops", "FLOPS (multiplications per pair, log)"),
    ("latency_p50_ms", "latency, one query (ms, median, log)"),
)


@styled
def efficiency_chart(
    points: pd.DataFrame,
    metric: str,
    models: Sequence[str],
    datasets: Sequence[str],
    note: str,
    partial: Set[tuple[str, str]] = frozenset(),
) -> Figure:
    """Effectiveness against cost: a panel per dataset and cost (FLOPS, latency), a point
    per model, a partial run's (`partial`: (model, dataset)) marked with a dagger.
    points: columns model, dataset, score and the EFFICIENCY_AXES columns."""
    models = [m for m in models if m in set(points["model"])]
    datasets = [d for d in datasets if d in set(points["dataset"])]
    if not models or not datasets:
        raise DataError("no (model x dataset) with both a score and a cost to draw")
    warn_if_styles_repeat(len(models), len(MARKERS) * 2)
    columns = min(len(datasets), max(1, int(MAX_WIDTH // 3.6)))
    blocks = math.ceil(len(datasets) / columns)
    legend_rows = math.ceil(len(models) / max(1, int((3.6 * columns + 0.6) // 2.6)))
    figure = new_figure(
        3.6 * columns + 0.6, 3.0 * blocks * len(EFFICIENCY_AXES) + 1.2 + 0.25 * legend_rows
    )
    axes = np.atleast_2d(figure.subplots(blocks * len(EFFICIENCY_AXES), columns, squeeze=False))
    for i, dataset in enumerate(datasets):
        here = points[points["dataset"] == dataset].set_index("model")
        for j, (cost, label) in enumerate(EFFICIENCY_AXES):
            ax = axes[(i // columns) * len(EFFICIENCY_AXES) + j, i % columns]
            for k, model in enumerate(models):
                if model in here.index and here.at[model, cost] > 0:
                    style = line_style(k)
                    ax.plot(
                        here.at[model, cost], here.at[model, "score"], linestyle="none",
                        marker=style["marker"], color=style["color"], markersize=7,
                        label=wrap(model, 30) if i == 0 and j == 0 else None,
                    )  # fmt: skip
                    if (model, dataset) in partial:
                        ax.annotate(
                            "†", (here.at[model, cost], here.at[model, "score"]),
                            xytext=(5, 3), textcoords="offset points", fontsize=9,
                        )  # fmt: skip
            ax.set_xscale("log")
            ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
            ax.xaxis.set_minor_formatter(_FewDecades())
            ax.set_xlabel(label)
            ax.set_ylabel(metric)
            ax.set_title(dataset)
    for i in range(len(datasets), blocks * columns):  # the last block's empty places
        for j in range(len(EFFICIENCY_AXES)):
            axes[(i // columns) * len(EFFICIENCY_AXES) + j, i % columns].set_visible(False)
    width = 3.6 * columns + 0.6
    figure.legend(loc="outside upper center", ncols=max(1, min(len(models), int(width // 2.6))))
    add_note(figure, note, 3.6 * columns)
    return figure
