"""Every model kind, by the name a config gives it (`kind:`). A new kind is a module with
a ModelKind subclass (sparsebench.kinds.base) and one entry here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sparsebench.core.errors import ConfigError
from sparsebench.kinds.base import ModelKind
from sparsebench.kinds.custom import PYTHON_KIND
from sparsebench.kinds.fusion import FUSION_KIND
from sparsebench.kinds.lexical import BINARY_KIND, BM25_KIND, TFIDF_KIND
from sparsebench.kinds.likelihood import QLD_KIND, QLJM_KIND
from sparsebench.kinds.run import RUN_KIND
from sparsebench.kinds.splade import SPLADE_KIND
from sparsebench.kinds.tuned import TUNED_KIND
from sparsebench.kinds.unicoil import UNICOIL_KIND
from sparsebench.kinds.vectors import VECTORS_KIND

KINDS: dict[str, ModelKind] = {
    kind.name: kind
    for kind in (
        BM25_KIND,
        BINARY_KIND,
        TFIDF_KIND,
        QLD_KIND,
        QLJM_KIND,
        SPLADE_KIND,
        UNICOIL_KIND,
        PYTHON_KIND,
        VECTORS_KIND,
        RUN_KIND,
        FUSION_KIND,
        TUNED_KIND,
    )
}


def configurable_kinds() -> list[str]:
    """The kinds a config may name."""
    return [name for name, kind in KINDS.items() if kind.configurable]


def kind_of(entry: Mapping[str, Any]) -> ModelKind:
    """The kind of a validated model entry."""
    try:
        return KINDS[entry["kind"]]
    except KeyError:
        raise ConfigError(
            f"unknown model kind {entry['kind']!r}; known kinds: {', '.join(configurable_kinds())}"
        ) from None


def schema_clauses() -> list[dict[str, Any]]:
    """The config schema's `if kind = X then <X's schema>` clauses, one per kind."""
    clauses = []
    for name, kind in KINDS.items():
        if not kind.configurable:
            continue
        then = {
            "description": kind.description,
            "additionalProperties": False,
            "properties": {"kind": True, **kind.schema.get("properties", {})},
        }
        if kind.schema.get("required"):
            then["required"] = list(kind.schema["required"])
        clauses.append({"if": {"properties": {"kind": {"const": name}}}, "then": then})
    return clauses
