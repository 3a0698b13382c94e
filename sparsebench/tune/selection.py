"""Choosing a sweep's variant (sparsebench.tune.sweeps says what a sweep is): on a
training split, or by k-fold cross-validation over the test queries, each query's score
then coming from a variant chosen without it; the tuned run is composed of the chosen
variants' lines, and the choice written down beside it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path
from sparsebench.data.textfiles import read_fields
from sparsebench.tune.sweeps import Sweep


def _points(scores: pd.DataFrame, sweep: Sweep) -> pd.DataFrame:
    """One row per variant (the columns of `scores`): its parameter values."""
    return pd.DataFrame(
        [sweep.variants[v] for v in scores.columns], index=scores.columns.rename("variant")
    )


def choose_on_split(scores: pd.DataFrame, sweep: Sweep, split: str) -> Selection:
    """The point with the best mean over the training split's queries (`scores`)."""
    scores = scores[list(sweep.variants)]
    variant, score = best_variant(scores, scores.index)
    surface = _points(scores, sweep)
    surface[f"mean_{split}_queries"] = scores.mean(axis=0)
    choice = {
        "fold": None,
        "split": split,
        "variant": variant,
        "point": sweep.variants[variant],
        "train_queries": len(scores),
        "train_score": score,
    }
    return Selection(folds=pd.Series(dtype=np.int64), choices=[choice], surface=surface)


def assign_folds(query_ids: Sequence[str], folds: int, seed: int) -> pd.Series:
    """Fold (0..folds-1) of each query: a seeded permutation of the sorted ids, dealt out
    round robin, so fold sizes differ by at most one and do not depend on input order."""
    ids = np.array(sorted(set(map(str, query_ids))), dtype=object)
    if len(ids) < folds:
        raise DataError(f"{len(ids)} judged queries cannot make {folds} folds")
    order = np.random.default_rng(seed).permutation(len(ids))
    fold = np.empty(len(ids), dtype=np.int64)
    fold[order] = np.arange(len(ids)) % folds
    return pd.Series(fold, index=pd.Index(ids, name="query_id"), name="fold")


def best_variant(scores: pd.DataFrame, queries: pd.Index) -> tuple[str, float]:
    """The variant (column) with the highest mean over `queries` (rows); ties go to the
    first in grid order."""
    means = scores.loc[queries].mean(axis=0)
    position = int(np.argmax(means.to_numpy()))  # first maximum
    return str(means.index[position]), float(means.iloc[position])


@dataclass(frozen=True)
class Selection:
    """How a sweep's point was chosen: per fold (or once, on a training split) the variant,
    its point and scores, and the metric surface over the grid."""

    folds: pd.Series  # query_id -> fold (empty on a training split)
    choices: list[dict[str, Any]]  # per fold: variant, point, train score, held-out score
    surface: pd.DataFrame  # per variant: its point and mean scores


def cross_validate(scores: pd.DataFrame, sweep: Sweep) -> Selection:
    """Choose a variant per fold from the other folds' queries.

    `scores`: one row per judged query (index query_id), one column per variant (in grid
    order), the tuning metric's per-query values.
    """
    missing = [v for v in sweep.variants if v not in scores.columns]
    if missing:
        raise DataError(f"no per-query scores for variants {missing}")
    scores = scores[list(sweep.variants)]
    folds = assign_folds(scores.index, sweep.folds, sweep.seed)
    scores = scores.loc[folds.index]
    choices = []
    surface = _points(scores, sweep)
    surface["mean_all_queries"] = scores.mean(axis=0)
    for fold in range(sweep.folds):
        held_out = folds.index[folds.to_numpy() == fold]
        train = folds.index[folds.to_numpy() != fold]
        surface[f"train_mean_fold{fold}"] = scores.loc[train].mean(axis=0)
        variant, train_score = best_variant(scores, train)
        choices.append(
            {
                "fold": fold,
                "variant": variant,
                "point": sweep.variants[variant],
                "train_queries": len(train),
                "train_score": train_score,
                "held_out_queries": sorted(held_out),
                "held_out_score": float(scores.loc[held_out, variant].mean()),
            }
        )
    return Selection(folds=folds, choices=choices, surface=surface)


def per_query_scores(files: Mapping[str, str | Path], metric: str) -> pd.DataFrame:
    """query x variant table of one metric from the variants' per_query.tsv files."""
    columns = {}
    for variant, path in files.items():
        table = pd.read_csv(
            path, sep="\t", dtype={"query_id": str, "metric": str}, keep_default_na=False
        )
        rows = table[table["metric"] == metric]
        if rows.empty:
            raise DataError(f"{path}: no per-query values of {metric}")
        columns[variant] = rows.set_index("query_id")["value"]
    frame = pd.DataFrame(columns)
    if frame.isna().any().any():
        raise DataError("the variants' per-query files do not cover the same queries")
    return frame


def compose_run(
    runs: Mapping[str, str | Path],
    held_out: Mapping[str, Sequence[str] | None],
    tag: str,
    out: str | Path,
) -> None:
    """A run made of each variant's lines for the queries it was chosen for (None: all of
    them), lines copied as written with the tag replaced, grouped by query in sorted order."""
    parts = []
    for variant, queries in held_out.items():
        frame, _ = read_fields(runs[variant], str(runs[variant]))
        if frame.shape[1] != 6:
            raise DataError(f"{runs[variant]}: not a TREC run (6 fields per line)")
        parts.append(frame if queries is None else frame[frame[0].isin(set(queries))])
    table = pd.concat(parts, ignore_index=True).sort_values(0, kind="stable")
    # within a query the chosen variant's own (ranked) order is kept
    lines = table[0].str.cat([table[i] for i in range(1, 5)] + [pd.Series(tag, table.index)], " ")
    with atomic_path(out) as tmp:
        Path(tmp).write_text("\n".join(lines) + "\n" if len(lines) else "", encoding="utf-8")


def write_selection(
    result: Selection, sweep: Sweep, dataset: str, out: str | Path, split: str | None
) -> None:
    payload = {
        "model": sweep.model,
        "dataset": dataset,
        **sweep.as_dict(),
        "chosen_by": f"training split {split}" if split else f"{sweep.folds}-fold cross-validation",
        "choices": result.choices,
    }
    if not split:
        held_out = [c["held_out_score"] for c in result.choices]
        payload["held_out_mean_of_folds"] = float(np.mean(held_out))
    payload.pop("variants")
    with atomic_path(out) as tmp:
        Path(tmp).write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
