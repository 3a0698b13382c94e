"""The tutorial MIRACL in 18 languages (docs/tutorials/miracl.md), followed as a reader
follows it (support/tutorials.py), on a stand-in for the hub's two MIRACL repositories
(support/miracl_standin.py)."""

from __future__ import annotations

import pytest
from conftest import REPO, SHARED
from support.hubserver import HubServer, hub_env
from support.miracl_standin import build_miracl_hub
from support.tutorials import follow, reader_environment, reader_folder

TUTORIALS = REPO / "docs" / "tutorials"
pytestmark = pytest.mark.slow


def test_miracl_in_18_languages(tmp_path):
    root = build_miracl_hub(tmp_path / "hub")
    clone = reader_folder(tmp_path / "reader", REPO, SHARED)
    with HubServer(root) as server:
        online = hub_env(server, tmp_path / "cache", base=reader_environment())
        for offline in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
            online.pop(offline, None)
        follow(TUTORIALS / "miracl.md", clone, online)
