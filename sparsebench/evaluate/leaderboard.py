"""The leaderboard: models x datasets on the primary metric, plus every metric in long form.

leaderboard.tsv keeps full precision for programs; leaderboard.md rounds to four
decimals, as published tables do, and states what produced the numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from sparsebench.core.fileio import atomic_path, read_json, write_text
from sparsebench.evaluate.columns import (
    AVERAGE,
    COST_COLUMNS,
    INDEX,
    JUDGED_PREFIX,
    LONG_COLUMNS,
    MARK_PREFIX,
    OPTIMISTIC_PREFIX,
    OWN_COLUMNS,
    PARTIAL,
    PARTIAL_SEPARATOR,
    TUNING,
)
from sparsebench.evaluate.measures import JUDGED_AT_10, optimistic_name

# A model whose Judged@10 is below this share of the baseline's is flagged: its score
# counts more unjudged documents as non-relevant than the baseline's does.
LOW_JUDGED_SHARE = 0.8


def score_columns(columns: Sequence[str], with_average: bool = True) -> list[str]:
    """The columns of leaderboard.tsv that hold the primary metric (datasets, and the
    average if asked): not markers, Judged@10, costs, tuning or partial notes."""
    own = set(OWN_COLUMNS) - ({AVERAGE} if with_average else set())
    others = (MARK_PREFIX, JUDGED_PREFIX, OPTIMISTIC_PREFIX, *COST_COLUMNS)
    return [c for c in columns if c not in own and not str(c).startswith(others)]


def partial_cells(table: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(model, column) -> how much of the queries the run covers, read back from the
    `partial` column of leaderboard.tsv (`table` indexed by model)."""
    if PARTIAL not in table.columns:
        return {}
    found = {}
    for model, cell in table[PARTIAL].items():
        for part in str(cell).split(PARTIAL_SEPARATOR) if cell else ():
            column, _, covered = part.partition(": ")
            found[(str(model), column)] = covered
    return found


def tuned_labels(tuned: Iterable[str]) -> dict[str, str]:
    """How the tables a reader sees name tuned models: "bm25 (tuned)"."""
    return {m: f"{m} (tuned)" for m in tuned}


def collect_metrics(entries: Sequence[tuple[str, str, str | Path]]) -> pd.DataFrame:
    """Long table (LONG_COLUMNS) from (model, dataset, metrics.json)."""
    rows = [
        {"model": model, "dataset": dataset, "metric": metric, "value": float(value)}
        for model, dataset, path in entries
        for metric, value in read_json(path).items()
    ]
    return pd.DataFrame(rows, columns=list(LONG_COLUMNS))


def leaderboard_table(
    long: pd.DataFrame,
    metric: str,
    models: Sequence[str],
    datasets: Sequence[str],
    groups: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Wide table of one metric, rows and columns in config order, with the average.

    Datasets of one group (cqadupstack's forums) become one column, their mean, placed
    where the first of them is; the average counts each group once, as BEIR does.
    """
    groups = groups or {}
    chosen = long[long["metric"] == metric]
    if chosen.empty:
        raise ValueError(f"no values for metric {metric!r}")
    wide = chosen.pivot(index="model", columns="dataset", values="value")
    wide = wide.reindex(index=list(models), columns=list(datasets))
    columns: dict[str, pd.Series] = {}
    for dataset in datasets:
        group = groups.get(dataset)
        if group is None:
            columns[dataset] = wide[dataset]
        elif group not in columns:
            members = [d for d in datasets if groups.get(d) == group]
            columns[group] = wide[members].mean(axis=1, skipna=False)
    table = pd.DataFrame(columns, index=wide.index)
    table[AVERAGE] = table.mean(axis=1, skipna=False)
    table.index.name = INDEX
    return table


def write_leaderboard(
    long: pd.DataFrame,
    metric: str,
    models: Sequence[str],
    datasets: Sequence[str],
    out_tsv: str | Path,
    out_long: str | Path,
    out_md: str | Path,
    provenance_lines: Sequence[str],
    marks: Mapping[tuple[str, str], str] | None = None,
    notes: str = "",
    sections: Sequence[str] = (),
    groups: Mapping[str, str] | None = None,
    tuned: Mapping[str, str] | None = None,
    partial: Mapping[tuple[str, str], str] | None = None,
    costs: Mapping[str, Sequence[float]] | None = None,
) -> pd.DataFrame:
    """Write the TSV (the numbers, then one `sig:{dataset}` column of markers and one
    `judged@10:{dataset}` column of Judged@10 per dataset, the `costs` columns
    (evaluate.efficiency.leaderboard_columns, a value per model), a `tuning` column
    saying how tuned models were tuned, when there are some, and a `partial` column naming the
    cells whose run misses queries, when there are some), the long metrics TSV and the
    markdown version (those cells say so too, and Judged@10 has a table of its own).
    `partial`: (model, column) -> how many queries of how many the run covers."""
    marks = marks or {}
    tuned = tuned or {}
    partial = partial or {}
    table = leaderboard_table(long, metric, models, datasets, groups)
    judged = judged_table(long, models, datasets, groups)
    optimistic = optimistic_table(long, metric, models, datasets, groups)
    with_marks = table.copy()
    for dataset in (d for d in datasets if d in table.columns):
        with_marks[f"{MARK_PREFIX}{dataset}"] = [marks.get((m, dataset), "") for m in table.index]
    if judged is not None:
        for column in (c for c in judged.columns if c != AVERAGE):
            with_marks[f"{JUDGED_PREFIX}{column}"] = judged[column]
    if optimistic is not None:
        for column in (c for c in optimistic.columns if c != AVERAGE):
            with_marks[f"{OPTIMISTIC_PREFIX}{column}"] = optimistic[column]
    for column, values in (costs or {}).items():
        with_marks[column] = values
    if tuned:
        with_marks[TUNING] = [tuned.get(m, "") for m in table.index]
    if partial:
        with_marks[PARTIAL] = [
            PARTIAL_SEPARATOR.join(
                f"{c}: {partial[(m, c)]}" for c in table.columns if (m, c) in partial
            )
            for m in table.index
        ]
    with atomic_path(out_tsv) as tmp:
        with_marks.to_csv(tmp, sep="\t", float_format="%.6f", lineterminator="\n")
    ordered = long.sort_values(["model", "dataset", "metric"], kind="stable")
    with atomic_path(out_long) as tmp:
        ordered.to_csv(tmp, sep="\t", index=False, float_format="%.6f", lineterminator="\n")
    labels = tuned_labels(tuned)
    labelled = table.rename(index=labels)
    partial_marks = {cell: f" (partial: {text})" for cell, text in partial.items()}
    partial_marks.update({(m, AVERAGE): " (counts a partial run)" for m, _ in partial})
    marks = {c: marks.get(c, "") + partial_marks.get(c, "") for c in {*marks, *partial_marks}}
    marks = {(labels.get(m, m), d): v for (m, d), v in marks.items()}
    if judged is not None:
        bands = None
        if optimistic is not None:
            bands = (table.rename(index=labels), optimistic.rename(index=labels))
        sections = [judged_markdown(judged.rename(index=labels), metric, bands), *sections]
    write_text(out_md, markdown(labelled, metric, provenance_lines, marks, notes, sections))
    return table


def judged_table(
    long: pd.DataFrame,
    models: Sequence[str],
    datasets: Sequence[str],
    groups: Mapping[str, str] | None = None,
) -> pd.DataFrame | None:
    """Judged@10 per model and leaderboard column (None when the metrics lack it)."""
    if not (long["metric"] == JUDGED_AT_10).any():
        return None
    return leaderboard_table(long, JUDGED_AT_10, models, datasets, groups)


def optimistic_table(
    long: pd.DataFrame,
    metric: str,
    models: Sequence[str],
    datasets: Sequence[str],
    groups: Mapping[str, str] | None = None,
) -> pd.DataFrame | None:
    """The primary metric with unjudged documents counted relevant, per model and column
    (None when not measured)."""
    name = optimistic_name(metric)
    if name is None or not (long["metric"] == name).any():
        return None
    return leaderboard_table(long, name, models, datasets, groups)


def low_judged(judged: pd.DataFrame, share: float = LOW_JUDGED_SHARE) -> pd.DataFrame:
    """Cells whose Judged@10 is below `share` of the best-judged model's in the column."""
    return judged.lt(share * judged.max(axis=0), axis=1)


def judged_markdown(
    judged: pd.DataFrame,
    metric: str = "",
    bands: tuple[pd.DataFrame, pd.DataFrame] | None = None,
) -> str:
    """Judged@10 as a table of its own under the leaderboard; where a model's Judged@10 is
    low (below LOW_JUDGED_SHARE of the column's best), the band its score spans between
    unjudged documents counted non-relevant (the score) and relevant (`bands`: the scores
    and the optimistic scores), lower value first."""
    lines = [
        "## Judged@10",
        "",
        "The share of each model's top 10 that the judgments cover (a judgment of any "
        "grade); an unjudged document counts as non-relevant in every score above.",
    ]
    if bands is not None:
        lines += [
            "",
            f"Where a model's Judged@10 is below {LOW_JUDGED_SHARE:g} x the column's best, "
            f"the cell gives the band of its {metric} between every unjudged document of its "
            "top k counted non-relevant (the score above) and relevant (with its query's "
            "best grade, as one more relevant document), lower value first.",
        ]
    lines += [
        "",
        "| " + " | ".join([INDEX, *judged.columns]) + " |",
        "|" + "|".join(["---"] + ["---:"] * len(judged.columns)) + "|",
    ]
    low = low_judged(judged)
    for model, row in judged.iterrows():
        cells = []
        for column, value in row.items():
            cell = "" if pd.isna(value) else f"{value:.3f}"
            if bands is not None and cell and low.at[model, column]:
                values = [b.at[model, column] for b in bands]
                if all(pd.notna(v) for v in values):
                    cell += f" ({metric} {min(values):.4f}-{max(values):.4f})"
            cells.append(cell)
        lines.append("| " + " | ".join([str(model), *cells]) + " |")
    return "\n".join(lines)


def low_judged_notes(
    judged: pd.DataFrame | None, baseline: str, metric: str, share: float = LOW_JUDGED_SHARE
) -> list[str]:
    """A line per (model, column) whose Judged@10 is below `share` of the baseline's
    there: its `metric` may understate it (documents no pool judged count as misses)."""
    if judged is None or baseline not in judged.index:
        return []
    lines = []
    for column in (c for c in judged.columns if c != AVERAGE):
        base = judged.at[baseline, column]
        for model in judged.index:
            value = judged.at[model, column]
            if model != baseline and pd.notna(value) and pd.notna(base) and value < share * base:
                lines.append(
                    f"LOW JUDGED: {model} on {column}: Judged@10 {value:.3f}, below "
                    f"{share:g} x the baseline's ({baseline}: {base:.3f}); its {metric} counts "
                    "the documents no judgment covers as non-relevant and may understate it."
                )
    return lines


def markdown(
    table: pd.DataFrame,
    metric: str,
    provenance_lines: Sequence[str],
    marks: Mapping[tuple[str, str], str] | None = None,
    notes: str = "",
    sections: Sequence[str] = (),
) -> str:
    marks = marks or {}
    header = [INDEX, *table.columns]
    lines = [
        f"# Leaderboard: {metric}",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] + ["---:"] * len(table.columns)) + "|",
    ]
    for model, row in table.iterrows():
        cells = [
            "" if pd.isna(v) else f"{v:.4f}{marks.get((model, column), '')}"
            for column, v in row.items()
        ]
        lines.append("| " + " | ".join([str(model), *cells]) + " |")
    if notes:
        lines += ["", notes]
    for section in sections:
        lines += ["", section]
    lines += ["", "## Provenance", "", *[f"- {line}" for line in provenance_lines], ""]
    return "\n".join(lines)


def significance_note(settings: Mapping, any_marks: bool, models: int) -> str:
    """The line under the table that explains the markers (with one model there is
    nothing to test, and no baseline to name)."""
    if models < 2:
        return "One model: no significance test."
    return (
        f"▲ / ▼: significantly better / worse than the baseline ({settings['baseline']}) by a "
        f"paired two-sided {settings['primary_test']}, {settings['correction']} correction over "
        f"the models of each dataset, alpha {settings['alpha']} (see significance.md)."
        + ("" if any_marks else " No difference is significant.")
    )


def provenance_summary(manifest: dict[str, Any]) -> list[str]:
    lines = [
        f"experiment sha256: {manifest['settings_sha256']}",
        f"command: `{manifest['command']}`",
        "versions: " + ", ".join(f"{k} {v}" for k, v in manifest["versions"].items()),
    ]
    for name, info in manifest.get("datasets", {}).items():
        lines.append(
            f"dataset {name}: "
            + ", ".join(f"{f} sha256 {d[:12]}" for f, d in info["files"].items())
        )
    for name, digest in manifest.get("models", {}).items():
        lines.append(f"model {name}: settings sha256 {digest[:12]}")
    return lines
