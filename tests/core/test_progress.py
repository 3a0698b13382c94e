"""Long stages report progress (rate, and ETA when the total is known) in the job's log."""

from __future__ import annotations

import hashlib
import logging
import re

import pytest
from conftest import run_stages
from support.archive_server import PAYLOAD

from sparsebench.data.download import download
from sparsebench.workflow.logs import stage_logging


@pytest.fixture
def job_log(tmp_path):
    """A stage's log file, as a Snakemake job has; the root logger is restored after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield tmp_path / "job.log"
    for handler in root.handlers:
        if handler not in handlers:
            handler.close()
    root.handlers[:], root.level = handlers, level


def bars(text: str) -> dict[str, str]:
    """The last state of each progress bar in a log: description -> line."""
    states = re.split(r"[\r\n]", text)
    return {m.group(1): s for s in states if (m := re.match(r"([a-z ]+): ", s))}


def test_every_long_stage_shows_rate_and_eta_in_its_log(tiny_collection, tmp_path, job_log):
    with stage_logging(job_log, "pair"):
        run_stages(tiny_collection, tmp_path / "out", shard_size=3)
    shown = bars(job_log.read_text())
    for description, unit in (
        ("reading corpus", "B"),  # bytes of corpus.jsonl: prepare
        ("encoding texts", "text"),  # documents of a shard, then the queries
        ("retrieving", "query"),
        ("evaluating", "step"),  # ranking, then one step per measure
    ):
        line = shown[description]
        assert "100%" in line and f"{unit}/s]" in line, line
        assert re.search(r"\[\d\d:\d\d<\d\d:\d\d", line), line  # elapsed < remaining


def test_download_shows_bytes(server, tmp_path, job_log):  # noqa: F811
    with stage_logging(job_log, "download"):
        download(f"{server}/good.zip", tmp_path / "a.zip", hashlib.md5(PAYLOAD).hexdigest())
    line = bars(job_log.read_text())["downloading"]
    assert "100%" in line and f"{len(PAYLOAD) / 1024:.1f}k/{len(PAYLOAD) / 1024:.1f}k" in line
