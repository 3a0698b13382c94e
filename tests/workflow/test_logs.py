"""A job's log, and how its process ends: a Snakemake script's stage closes its log and
ends its process at once when it succeeded, the interpreter's teardown (native
libraries' static destructors, where a thread pool can abort a finished job) skipped."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

from conftest import REPO

JOB = """
import atexit, pathlib, sys
from sparsebench.core.errors import DataError
from sparsebench.workflow.logs import stage_logging

folder = pathlib.Path(sys.argv[1])
atexit.register(lambda: (folder / "teardown").write_text("ran"))
with stage_logging(folder / "job.log", "x", end_process=True) as log:
    log.info("the stage's last line")
    print("printed", end="")  # buffered: a pipe
    sys.stderr.write("to stderr")
    if sys.argv[2] == "fail":
        raise DataError("the input is wrong")
(folder / "after").write_text("ran")
"""


def run_job(tmp_path, how: str) -> subprocess.CompletedProcess:
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(JOB))
    command = [sys.executable, str(script), str(tmp_path), how]
    return subprocess.run(command, capture_output=True, text=True, cwd=REPO)


def test_a_finished_job_closes_its_log_and_ends_without_the_teardown(tmp_path):
    done = run_job(tmp_path, "succeed")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "printed" and "to stderr" in done.stderr  # flushed first
    log = (tmp_path / "job.log").read_text()
    assert re.search(r"INFO sparsebench\.x: the stage's last line\n\Z", log)
    assert not (tmp_path / "teardown").exists()  # the interpreter's exit never ran
    assert not (tmp_path / "after").exists()


def test_a_failed_job_still_exits_with_its_message_and_status_1(tmp_path):
    done = run_job(tmp_path, "fail")
    assert done.returncode == 1
    assert "x failed: the input is wrong" in (tmp_path / "job.log").read_text()
    assert (tmp_path / "teardown").read_text() == "ran"  # an ordinary exit


def test_every_job_script_ends_its_process_when_done():
    for script in sorted((REPO / "scripts").glob("*.py")):
        text = script.read_text()
        assert re.search(r"^with stage_logging\(.*end_process=True\):$", text, re.M), script.name
