"""Snakemake runs of this workflow from the tests, and what a dry run plans."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import REPO

from sparsebench.workflow.config import validate_config
from sparsebench.workflow.plan import Plan

SNAKEMAKE = [sys.executable, "-m", "snakemake"]


def snakemake_command(
    workdir: Path,
    *args: str,
    configfile: Path | None = None,
    snakefile: Path = REPO / "Snakefile",
) -> list[str]:
    """The command line of a Snakemake run of this workflow in `workdir`; `args` go last
    (e.g. `--cores 1`, or `--profile` instead of the default `--cores 2`)."""
    command = [*SNAKEMAKE, "-s", str(snakefile), "--directory", str(workdir)]
    if configfile is not None:
        command += ["--configfile", str(configfile)]
    return command + list(args or ())


def snakemake(
    workdir: Path,
    *args: str,
    configfile: Path | None = None,
    check: bool = True,
    snakefile: Path = REPO / "Snakefile",
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess:
    command = snakemake_command(
        workdir, "--cores", "2", *args, configfile=configfile, snakefile=snakefile
    )
    result = subprocess.run(command, capture_output=True, text=True, cwd=workdir.parent, env=env)
    if check and result.returncode != 0:
        raise AssertionError(f"snakemake failed:\n{result.stdout[-4000:]}\n{result.stderr[-6000:]}")
    return result


REPORT_RULES = {"visual_report"}


def planned_jobs(result: subprocess.CompletedProcess) -> set[tuple[str, str]]:
    """(rule, what) of every job a dry run plans: the job's message after the rule name
    ("Job 3: retrieve: top-5 for bm25 on web"), or its wildcards for a rule without one."""
    text = result.stdout + result.stderr
    jobs = {(m[1], m[2].strip()) for m in re.finditer(r"^Job \d+: (\w+): (.*)$", text, re.M)}
    for block in re.split(r"\n(?=(?:local)?(?:rule|checkpoint) \w+:)", text):
        head = re.match(r"(?:local)?(?:rule|checkpoint) (\w+):", block)
        if head:
            wildcards = re.search(r"wildcards: (.*)", block)
            jobs.add((head.group(1), wildcards.group(1).strip() if wildcards else ""))
    return jobs


def pair_jobs(
    jobs: set[tuple[str, str]], rules: set[str], config: dict | None = None
) -> set[tuple[str, str, str]]:
    """(rule, model, dataset) of the planned jobs of `rules`, whose messages name the
    pair as "{model} on {dataset}" (or "{model} on {corpus}": with the `config`, a corpus
    read by one dataset is named by that dataset)."""
    datasets = {}
    if config is not None:
        plan = Plan(validate_config(config))
        datasets = {c.name: c.datasets[0] for c in plan.corpora.values() if len(c.datasets) == 1}
    found = set()
    for rule, what in jobs:
        if rule in rules:
            model, name = re.search(r"(\S+) on ([^\s,]+)", what).groups()
            found.add((rule, model, datasets.get(name, name)))
    return found
