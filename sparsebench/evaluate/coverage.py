"""How many of the evaluated queries a run has results for. A run that covers only some
(an external run of 3 of 35 queries) scores the others 0 or leaves them out, so its mean
is not the same quantity as the other models': the evaluate job warns, records the
counts in its manifest, and the leaderboard and the significance report mark the cell.

A query that a model run here retrieves nothing for (none of its terms is in the
corpus) is the model's own result: with the query set 'complete' it scores 0 like any
miss, and the cell is not marked. Runs made elsewhere, and every run when missing
queries are left out of the mean (query set 'run'), are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sparsebench.evaluate.metrics import QueryOverlap
from sparsebench.fileio import read_json

MANIFEST_KEY = "queries"  # where an evaluation manifest keeps the counts


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
