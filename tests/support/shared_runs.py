"""Workflow runs that several test files read, made once per test session: under
pytest-xdist the first worker to ask makes it under a file lock while the others wait,
then every worker reads the same folder. Tests read these folders and never change
them."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import shared_path
from filelock import FileLock
from support.snakemake_runs import snakemake


def shared_folder(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """The folder `name` of this session, made by make(folder) once for all workers."""
    root = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        root = root.parent  # the session's folder, above each worker's own
    folder, done = root / f"shared-{name}", root / f"shared-{name}.done"
    with FileLock(str(root / f"shared-{name}.lock")):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


# adi (from ../shared) and the built-in minibeir; two BM25 variants that share their
# document encoding: every job and every file of a default run
REPORTED = {
    "datasets": {
        "adi": {"source": "local", "path": str(shared_path("data", "adi"))},
        "minibeir": {"source": "builtin", "name": "minibeir"},
    },
    "models": {
        "bm25": {"kind": "bm25", "k1": 0.9, "b": 0.4},
        "bm25-classic-idf": {"kind": "bm25", "k1": 0.9, "b": 0.4, "idf": "classic"},
    },
    "significance": {"resamples": 1000},
}


def _report(folder: Path) -> None:
    configfile = folder / "config.yaml"
    configfile.write_text(yaml.safe_dump(REPORTED))
    run = snakemake(folder / "work", configfile=configfile)
    (folder / "run.log").write_text(run.stdout + run.stderr)
    snakemake(folder / "work", "--report", str(folder / "report.html"), configfile=configfile)


def reported_experiment(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The default target of REPORTED and its packaged report: (the working directory,
    report.html, what the run printed)."""
    folder = shared_folder(tmp_path_factory, "reported", _report)
    return folder / "work", folder / "report.html", (folder / "run.log").read_text()
