"""The registry of model kinds: one entry per kind, each giving the schema clause a
config is validated by, and an unknown kind named with the known ones."""

from __future__ import annotations

import pytest

from sparsebench.core.errors import ConfigError
from sparsebench.kinds.registry import KINDS, configurable_kinds, kind_of, schema_clauses
from sparsebench.workflow.config import load_schema


def test_every_configurable_kind_has_its_schema_clause():
    clauses = {c["if"]["properties"]["kind"]["const"]: c["then"] for c in schema_clauses()}
    assert set(clauses) == set(configurable_kinds())
    assert "tuned" in KINDS and "tuned" not in clauses  # made by sweeps, never written
    assert load_schema()["$defs"]["model"]["allOf"] == schema_clauses()
    for name, then in clauses.items():
        assert then["properties"]["kind"] is True, name
        assert then["additionalProperties"] is False, name


def test_an_unknown_kind_names_the_known_ones():
    with pytest.raises(ConfigError, match=r"unknown model kind 'dense'; known kinds: bm25, "):
        kind_of({"kind": "dense"})
