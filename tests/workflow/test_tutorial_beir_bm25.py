"""The tutorial BM25 on BEIR (docs/tutorials/beir-bm25.md), followed as a reader follows
it (support/tutorials.py), and the README's picture of its leaderboard."""

from __future__ import annotations

import pytest
from conftest import REPO, SHARED
from support.tutorials import check_shown, follow, reader_environment, reader_folder

TUTORIALS = REPO / "docs" / "tutorials"
pytestmark = pytest.mark.slow


def test_beir_bm25_against_the_published_table(tmp_path):
    """The tutorial, and the README's picture of its leaderboard (each row a prefix of
    the leaderboard's row: the README leaves out the last columns)."""
    clone = reader_folder(tmp_path, REPO, SHARED)
    follow(TUTORIALS / "beir-bm25.md", clone, reader_environment())
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    picture = readme.split("<!-- leaderboard:begin")[1].split("-->", 1)[1]
    picture = picture.split("<!-- leaderboard:end -->")[0]
    rows = [row.rstrip(" |") + " ..." for row in picture.splitlines() if row.startswith("| ")]
    check_shown("\n".join(rows), (clone / "results" / "leaderboard.md").read_text(), "README.md")
