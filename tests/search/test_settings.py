"""The speed settings of a search travel as one object (sparsebench.search.settings)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace

import pytest

from sparsebench.search.settings import SearchSettings
from sparsebench.workflow.config import SPEED_SETTINGS, validate_config

MINIBEIR = {"source": "builtin", "name": "minibeir"}
DEFAULTS = validate_config({"datasets": {"d": MINIBEIR}, "models": {"m": {"kind": "bm25"}}})


def test_the_defaults_are_the_configs():
    """A search without settings runs as a default config's retrieval section says."""
    assert SearchSettings() == SearchSettings.from_config(DEFAULTS["retrieval"])
    assert SearchSettings.from_config(DEFAULTS["retrieval"], threads=3).threads == 3


def test_every_speed_setting_of_the_retrieval_section_is_one_of_its_fields():
    fields = set(SearchSettings.__dataclass_fields__)
    assert set(SPEED_SETTINGS["retrieval"]) <= fields
    assert set(DEFAULTS["retrieval"]) - fields == {"k", "partitions"}  # what a run depends on


def test_the_settings_are_frozen_and_give_every_backend_its_keywords():
    search = SearchSettings(query_batch_size=16, threads=2, strategy="maxscore")
    with pytest.raises(FrozenInstanceError):
        search.threads = 4  # type: ignore[misc]
    assert search.engine_options() == {
        "query_batch_size": 16,
        "max_block_mb": 1024,
        "threads": 2,
        "device": "auto",
        "strategy": "maxscore",
    }
    assert replace(search, threads=1).engine_options()["threads"] == 1
