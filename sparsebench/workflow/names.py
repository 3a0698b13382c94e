"""Names that become folders and leaderboard columns. Two entries that land in the same
folder (results/eval/{model}/{dataset}) or the same column would replace each other
without a word, and a dataset named like one of the leaderboard's own columns would
vanish among them: such names are refused when the config is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sparsebench.core.errors import ConfigError
from sparsebench.evaluate.columns import OWN_COLUMNS


class UniqueNames(dict):
    """Entries by name, made one by one (datasets as groups expand, models as sweeps do),
    refusing a name made twice and saying where both come from."""

    def __init__(self, section: str) -> None:
        super().__init__()
        self.section = section
        self.origins: dict[str, str] = {}

    def add(self, name: str, entry: Any, origin: str) -> None:
        if name in self:
            raise ConfigError(
                f"config.{self.section}.{name}: {origin} and {self.origins[name]} have the "
                "same name, so both would write the same result files and leaderboard "
                "row or column; rename one"
            )
        self[name] = entry
        self.origins[name] = origin


def case_clashes(names: Iterable[str]) -> list[tuple[str, str]]:
    """Pairs of names that differ only in case: one folder on the case-insensitive file
    systems of macOS and Windows."""
    seen: dict[str, str] = {}
    clashes = []
    for name in names:
        other = seen.setdefault(name.casefold(), name)
        if other != name:
            clashes.append((other, name))
    return clashes


def name_problems(datasets: Mapping[str, Mapping[str, Any]], models: Iterable[str]) -> list[str]:
    """What is wrong with the names of the (expanded) datasets and the models: leaderboard
    columns that clash with its own columns or with each other, names that differ only in
    case."""
    problems = []
    columns: dict[str, str] = {}  # leaderboard column -> the dataset it first comes from
    for name, entry in datasets.items():
        column = entry.get("group") or name
        where = f"config.datasets.{name}"
        if column in OWN_COLUMNS and column not in columns:
            problems.append(
                f"{where}: the leaderboard has a column {column!r} of its own "
                f"({', '.join(OWN_COLUMNS)}); rename the dataset"
                + (f" (its group {column!r})" if column != name else "")
            )
        first = columns.setdefault(column, name)
        if first != name and (entry.get("group") is None or datasets[first].get("group") is None):
            problems.append(
                f"{where}: its leaderboard column {column!r} is also that of the dataset "
                f"{first!r}; rename one (or its group)"
            )
    for section, names in (("datasets", datasets), ("models", models)):
        for first, second in case_clashes(names):
            problems.append(
                f"config.{section}.{second}: differs from {first!r} only in case, the same "
                "folder under results/ on case-insensitive file systems; rename one"
            )
    return problems
