"""The same DAG on a real SLURM cluster through profiles/slurm, as the SLURM tutorial
(docs/tutorials/slurm.md) runs it: results byte-identical to a local run's.

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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml
from conftest import LOCAL_SLURM_CONF, REPO, SHARED, shared_path
from support.samefiles import assert_same_trees
from support.snakemake_runs import snakemake
from support.tutorials import follow, reader_environment, reader_folder, steps

pytestmark = [pytest.mark.slow, pytest.mark.cluster]
SLURM_TOOLS = SHARED / "tools" / "slurm"
# Outputs that name the command or the time they were made, and logs
VARYING = (
    "logs/",
    "benchmarks/",
    "manifest.json",
    "leaderboard.md",
    "leaderboard.tex",
    "significance.md",
    "report/costs",  # the measured times
    "costs/",  # the retrieval's and encoding's own timings
    ".cost.json",
    "efficiency.tsv",
    "report/efficiency",
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


TUTORIAL = REPO / "docs" / "tutorials" / "slurm.md"


def tutorial_config() -> dict:
    """The experiment the SLURM tutorial writes (cluster.yaml)."""
    written = next(s for s in steps(TUTORIAL) if s.kind == "file" and s.name == "cluster.yaml")
    return yaml.safe_load(written.text)


@pytest.fixture(scope="module")
def runs(slurm_cluster, tmp_path_factory):
    """The SLURM tutorial followed on the cluster and, meanwhile, its experiment run
    locally, and as single jobs (no partitions) -> (the folder holding the three, the
    SLURM run's log). All three read ../shared from the same place, so that their
    records of it agree."""
    shared_path("data", "adi")
    base = tmp_path_factory.mktemp("slurm")
    clone = reader_folder(base, REPO, SHARED)
    experiment = tutorial_config()
    with ThreadPoolExecutor(1) as pool:
        on_slurm = pool.submit(follow, TUTORIAL, clone, reader_environment())
        for name, config in (
            ("local", experiment),
            ("single", {**experiment, "retrieval": {}}),
        ):
            folder = base / name
            folder.mkdir()
            configfile = folder / "cluster.yaml"
            configfile.write_text(yaml.safe_dump(config, sort_keys=False))  # as the page
            targets = [] if name == "local" else ["results/runs/bm25/adi.trec"]
            snakemake(folder, *targets, configfile=configfile)
        on_slurm.result()
    (base / "slurm").symlink_to(clone)
    return base, (clone / "slurm.log").read_text()


def test_slurm_profile_gives_the_local_results_byte_for_byte(runs):
    base, log = runs
    # every job but the local rules went through sbatch: prepare_corpus, prepare, 2
    # shards, the vocabulary, the queries, 2 partition statistics, the global statistics,
    # 2 partition postings, 2 partition retrievals, the merge and evaluate
    submitted = log.count("has been submitted with SLURM jobid")
    assert submitted == 2 + 2 + 1 + 1 + 2 + 1 + 2 + 2 + 1 + 1, log[-4000:]
    local = _results(base / "local")
    assert len(local) > 20
    assert_same_trees(_results(base / "slurm"), local)

    manifest = json.loads((base / "slurm" / "results" / "leaderboard.manifest.json").read_text())
    reference = json.loads((base / "local" / "results" / "leaderboard.manifest.json").read_text())
    assert "--profile" in manifest["command"]
    assert manifest["settings_sha256"] == reference["settings_sha256"]


def test_partitioned_retrieval_on_slurm_gives_the_single_jobs_runs(runs):
    """retrieval.partitions on the cluster: every partition's jobs are SLURM jobs (in
    parallel where the cluster has room), and each model's merged run is the run a
    single job makes, byte for byte."""
    base, _ = runs
    model_dir = next((base / "slurm" / "results" / "models" / "bm25").iterdir())
    assert sorted(p.name for p in (model_dir / "partitions").iterdir()) == ["0", "1"]
    for model in tutorial_config()["models"]:
        run = f"results/runs/{model}/adi.trec"
        assert (base / "slurm" / run).read_bytes() == (base / "single" / run).read_bytes()
