"""How the queries of a run and of its qrels match, and how many of the evaluated queries
a run has results for. A run that covers only some (an external run of 3 of 35 queries)
scores the others 0 or leaves them out, so its mean is not the same quantity as the
other models': the evaluate job warns, records the counts in its manifest, and the
leaderboard and the significance report mark the cell.

A query that a model run here retrieves nothing for (none of its terms is in the
corpus) is the model's own result: with the query set 'complete' it scores 0 like any
miss, and the cell is not marked. Runs made elsewhere, and every run when missing
queries are left out of the mean (query set 'run'), are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sparsebench.core.fileio import read_json

MANIFEST_KEY = "queries"  # where an evaluation manifest keeps the counts


_EXAMPLES = 5


@dataclass(frozen=True)
class QueryOverlap:
    """How the queries of a run and of its qrels match (ids compared as exact strings)."""

    n_run: int  # distinct queries of the run
    n_judged: int  # distinct queries of the qrels
    unjudged: list[str]  # queries of the run without judgments (sorted): never scored
    missing: list[str]  # judged queries the run lacks (sorted): 0 or left out
    respelled: list[tuple[str, str]]  # (run id, qrels id) pairs equal but for their spelling

    @property
    def partial(self) -> bool:
        """Judged queries are missing from the run (queries of the run without judgments
        never count, so they change no score)."""
        return bool(self.missing)

    def describe(self, query_set: str | None = "complete") -> str:
        """One paragraph for a warning or an error (with what happens to the missing
        queries under `query_set`, unless None)."""

        def examples(ids: Sequence[str]) -> str:
            return ", ".join(map(repr, ids[:_EXAMPLES])) + (", ..." if len(ids) > _EXAMPLES else "")

        parts = [
            f"{len(self.missing)} of the {self.n_judged} queries of the qrels are missing from "
            f"the run" + (f" (e.g. {examples(self.missing)})" if self.missing else ""),
            f"{len(self.unjudged)} of the {self.n_run} queries of the run are not in the qrels"
            + (f" (e.g. {examples(self.unjudged)})" if self.unjudged else ""),
        ]
        text = "; ".join(parts)
        if self.missing and query_set is not None:
            text += (
                "; the missing queries score 0 (query set 'complete')"
                if query_set == "complete"
                else "; the missing queries are left out (query set 'run')"
            )
        if self.respelled:
            run_id, qrels_id = self.respelled[0]
            text += (
                f". {len(self.respelled)} of the run's ids equal judged ids written "
                f"differently (e.g. run {run_id!r} vs qrels {qrels_id!r}: leading zeros, "
                "case, or a number written as '1.0'); ids are compared as exact strings, so "
                "write them in the run as the qrels do"
            )
        return text


def _spelling(query_id: str) -> str:
    """An id without what a tool may change when it writes the same id: case, padding,
    leading zeros, a number's notation ('001', '1.0' and '1' are all '1')."""
    text = query_id.strip().lower()
    if text.isdigit():
        return str(int(text))
    try:
        number = float(text)
    except ValueError:
        return text
    return str(int(number)) if number.is_integer() and abs(number) < 2**53 else text


def _natural(query_id: str) -> list:
    """Sort key: numbers within ids in numeric order ('2' before '10')."""
    return [(0, int(p), p) if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", str(query_id))]


def query_overlap(run_queries: Iterable[str], qrels_queries: Iterable[str]) -> QueryOverlap:
    """Compare the query ids of a run and of its qrels (each id as often as it comes)."""
    in_run = set(pd.unique(pd.Series(run_queries)).tolist())
    judged = set(pd.unique(pd.Series(qrels_queries)).tolist())
    unjudged = sorted(in_run - judged, key=_natural)
    missing = sorted(judged - in_run, key=_natural)
    by_spelling = {}
    for query_id in unjudged:
        by_spelling.setdefault(_spelling(str(query_id)), query_id)
    respelled = [
        (by_spelling[key], query_id)
        for query_id in missing
        if (key := _spelling(str(query_id))) in by_spelling
    ]
    return QueryOverlap(len(in_run), len(judged), unjudged, missing, respelled)


@dataclass(frozen=True)
class Coverage:
    """Judged queries the run has results for, of all judged queries of the dataset."""

    in_run: int
    judged: int

    @classmethod
    def of(cls, overlap: QueryOverlap) -> Coverage:
        return cls(in_run=overlap.n_judged - len(overlap.missing), judged=overlap.n_judged)

    @property
    def partial(self) -> bool:
        return self.in_run < self.judged

    def __add__(self, other: Coverage) -> Coverage:
        return Coverage(self.in_run + other.in_run, self.judged + other.judged)

    def describe(self) -> str:
        return f"{self.in_run} of {self.judged} queries"

    def as_dict(self) -> dict[str, int]:
        return {"in_run": self.in_run, "judged": self.judged}


def partial_pairs(
    pairs: Sequence[tuple[str, str]],
    manifests: Sequence[str | Path],
    experiment: Mapping[str, Any],
) -> dict[tuple[str, str], Coverage]:
    """(model, dataset) -> coverage of the pairs whose run misses evaluated queries and is
    not comparable for it (see the module's docstring), from their evaluation manifests
    (in the order of `pairs`); `experiment`: the settings the results come from."""
    from sparsebench.kinds.registry import kind_of

    every_run = experiment["evaluation"]["query_set"] != "complete"
    found = {}
    for pair, path in zip(pairs, manifests, strict=True):
        entry = experiment["models"][pair[0]]
        if not every_run and kind_of(entry).run_rule != "import_run":
            continue
        counts = read_json(path).get(MANIFEST_KEY)
        if counts:
            coverage = Coverage(int(counts["in_run"]), int(counts["judged"]))
            if coverage.partial:
                found[tuple(pair)] = coverage
    return found


def by_column(
    partial: Mapping[tuple[str, str], Coverage], groups: Mapping[str, str]
) -> dict[tuple[str, str], Coverage]:
    """The same per leaderboard cell: a group's forums (cqadupstack) summed into its column."""
    cells: dict[tuple[str, str], Coverage] = {}
    for (model, dataset), coverage in partial.items():
        key = (model, groups.get(dataset, dataset))
        cells[key] = cells[key] + coverage if key in cells else coverage
    return cells


def notes(partial: Mapping[tuple[str, str], Coverage], query_set: str) -> list[str]:
    """One line per partial pair, for the markdown reports."""
    fate = "score 0 (query set 'complete')" if query_set == "complete" else "are left out"
    return [
        f"PARTIAL: {model} on {dataset}: the run has results for {c.describe()} evaluated; "
        f"the {c.judged - c.in_run} others {fate}, so the score is not comparable with the "
        "other models'."
        for (model, dataset), c in partial.items()
    ]
