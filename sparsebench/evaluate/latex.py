"""A results table to paste into a paper: LaTeX with booktabs, as ranx's Report writes it.

Each model gets a letter (a, b, c, ... in row order); a score carries as a superscript
the letters of the models it is significantly better than there (by the significance
table's primary test, after its correction), the best score of each column is bold
(every model that reaches it, at the printed precision), and the caption names the test,
the correction and alpha. Averages carry no letters: no test compares them. The file's
first lines are LaTeX comments saying what produced it.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence

import pandas as pd

from sparsebench.evaluate.columns import AVERAGE
from sparsebench.evaluate.comparisons import SignificanceSettings
from sparsebench.evaluate.leaderboard import tuned_labels
from sparsebench.evaluate.measures import aggregate

# booktabs' rules; the user's preamble needs \usepackage{booktabs}
_LETTERS = string.ascii_lowercase + string.ascii_uppercase
_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
CORRECTION_NAMES = {"holm": "Holm-Bonferroni", "bonferroni": "Bonferroni", "none": "no"}


def escape(text: str) -> str:
    """Text as LaTeX prints it (model and dataset names hold _ and the like)."""
    return "".join(_SPECIAL.get(c, c) for c in str(text))


def letter(index: int) -> str:
    """The label of the model in row `index`: a..z, A..Z, then numbers."""
    return _LETTERS[index] if index < len(_LETTERS) else str(index + 1)


def beaten(
    significance: pd.DataFrame, test: str, column: str, metric: str | None = None
) -> dict[tuple[str, str], set[str]]:
    """(model, column value) -> the models it is significantly better than, from a
    significance table (comparisons.COLUMNS) and its `test`; `column`: 'dataset' or
    'metric' (what the table's columns are); `metric`: keep only its rows."""
    chosen = significance[(significance["test"] == test) & significance["significant"]]
    if metric is not None:
        chosen = chosen[chosen["metric"] == metric]
    found: dict[tuple[str, str], set[str]] = {}
    for row in chosen.itertuples(index=False):
        winner, loser = (row.model, row.baseline) if row.delta > 0 else (row.baseline, row.model)
        found.setdefault((winner, getattr(row, column)), set()).add(loser)
    return found


PARTIAL_MARK = r"$^{\dagger}$"


def latex_table(
    scores: pd.DataFrame,
    beats: Mapping[tuple[str, str], set[str]],
    caption: str,
    comments: Sequence[str] = (),
    digits: int = 4,
    label: str = "tab:results",
    partial: Sequence[tuple[str, str]] = (),
) -> str:
    """The table: rows the models of `scores`' index, columns its columns (datasets or
    metrics, and an average if there is one); `beats`: see `beaten`; `partial`: the
    (model, column) cells of runs that miss queries, marked with a dagger."""
    models = [str(m) for m in scores.index]
    letters = {m: letter(i) for i, m in enumerate(models)}
    rounded = scores.round(digits)
    best = rounded.max(axis=0, skipna=True)
    lines = [f"% {line}" for line in comments]
    lines += [
        r"\begin{table}[t]",
        r"\centering",
        rf"\caption{{{caption}}}",
        rf"\label{{{label}}}",
        r"\begin{tabular}{ll" + "r" * len(scores.columns) + "}",
        r"\toprule",
        " & ".join([r"\#", "Model", *(escape(c) for c in scores.columns)]) + r" \\",
        r"\midrule",
    ]
    for model, row in zip(models, rounded.itertuples(index=False), strict=True):
        cells = [letters[model], escape(model)]
        for column, value in zip(scores.columns, row, strict=True):
            if pd.isna(value):
                cells.append("--")
                continue
            text = f"{value:.{digits}f}"
            if value == best[column]:
                text = rf"\textbf{{{text}}}"
            marks = "".join(
                sorted(letters[m] for m in beats.get((model, column), ()) if m in letters)
            )
            dagger = PARTIAL_MARK if (model, column) in partial else ""
            cells.append(text + (rf"$^{{{marks}}}$" if marks else "") + dagger)
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)


def caption(metric_text: str, test: str, correction: str, alpha: float, tested: str) -> str:
    """The caption: what the numbers are, what the letters and the bold mean."""
    corrected = CORRECTION_NAMES.get(correction, correction)
    return escape(
        f"{metric_text}. Superscripts: the models (by letter) a score is significantly "
        f"better than, by a paired two-sided {test} with {corrected} correction over "
        f"{tested}, alpha = {alpha:g}. Best per column in bold."
    )


def leaderboard_latex(
    scores: pd.DataFrame,
    tests: pd.DataFrame | None,
    metric: str,
    settings: Mapping,
    tuned: Mapping[str, str],
    comments: Sequence[str],
    partial: Mapping[tuple[str, str], str] | None = None,
) -> str:
    """results/leaderboard.tex: the leaderboard's scores (datasets and average), letters
    from the significance table's primary test on `metric`; `settings`: the significance
    section; tuned models are labelled so; `partial`: (model, column) -> how much of the
    queries a partial run covers, its cells and its average daggered and explained."""
    beats = beaten(tests, settings["primary_test"], "dataset", metric) if tests is not None else {}
    label = tuned_labels(tuned)
    beats = {
        (label.get(m, m), column): {label.get(b, b) for b in losers}
        for (m, column), losers in beats.items()
    }
    text = caption(
        f"{metric} per dataset",
        settings["primary_test"],
        settings["correction"],
        settings["alpha"],
        "the models of each dataset",
    )
    partial = partial or {}
    daggered = {(label.get(m, m), c) for m, c in partial}
    daggered |= {(label.get(m, m), AVERAGE) for m, _ in partial if AVERAGE in scores.columns}
    if partial:
        covered = "; ".join(f"{m} on {c}, {n}" for (m, c), n in partial.items())
        text += (
            " " + PARTIAL_MARK + escape(f"Partial run, results for only some queries: {covered}.")
        )
    return latex_table(
        scores.rename(index=label), beats, text, comments, label="tab:leaderboard", partial=daggered
    )


def runs_latex(
    values: Mapping[tuple[str, str], pd.DataFrame],
    tests: pd.DataFrame,
    names: Sequence[str],
    dataset: str,
    settings: SignificanceSettings,
    comments: Sequence[str],
) -> str:
    """`sparsebench compare --latex`: runs x metrics on one dataset (`values`: (run,
    dataset) -> per-query values), letters from `tests` (its primary test)."""
    scores = pd.DataFrame(
        {
            metric: [
                aggregate(metric, values[(name, dataset)][metric].to_numpy()) for name in names
            ]
            for metric in settings.metrics
        },
        index=list(names),
    )
    text = caption(
        f"{dataset}: each run's scores",
        settings.primary_test,
        settings.correction,
        settings.alpha,
        "the runs of each metric",
    )
    beats = beaten(tests, settings.primary_test, "metric")
    return latex_table(scores, beats, text, comments, label=f"tab:{dataset}")
