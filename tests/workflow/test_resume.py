"""A killed run (kill -9 in the middle of encoding) resumes to byte-identical results."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time

import pytest
import scipy.sparse as sp
import yaml
from conftest import shared_path
from support.samefiles import assert_same_trees
from support.snakemake_runs import planned_jobs, snakemake, snakemake_command

pytestmark = pytest.mark.slow


def outputs(workdir):
    results = workdir / "results"
    files = sorted(results.glob("runs/*/*.trec")) + sorted(results.glob("eval/*/*/metrics.json"))
    files += sorted(results.glob("eval/*/*/per_query.tsv")) + [results / "leaderboard.tsv"]
    # figures of results (not of timings) are the same bytes too
    files += sorted(results.glob("report/leaderboard.*")) + [results / "intervals.tsv"]
    files += sorted(results.glob("report/precision_recall/*"))
    return {p.relative_to(results).as_posix(): p.read_bytes() for p in files}


def finished_shards(encode_dir):
    """Shards under their final names (a half-written one is a hidden temporary file)."""
    return sorted(p for p in encode_dir.glob("*/*/shards/*.npz") if not p.name.startswith("."))


SHARDS = 6


def npl_config(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    config = {
        "datasets": {"npl": {"source": "local", "path": str(shared_path("data", "npl"))}},
        "models": {"bm25": {"kind": "bm25"}},
        "corpus": {"shard_size": 2000},  # 11,429 documents: SHARDS shards
        "significance": {"resamples": 200},
    }
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(config))
    return configfile


def interrupt_during_encoding(workdir, configfile, how: signal.Signals) -> None:
    """Start the workflow and send `how` to its process group (Ctrl-C sends SIGINT)
    once a few corpus shards are done."""
    command = snakemake_command(workdir, "--cores", "1", configfile=configfile)
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        # as from a terminal: an earlier test may leave SIGINT ignored in this process,
        # and an ignored signal stays ignored in every child (Python then never raises
        # KeyboardInterrupt, and the workflow runs to the end)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    shards = workdir / "results" / "encode"
    deadline = time.time() + 120
    # Snakemake runs the shard jobs in no fixed order: wait for a count, not a name
    while time.time() < deadline and len(finished_shards(shards)) < 3:
        time.sleep(0.05)
    os.killpg(process.pid, how)
    process.wait(timeout=120)


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    """The working directory of one uninterrupted run, shared by the interrupted runs'
    tests (which must not change it)."""
    base = tmp_path_factory.mktemp("clean")
    configfile = npl_config(base)
    snakemake(base / "work", configfile=configfile)
    return base / "work"


@pytest.fixture(scope="module")
def clean_outputs(clean_run):
    return outputs(clean_run)


def test_a_shard_without_its_benchmark_is_redone_before_the_shards_are_stacked(tmp_path, clean_run):
    """The state a hard kill leaves when it lands between shard 4's last output and its
    benchmark file, before the dataset's queries are prepared: the rerun must plan the
    shard from the start, so that stacking waits for it instead of reading the files
    the shard's rerun deletes (Snakemake would otherwise find the shard to redo only
    once the dataset is prepared, beside the stacking job)."""
    work = tmp_path / "work"
    shutil.copytree(clean_run / ".snakemake", work / ".snakemake")
    done = ["corpora", "encode/*/*/shards", "benchmarks/prepare_corpus"]
    for found in (p for kept in done for p in (clean_run / "results").glob(kept)):
        shutil.copytree(found, work / found.relative_to(clean_run))
    benchmarks = clean_run / "results/benchmarks/encode_corpus_shard"
    for found in benchmarks.glob("*/*/*.tsv"):
        if found.name != "4.tsv":
            (work / found.relative_to(clean_run)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(found, work / found.relative_to(clean_run))
    jobs = planned_jobs(snakemake(work, "-n", configfile=npl_config(tmp_path)))
    shards = {what for rule, what in jobs if rule == "encode_corpus_shard"}
    assert len(shards) == 1 and "shard 4 of" in shards.pop(), sorted(jobs)


def test_ctrl_c_then_a_plain_rerun_gives_identical_outputs(tmp_path, clean_outputs):
    """Ctrl-C marks the running job's outputs incomplete; the workflow's own profile
    (profiles/default: rerun-incomplete) lets a plain `snakemake` redo it."""
    configfile = npl_config(tmp_path)
    stopped = tmp_path / "stopped"
    interrupt_during_encoding(stopped, configfile, signal.SIGINT)
    assert 0 < len(finished_shards(stopped / "results" / "encode")) < SHARDS
    snakemake(stopped, configfile=configfile)
    assert_same_trees(outputs(stopped), clean_outputs)


def test_kill_during_encoding_then_rerun_gives_identical_outputs(tmp_path, clean_outputs):
    configfile = npl_config(tmp_path)
    killed = tmp_path / "killed"
    interrupt_during_encoding(killed, configfile, signal.SIGKILL)
    shards = killed / "results" / "encode"
    finished = finished_shards(shards)
    assert 0 < len(finished) < SHARDS, len(finished)  # killed in the middle of encoding
    for shard in finished:  # a file under its final name is always complete
        sp.load_npz(shard)
    snakemake(killed, "--unlock", configfile=configfile)  # a hard kill leaves the lock
    snakemake(killed, configfile=configfile)
    assert_same_trees(outputs(killed), clean_outputs)
