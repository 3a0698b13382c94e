"""The tutorial Your own encoder, vectors and runs (docs/tutorials/own-vectors-and-runs.md),
followed as a reader follows it (support/tutorials.py)."""

from __future__ import annotations

import pytest
from conftest import REPO, SHARED
from support.tutorials import follow, reader_environment, reader_folder

TUTORIALS = REPO / "docs" / "tutorials"
pytestmark = pytest.mark.slow


def test_your_own_encoder_vectors_and_runs(tmp_path):
    clone = reader_folder(tmp_path, REPO, SHARED)
    follow(TUTORIALS / "own-vectors-and-runs.md", clone, reader_environment())
