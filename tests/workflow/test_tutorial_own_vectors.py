"""The tutorial Your own encoder, vectors and runs (docs/tutorials/own-vectors-and-runs.md),
followed as a reader follows it (support/tutorials.py)."""

from __future__ import annotations

import subprocess

import pandas as pd
import pytest
import yaml
from conftest import REPO, SHARED
from support.snakemake_runs import planned_jobs
from support.tutorials import follow, reader_environment, reader_folder

TUTORIALS = REPO / "docs" / "tutorials"
pytestmark = pytest.mark.slow


def test_your_own_encoder_vectors_and_runs(tmp_path):
    """The tutorial; then every model it adds is in the significance tests, and the
    encoder's batch size, a speed setting, reruns nothing."""
    clone = reader_folder(tmp_path, REPO, SHARED)
    follow(TUTORIALS / "own-vectors-and-runs.md", clone, reader_environment())
    significance = pd.read_csv(clone / "results" / "significance.tsv", sep="\t")
    assert set(significance["model"]) == {"trigrams", "counts", "overlap"}
    assert significance["p"].between(0, 1).all()

    def plan() -> set:
        dry = ["snakemake", "--configfile", "mine.yaml", "--dry-run"]
        ran = subprocess.run(
            dry, cwd=clone, env=reader_environment(), capture_output=True, text=True
        )
        assert ran.returncode == 0, ran.stderr[-3000:]
        return planned_jobs(ran)

    before = plan()  # the edited encoder's encodings, as the page shows
    config = yaml.safe_load((clone / "mine.yaml").read_text())
    config["models"]["trigrams"]["batch_size"] = 2
    (clone / "mine.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    assert plan() == before
