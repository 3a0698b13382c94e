"""benchmarks/bench_msmarco_scale.py runs the workflow's own stage functions: run at a
tiny size, so that a change to a stage's arguments breaks this test rather than the
benchmark on the day it is needed, and its packed postings write the plain ones' run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_msmarco_scale.py"


def bench(folder: Path, *arguments: str) -> str:
    command = [sys.executable, str(SCRIPT), "--folder", str(folder), "--docs", "3000"]
    done = subprocess.run(
        [*command, "--queries", "20", *arguments], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
def test_the_single_job_runs_plain_and_packed_to_the_same_run(tmp_path: Path) -> None:
    plain = bench(tmp_path, "--stages", "generate", "single")
    for stage in ("| generate |", "| stack |", "| weigh |", "| retrieve |"):
        assert stage in plain
    packed = bench(tmp_path, "--packed", "--stages", "single")
    assert "packed postings" in packed.splitlines()[0]
    assert "the packed postings' run against the plain postings': identical" in packed
    assert (tmp_path / "single-packed" / "postings.npz").stat().st_size < (
        tmp_path / "single" / "postings.npz"
    ).stat().st_size
