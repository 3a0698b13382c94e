"""The same DAG on a real SLURM cluster through profiles/slurm: results byte-identical to a
local run's.

The cluster is one already running (sbatch answers), or the single-node SLURM on
127.0.0.1 that ../shared/tools/slurm/start-local-slurm.sh installs and starts (as root;
stopped again afterwards). Where neither is possible the test is skipped with the reason.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import LOCAL_SLURM_CONF, REPO, SHARED, shared_path
from samefiles import assert_same_trees
from snakemake_runs import snakemake, snakemake_command

pytestmark = [pytest.mark.slow, pytest.mark.cluster]
SLURM_TOOLS = SHARED / "tools" / "slurm"
# A hung Snakemake ignores SIGTERM: interrupt it, then kill it.
TIME_LIMIT = ["timeout", "-s", "INT", "-k", "30", "900"]
# Outputs that name the command or the time they were made, and logs
VARYING = (
    "logs/",
    "benchmarks/",
    "manifest.json",
    "leaderboard.md",
    "significance.md",
    "report/costs",  # the measured times
    "report/provenance.html",
)


def _cluster_answers() -> bool:
    if shutil.which("sbatch") is None or shutil.which("scontrol") is None:
        return False
    ping = subprocess.run(["scontrol", "ping"], capture_output=True, text=True, timeout=30)
    return "is UP" in ping.stdout


@pytest.fixture(scope="module")
def slurm_cluster():
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        pytest.skip("snakemake-executor-plugin-slurm is not installed (pip install -e '.[slurm]')")
    with pytest.MonkeyPatch.context() as patch:  # the real SLURM configuration (conftest)
        if LOCAL_SLURM_CONF is None:
            patch.delenv("SLURM_CONF")
        else:
            patch.setenv("SLURM_CONF", LOCAL_SLURM_CONF)
        yield from _started_cluster()


def _started_cluster():
    if _cluster_answers():
        yield
        return
    start = SLURM_TOOLS / "start-local-slurm.sh"
    if not start.exists():
        pytest.skip(f"no SLURM answers and {start} is not available to start one")
    if os.geteuid() != 0:
        pytest.skip(f"no SLURM answers; starting one with {start} needs root")
    started = subprocess.run(["bash", str(start)], capture_output=True, text=True, timeout=1200)
    if started.returncode != 0 or not _cluster_answers():
        pytest.skip(f"the local SLURM did not start:\n{started.stderr[-2000:]}")
    yield
    subprocess.run(["bash", str(SLURM_TOOLS / "stop-local-slurm.sh")], capture_output=True)


def _results(workdir: Path) -> dict[str, bytes]:
    results = workdir / "results"
    return {
        path.relative_to(results).as_posix(): path.read_bytes()
        for path in sorted(results.rglob("*"))
        if path.is_file() and not any(v in path.relative_to(results).as_posix() for v in VARYING)
    }


def start_on_slurm(workdir: Path, configfile: Path) -> subprocess.Popen:
    """The workflow through profiles/slurm, started (it mostly waits for the cluster, so
    the tests run both of theirs at once)."""
    command = TIME_LIMIT + snakemake_command(
        workdir,
        "--profile",
        str(REPO / "profiles" / "slurm"),
        # a local cluster answers at once: ask it every second, not every 10 s
        "--slurm-init-seconds-before-status-checks",
        "1",
        "--seconds-between-status-checks",
        "1",
        configfile=configfile,
    )
    workdir.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=workdir.parent
    )


def finished(process: subprocess.Popen) -> str:
    """The output of a SLURM run (it must succeed)."""
    log, _ = process.communicate()
    assert process.returncode == 0, log[-6000:]
    return log


ADI = {"source": "local", "path": str(SHARED / "data" / "adi")}
# 82 documents in shards of 30: 3 shards, 3 encode jobs (and 3 partitions)
EXPERIMENTS = {
    "two-models": {
        "datasets": {"adi": ADI},
        "models": {
            "bm25": {"kind": "bm25"},
            "bm25-classic-idf": {"kind": "bm25", "idf": "classic"},
        },
        "corpus": {"shard_size": 30},
    },
    "partitioned": {
        "datasets": {"adi": ADI},
        "models": {"bm25": {"kind": "bm25"}},
        "corpus": {"shard_size": 30},
        "retrieval": {"partitions": 3},
    },
}


@pytest.fixture(scope="module")
def runs(slurm_cluster, tmp_path_factory):
    """Each experiment on the cluster (both at once) and locally; and the partitioned
    one's run as a single job makes it. name -> (its folder, the SLURM run's output)."""
    shared_path("data", "adi")
    base = tmp_path_factory.mktemp("slurm")
    started = {}
    for name, config in EXPERIMENTS.items():
        configfile = base / f"{name}.yaml"
        configfile.write_text(yaml.safe_dump(config))
        started[name] = start_on_slurm(base / name / "slurm", configfile)
    try:
        for name in EXPERIMENTS:
            snakemake(base / name / "local", configfile=base / f"{name}.yaml")
        single = base / "single.yaml"
        single.write_text(yaml.safe_dump({**EXPERIMENTS["partitioned"], "retrieval": {}}))
        snakemake(base / "single", "results/runs/bm25/adi.trec", configfile=single)
    finally:
        logs = {name: finished(process) for name, process in started.items()}
    return base, logs


def test_slurm_profile_gives_the_local_results_byte_for_byte(runs):
    base, logs = runs
    folder = base / "two-models"
    # every job but the local rules went through sbatch: prepare_corpus, prepare, 3
    # shards, stack, the queries (encoded once for both models), and per model term
    # weights, retrieve and evaluate
    submitted = logs["two-models"].count("has been submitted with SLURM jobid")
    assert submitted == 2 + 3 + 1 + 1 + 2 * 3, logs["two-models"][-4000:]
    local = _results(folder / "local")
    assert len(local) > 20
    assert_same_trees(_results(folder / "slurm"), local)

    manifest = json.loads((folder / "slurm" / "results" / "leaderboard.manifest.json").read_text())
    reference = json.loads((folder / "local" / "results" / "leaderboard.manifest.json").read_text())
    assert "--profile" in manifest["command"]
    assert manifest["settings_sha256"] == reference["settings_sha256"]


def test_partitioned_retrieval_on_slurm_gives_the_local_results(runs):
    """retrieval.partitions on the cluster: every partition's jobs are SLURM jobs (in
    parallel where the cluster has room), the merge gives the local run byte for byte,
    and the single-job run too."""
    base, logs = runs
    folder = base / "partitioned"
    # prepare_corpus, prepare, 3 shards, the vocabulary, the queries; per partition
    # statistics, postings and retrieval; the global statistics, the merge, evaluate
    submitted = logs["partitioned"].count("has been submitted with SLURM jobid")
    assert submitted == 2 + 3 + 1 + 1 + 3 * 3 + 1 + 1 + 1, logs["partitioned"][-4000:]
    assert_same_trees(_results(folder / "slurm"), _results(folder / "local"))
    run = "results/runs/bm25/adi.trec"
    assert (folder / "slurm" / run).read_bytes() == (base / "single" / run).read_bytes()
