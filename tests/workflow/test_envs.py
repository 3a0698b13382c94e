"""The conda environments stay in step with pyproject's dependencies."""

from __future__ import annotations

import re

import tomllib
import yaml
from conftest import REPO

CONDA_NAMES = {
    "snakemake": "snakemake-minimal",
    "torch": "pytorch",
    "matplotlib": "matplotlib-base",
}


def names(requirements):
    return {re.split(r"[<>=!~ \[]", r, maxsplit=1)[0].strip().lower() for r in requirements}


def env_names(path):
    """Conda packages and the packages of the `pip:` list."""
    entries = yaml.safe_load(path.read_text())["dependencies"]
    pip = [p for e in entries if isinstance(e, dict) for p in e.get("pip", [])]
    return {
        re.split(r"[<>=!~ ]", e, maxsplit=1)[0].strip().lower()
        for e in [*entries, *pip]
        if isinstance(e, str)
    }


def test_environments_list_the_project_dependencies():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    core = {CONDA_NAMES.get(n, n) for n in names(project["dependencies"])}
    learned = {CONDA_NAMES.get(n, n) for n in names(project["optional-dependencies"]["splade"])}
    cpu, gpu = env_names(REPO / "envs" / "cpu.yaml"), env_names(REPO / "envs" / "gpu.yaml")
    assert core <= cpu, core - cpu
    assert core | learned <= gpu, (core | learned) - gpu
