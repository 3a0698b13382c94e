"""Hold measured figures against published ones, as Pyserini's two-click reproductions do.

A table of published figures is long: one row per (dataset, system, metric) with its value
and the source it was read from. Each (model x dataset x metric) measured here that has a
published counterpart is OK (within `ok`, default 0.0005), OKISH (within `okish`, default
0.005) or FAIL; on a subsample of the corpus, "not comparable (subsampled)". Built-in
tables: beir (nDCG@10 and Recall@100, cqadupstack forum by forum), miracl (BM25 per
language), msmarco (MS MARCO passage dev, TREC DL 2019 and 2020).
"""

from __future__ import annotations

import io
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from sparsebench.analysis.languages import analyzer_label
from sparsebench.core.errors import DataError
from sparsebench.evaluate import leaderboard
from sparsebench.evaluate.published import (
    BUILTIN,
    COLUMNS,
    CONDITIONS,
    NOT_COMPARABLE,
    OTHER_ANALYZER,
    OTHER_SCORING,
    RESULT_COLUMNS,
    builtin_text,
)


def _read_table(name: str) -> pd.DataFrame:
    """One table of published figures: long, one row per dataset, system and metric (with
    its value, and optionally its source and the conditions that made it)."""
    if name in BUILTIN:
        where, text = f"sparsebench/resources/reference/{name}.tsv", builtin_text(name)
    else:
        path = Path(name)
        if not path.is_file():
            raise DataError(
                f"no table of expected figures at {name} (built-in: {', '.join(BUILTIN)})"
            )
        where, text = str(path), path.read_text(encoding="utf-8")
    table = pd.read_csv(io.StringIO(text), sep="\t", comment="#", dtype=str)
    missing = [c for c in ("dataset", "system", "metric", "value") if c not in table.columns]
    if missing:
        raise DataError(
            f"{where}: not a table of expected figures: no column {', '.join(missing)} (its "
            "columns: dataset, system, metric, value, and optionally source)"
        )
    if "source" not in table.columns:
        table["source"] = where
    for condition in CONDITIONS:
        if condition not in table.columns:
            table[condition] = ""
    table = table[COLUMNS].fillna(dict.fromkeys(CONDITIONS, "")).copy()
    table["value"] = pd.to_numeric(table["value"], errors="raise")
    return table


def load_expected(sources: str | Sequence[str]) -> pd.DataFrame:
    """Published figures from built-in tables (by name) and TSV files (by path)."""
    names = [sources] if isinstance(sources, str) else list(sources)
    expected = pd.concat([_read_table(name) for name in names], ignore_index=True)
    duplicated = expected.duplicated(["dataset", "system", "metric"], keep=False)
    if duplicated.any():
        first = expected[duplicated].iloc[0]
        raise DataError(
            f"the expected figures give {first['system']} on {first['dataset']} "
            f"({first['metric']}) more than once"
        )
    return expected


def check(
    measured: pd.DataFrame,
    expected: pd.DataFrame,
    models: Mapping[str, str],
    datasets: Mapping[str, str],
    ok: float = 0.0005,
    okish: float = 0.005,
    subsampled: Collection[str] = (),
    analyzers: Mapping[tuple[str, str], str] | None = None,
    scorings: Mapping[tuple[str, str], str] | None = None,
) -> pd.DataFrame:
    """One row per measured (model, dataset, metric) that has a published figure.

    measured: long (model, dataset, metric, value); models: model -> expected system;
    datasets: dataset -> expected dataset row; subsampled: datasets run on a subsample of
    their corpus, whose figures are NOT_COMPARABLE with full-corpus ones (never FAIL);
    analyzers: (model, dataset) -> the analyzer its run used, held against the
    published figure's (OTHER_ANALYZER where they differ); scorings: (model, dataset) ->
    how its run scored ("integer impacts" or "float weights"), likewise (OTHER_SCORING).
    """
    for model, system in models.items():
        if model not in set(measured["model"]):
            raise DataError(f"model {model!r} has no measured figures")
        if system not in set(expected["system"]):
            raise DataError(
                f"the expected figures have no system {system!r} "
                f"(they have: {', '.join(dict.fromkeys(expected['system']))})"
            )
    chosen = measured[measured["model"].isin(list(models))].copy()
    chosen["expected_system"] = chosen["model"].map(models)
    chosen["expected_dataset"] = chosen["dataset"].map(datasets)
    renamed = {"dataset": "expected_dataset", "system": "expected_system", "value": "expected"}
    joined = chosen.merge(
        expected.rename(columns=renamed),
        on=["expected_dataset", "expected_system", "metric"],
        how="inner",
    ).rename(columns={"value": "measured"})
    joined = joined.dropna(subset=["measured", "expected"])
    joined["difference"] = joined["measured"] - joined["expected"]
    size = joined["difference"].abs()
    joined["status"] = "FAIL"
    joined.loc[size <= okish + 1e-12, "status"] = "OKISH"
    joined.loc[size <= ok + 1e-12, "status"] = "OK"
    pairs = list(zip(joined["model"], joined["dataset"], strict=True))
    for condition, given in (("analyzer", analyzers), ("scoring", scorings)):
        given = given or {}
        joined = joined.rename(columns={condition: f"expected_{condition}"})
        joined[condition] = [given.get(pair, "") for pair in pairs]
        other = (joined[f"expected_{condition}"] != "") & (joined[condition] != "")
        other &= joined[f"expected_{condition}"] != joined[condition]
        joined.loc[other, "status"] = CONDITIONS[condition]
    joined.loc[joined["dataset"].isin(list(subsampled)), "status"] = NOT_COMPARABLE
    order = {m: i for i, m in enumerate(models)}
    joined["_model"] = joined["model"].map(order)
    joined = joined.sort_values(["_model", "dataset", "metric"], kind="stable")
    return joined[RESULT_COLUMNS].reset_index(drop=True)


def markdown(result: pd.DataFrame, ok: float, okish: float) -> str:
    lines = ["## Reproduction check", ""]
    if result.empty:
        return "\n".join(
            lines
            + [
                "No figure measured here has a published counterpart to compare with (see "
                "`reproduction` in the experiment's config).",
                "",
            ]
        )
    counts = result["status"].value_counts()
    summary = ", ".join(f"{counts.get(s, 0)} {s}" for s in ("OK", "OKISH", "FAIL"))
    for status in (NOT_COMPARABLE, *CONDITIONS.values()):
        if counts.get(status):
            summary += f", {counts[status]} {status}"
    lines += [
        f"OK: within {ok}; OKISH: within {okish}; FAIL: further; {NOT_COMPARABLE}: measured "
        f"on a subsample of the corpus; {OTHER_ANALYZER}: the run's analyzer is not the one "
        f"of the published figure; {OTHER_SCORING}: the published figure scored integer "
        f"impacts (set the model's quantization). {summary}.",
        "",
        "| model | dataset | metric | published | measured | difference | status | made with "
        "| source |",
        "|---|---|---|---:|---:|---:|---|---|---|",
    ]
    for r in result.itertuples(index=False):
        made = [
            f"{ours or '?'} (published: {theirs})" if theirs and theirs != ours else ours
            for ours, theirs in ((r.analyzer, r.expected_analyzer), (r.scoring, r.expected_scoring))
        ]
        analyzer = "; ".join(m for m in made if m)
        lines.append(
            f"| {r.model} | {r.dataset} | {r.metric} | {r.expected:.4f} ({r.expected_system}) "
            f"| {r.measured:.4f} | {r.difference:+.4f} | {r.status} | {analyzer} | {r.source} |"
        )
    return "\n".join(lines + [""])


def measured_from_leaderboard(board: pd.DataFrame, metric: str) -> pd.DataFrame:
    """A wide leaderboard (rows models, columns datasets) as long measured figures."""
    columns = leaderboard.score_columns(board.columns, with_average=False)
    long = board[columns].reset_index().melt(id_vars=board.index.name or "index")
    long.columns = ["model", "dataset", "value"]
    long["metric"] = metric
    return long[["model", "dataset", "metric", "value"]]


def run_conditions(
    searched: Iterable[Mapping[str, Any]], models: Collection[str]
) -> dict[str, dict[tuple[str, str], str]]:
    """What made each (model, dataset) run of `models`, as the reproduction check holds it
    against published figures: {"analyzer": the lexical models' analyzer (analyzer_label),
    "scoring": the learned models' "integer impacts" (quantised, or pre-encoded vectors)
    or "float weights"}. `searched`: how each pair searched here was made (model, dataset,
    the settings of its document encoding, its weighting), as the workflow's plan computed
    it (sparsebench.workflow.plan.Plan.searched_pairs)."""
    analyzers, scorings = {}, {}
    for search in searched:
        pair = (search["model"], search["dataset"])
        if pair[0] not in models:
            continue
        encoding, weighting = search["documents"], search["weighting"]
        if "analyzer" in encoding:
            analyzers[pair] = analyzer_label(encoding["analyzer"])
        elif weighting.get("quantization") or weighting["kind"] == "vectors":
            scorings[pair] = "integer impacts"
        else:
            scorings[pair] = "float weights"
    return {"analyzer": analyzers, "scoring": scorings}
