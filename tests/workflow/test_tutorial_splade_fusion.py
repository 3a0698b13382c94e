"""The tutorials BM25 against SPLADE and Fusion (docs/tutorials/bm25-vs-splade.md,
fusion.md), followed one after the other in one folder, as a reader follows them
(support/tutorials.py): the second reuses the first's runs."""

from __future__ import annotations

import pytest
from conftest import REPO, SHARED
from support.tutorials import follow, reader_environment, reader_folder

TUTORIALS = REPO / "docs" / "tutorials"
pytestmark = pytest.mark.slow


def test_bm25_against_splade_then_their_fusion(tmp_path):
    clone = reader_folder(tmp_path, REPO, SHARED)
    follow(TUTORIALS / "bm25-vs-splade.md", clone, reader_environment())
    follow(TUTORIALS / "fusion.md", clone, reader_environment())
