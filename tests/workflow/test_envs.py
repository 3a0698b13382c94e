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


def floors(requirements):
    """{name: declared minimum version} (None where none is declared)."""
    found = {}
    for requirement in requirements:
        name = re.split(r"[<>=!~ \[]", requirement, maxsplit=1)[0].strip().lower()
        floor = re.search(r">=\s*([^,\s]+)", requirement)
        found[name.replace("_", "-")] = floor[1] if floor else None
    return found


def names(requirements):
    return set(floors(requirements))


def env_floors(path):
    """{name: floor} of the conda packages and the packages of the `pip:` list."""
    entries = yaml.safe_load(path.read_text())["dependencies"]
    pip = [p for e in entries if isinstance(e, dict) for p in e.get("pip", [])]
    return floors(e for e in [*entries, *pip] if isinstance(e, str))


def env_names(path):
    return set(env_floors(path))


def test_environments_list_the_project_dependencies():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    core = {CONDA_NAMES.get(n, n) for n in names(project["dependencies"])}
    learned = {CONDA_NAMES.get(n, n) for n in names(project["optional-dependencies"]["splade"])}
    cpu, gpu = env_names(REPO / "envs" / "cpu.yaml"), env_names(REPO / "envs" / "gpu.yaml")
    assert core <= cpu, core - cpu
    assert core | learned <= gpu, (core | learned) - gpu


def test_environments_declare_the_floors_the_project_declares():
    """A floor is the version .ci/floors tests: the environments ask for the same."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = {
        CONDA_NAMES.get(n, n).replace("_", "-"): floor
        for n, floor in {
            **floors(project["dependencies"]),
            **floors(project["optional-dependencies"]["splade"]),
        }.items()
    }
    for env in ("cpu", "gpu"):
        declared = env_floors(REPO / "envs" / f"{env}.yaml")
        for name, floor in declared.items():
            if name in wanted:
                assert floor == wanted[name], (env, name, floor, wanted[name])
