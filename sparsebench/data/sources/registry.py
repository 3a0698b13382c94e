"""Every dataset source, by the name a config gives it (`source:`). A new source is a
module with a DatasetSource subclass (sparsebench.data.sources.base) and one entry here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sparsebench.core.errors import ConfigError
from sparsebench.data.sources.base import DatasetSource
from sparsebench.data.sources.beir import BEIR_SOURCE
from sparsebench.data.sources.builtin import BUILTIN_SOURCE
from sparsebench.data.sources.files import FILES_SOURCE
from sparsebench.data.sources.irdatasets import IR_DATASETS_SOURCE
from sparsebench.data.sources.jsonl import JSONL_SOURCE
from sparsebench.data.sources.local import LOCAL_SOURCE
from sparsebench.data.sources.miracl import MIRACL_SOURCE
from sparsebench.data.sources.mmarco import MMARCO_SOURCE

SOURCES: dict[str, DatasetSource] = {
    source.name: source
    for source in (
        BUILTIN_SOURCE,
        LOCAL_SOURCE,
        BEIR_SOURCE,
        FILES_SOURCE,
        MIRACL_SOURCE,
        MMARCO_SOURCE,
        IR_DATASETS_SOURCE,
        JSONL_SOURCE,
    )
}


def source_of(entry: Mapping[str, Any]) -> DatasetSource:
    """The source of a validated dataset entry (or of a corpus identity)."""
    try:
        return SOURCES[entry["source"]]
    except KeyError:
        raise ConfigError(
            f"unknown dataset source {entry['source']!r}; known sources: {', '.join(SOURCES)}"
        ) from None


def named_source(value: Any) -> DatasetSource | None:
    """The source a raw (not yet validated) entry names, if it names one."""
    return SOURCES.get(value) if isinstance(value, str) else None


def schema_clauses(shared: Iterable[str]) -> list[dict[str, Any]]:
    """The config schema's `if source = X then <X's schema>` clauses, one per source;
    `shared`: the keys every dataset takes ($defs/dataset/properties)."""
    clauses = []
    for name, source in SOURCES.items():
        then = {
            "description": source.description,
            "additionalProperties": False,
            "properties": {
                **{key: True for key in shared},
                **source.schema.get("properties", {}),
            },
        }
        if source.schema.get("required"):
            then["required"] = list(source.schema["required"])
        clauses.append({"if": {"properties": {"source": {"const": name}}}, "then": then})
    return clauses


def dataset_problems(datasets: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What each source checks of its validated entries when the config is read, one line
    per problem, each naming the key it concerns (config.datasets.<name>.<key>)."""
    return [
        f"config.datasets.{name}.{key}: {text}"
        for name, entry in datasets.items()
        for key, text in [*source_of(entry).problems(entry), *_expansion_problems(entry)]
    ]


def _expansion_problems(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What is wrong with a dataset's `expansions`, seen from the config (any source)."""
    expansions = entry.get("expansions")
    if not expansions:
        return []
    problems = []
    if not Path(expansions["path"]).expanduser().is_file():
        problems.append(("expansions.path", f"no expansions file {expansions['path']}"))
    if expansions.get("format", "lines") == "lines" and "count" in expansions:
        problems.append(("expansions.count", "count keeps predictions of jsonl records only"))
    return problems
