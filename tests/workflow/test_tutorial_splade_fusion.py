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
    """Both pages as written; the second reuses the first's runs, as it says: no run file
    of BM25 or SPLADE is made again."""
    clone = reader_folder(tmp_path, REPO, SHARED)
    follow(TUTORIALS / "bm25-vs-splade.md", clone, reader_environment())
    runs = sorted((clone / "results" / "runs").glob("*/*.trec"))
    made = {run: run.stat().st_mtime_ns for run in runs}
    assert {run.parent.name for run in runs} == {"bm25", "splade-tiny", "tfidf"}
    follow(TUTORIALS / "fusion.md", clone, reader_environment())
    assert {run: run.stat().st_mtime_ns for run in runs} == made
    assert (clone / "results" / "runs" / "hybrid" / "time.trec").is_file()
