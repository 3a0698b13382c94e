"""Figures drawn at once (sparsebench.report.drawing): every task runs, in forked
processes when more than one worker is asked for, and a failing task's error reaches the
caller."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sparsebench.report.drawing import run_all


def write_pid(path: Path, text: str) -> None:
    path.write_text(f"{text} {os.getpid()}")


def fail(message: str) -> None:
    raise ValueError(message)


@pytest.mark.parametrize("workers", [1, 3])
def test_every_task_runs(tmp_path, workers):
    tasks = [(write_pid, (tmp_path / f"{i}.txt", f"task {i}")) for i in range(7)]
    run_all(tasks, workers)
    written = {p.name: p.read_text().split() for p in tmp_path.iterdir()}
    assert sorted(written) == sorted(f"{i}.txt" for i in range(7))
    assert all(words[:2] == ["task", name.removesuffix(".txt")] for name, words in written.items())
    pids = {words[2] for words in written.values()}
    if workers == 1:
        assert pids == {str(os.getpid())}  # in this process
    else:
        assert str(os.getpid()) not in pids  # in forked ones


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_task_raises_its_error(tmp_path, workers):
    tasks = [(write_pid, (tmp_path / "a.txt", "a")), (fail, ("the figure failed",))]
    with pytest.raises(ValueError, match="the figure failed"):
        run_all(tasks, workers)
    assert (tmp_path / "a.txt").exists()
