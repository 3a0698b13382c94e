"""One look for every figure: greys, hatches, markers and line styles that stay apart in
black and white, and files that are byte-identical when the same figure is drawn again."""

from __future__ import annotations

import functools
import itertools
import logging
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import matplotlib
import matplotlib.image
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from sparsebench.core.fileio import atomic_path

log = logging.getLogger(__name__)

RC: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "0.88",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "hatch.linewidth": 0.7,
    "savefig.dpi": 150,
    "svg.fonttype": "path",  # glyphs as paths: the same look without the fonts installed
    "svg.hashsalt": "sparsebench",  # fixed element ids: the same SVG on every run
}
# (fill, hatch) of bar series: dark, white, mid and light fills, hatches on the pale ones
BAR_STYLES = (
    ("0.2", ""),
    ("white", "////"),
    ("0.6", ""),
    ("white", "...."),
    ("0.85", "xxxx"),
    ("white", "\\\\\\\\"),
    ("0.85", "...."),
    ("white", "++++"),
    ("0.4", ""),
    ("white", "xxxx"),
    ("0.85", "////"),
    ("white", "oo"),
    ("0.85", "\\\\\\\\"),
    ("white", "----"),
    ("0.85", "++++"),
    ("white", "||||"),
)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINE_STYLES = ("-", "--", ":", "-.")
F = TypeVar("F", bound=Callable[..., Any])


def styled(function: F) -> F:
    """Draw under the report's style (without touching the caller's matplotlib settings)."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(RC):
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def new_figure(width: float, height: float) -> Figure:
    """A figure (inches) with constrained layout on the Agg canvas (files only): pyplot
    and the session's backend are never involved."""
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def bar_style(index: int) -> dict[str, Any]:
    """Patch properties of the index-th bar series."""
    fill, hatch = BAR_STYLES[index % len(BAR_STYLES)]
    return {"facecolor": fill, "hatch": hatch, "edgecolor": "black", "linewidth": 0.7}


def line_style(index: int) -> dict[str, Any]:
    """Line properties of the index-th line series: 32 distinct marker and dash pairs,
    black and grey alternating."""
    return {
        "color": "black" if index % 2 == 0 else "0.45",
        "marker": MARKERS[index % len(MARKERS)],
        "linestyle": LINE_STYLES[(index + index // len(MARKERS)) % len(LINE_STYLES)],
        "linewidth": 1.4,
        "markersize": 5,
        "markerfacecolor": "white" if (index // 2) % 2 else None,
    }


def warn_if_styles_repeat(n_series: int, distinct: int) -> None:
    if n_series > distinct:
        log.warning(
            "%d series but %d distinct black-and-white styles: some series look alike",
            n_series,
            distinct,
        )


def wrap(label: str, width: int) -> str:
    """A label broken into lines of at most `width` characters: at spaces, and a name
    longer than a line also after its hyphens and underscores."""
    lines = []
    for line in textwrap.wrap(label, width, break_on_hyphens=False, break_long_words=False):
        if len(line) <= width:
            lines.append(line)
            continue
        current = ""
        for piece in re.split(r"(?<=[-_])", line):  # after each hyphen and underscore
            if current and len(current) + len(piece) > width:
                lines.append(current)
                current = ""
            current += piece
        lines.append(current)
    return "\n".join(lines)


def _drawn_texts(figure: Figure) -> list[Text]:
    """The texts a drawing shows: an axis keeps spare tick labels (stale, or of ticks
    outside the view) that are not drawn."""
    tick_labels: set[int] = set()
    drawn: list[Text] = []
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.majorTicks + axis.minorTicks:
                tick_labels |= {id(tick.label1), id(tick.label2)}
            low, high = sorted(axis.get_view_interval())
            slack = 1e-9 * (high - low)
            for locations, ticks in (
                (axis.get_majorticklocs(), axis.get_major_ticks),
                (axis.get_minorticklocs(), axis.get_minor_ticks),
            ):
                for location, tick in zip(locations, ticks(len(locations)), strict=True):
                    if low - slack <= location <= high + slack:
                        drawn += [tick.label1, tick.label2]
    texts = [t for t in figure.findobj(Text) if id(t) not in tick_labels] + drawn
    return [t for t in texts if t.get_visible() and t.get_text().strip()]


def layout_problems(figure: Figure) -> list[str]:
    """Texts that overlap another text or stick out of the figure (after drawing)."""
    figure.canvas.draw()
    return _drawn_problems(figure)


def _drawn_problems(figure: Figure) -> list[str]:
    """layout_problems of the figure as its canvas last drew it."""
    renderer = figure.canvas.get_renderer()
    bounds = figure.bbox
    boxes = []
    for text in _drawn_texts(figure):
        box = text.get_window_extent(renderer)
        if box.width == 0 or box.height == 0:
            continue
        boxes.append((text.get_text(), box.expanded(0.98, 0.98)))
    problems = [
        f"{label!r} is outside the figure"
        for label, box in boxes
        if box.x0 < bounds.x0 - 1
        or box.y0 < bounds.y0 - 1
        or box.x1 > bounds.x1 + 1
        or box.y1 > bounds.y1 + 1
    ]
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        if box_a.overlaps(box_b):
            problems.append(f"{a!r} overlaps {b!r}")
    return problems


def save_figure(figure: Figure, png: str | Path, svg: str | Path) -> None:
    """Write the figure as PNG and SVG (each moved into place when complete); the files
    carry no date, so drawing the same figure again gives the same bytes. The PNG is
    the drawing that the layout check reads: the pixels savefig would draw again."""
    with matplotlib.rc_context(RC):
        dpi = matplotlib.rcParams["savefig.dpi"]
        shown_dpi = figure.dpi
        figure.set_dpi(dpi)
        try:
            figure.canvas.draw()
            for problem in _drawn_problems(figure):
                log.warning("figure %s: %s", Path(png).stem, problem)
            with atomic_path(png) as tmp:
                matplotlib.image.imsave(
                    tmp,
                    figure.canvas.buffer_rgba(),
                    format="png",
                    origin="upper",
                    dpi=dpi,
                    metadata={"Software": None},
                )
        finally:
            figure.set_dpi(shown_dpi)
        with atomic_path(svg) as tmp:
            figure.savefig(tmp, format="svg", metadata={"Date": None, "Creator": None})
