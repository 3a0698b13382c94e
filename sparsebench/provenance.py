"""What produced an output: settings and their hash, input checksums, versions, command.

Every file a person reads (metrics, leaderboard) has a manifest beside it, so a number
can always be traced to the exact configuration, data and software behind it.
"""

from __future__ import annotations

import os
import platform
import shlex
import sys
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from sparsebench.config import stable_hash
from sparsebench.fileio import file_digest, read_json, write_json

COMMAND_VARIABLE = "SPARSEBENCH_COMMAND"
_PACKAGES = (
    "sparsebench",
    "snakemake",
    "numpy",
    "scipy",
    "pandas",
    "pyarrow",
    "PyStemmer",
    "torch",
    "transformers",
)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def command_line() -> str:
    """The Snakemake command that started the run (set by the Snakefile), else argv."""
    return os.environ.get(COMMAND_VARIABLE) or shlex.join(sys.argv)


def manifest(
    stage: str,
    settings: dict[str, Any],
    inputs: dict[str, str | Path],
    started: str,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A manifest for one stage's output; input files are listed with their sha256."""
    return {
        "stage": stage,
        "settings": settings,
        "settings_sha256": stable_hash(settings),
        "inputs": {
            name: {"path": str(path), "sha256": file_digest(path)} for name, path in inputs.items()
        },
        **(extra or {}),
        "versions": package_versions(),
        "command": command_line(),
        "host": platform.node(),
        "started": started,
        "finished": now(),
    }


def dataset_provenance(dataset_json: str | Path) -> dict[str, Any]:
    """The checksums that identify a prepared dataset (source files and canonical files)."""
    info = read_json(dataset_json)
    return {
        "name": info["name"],
        "split": info["split"],
        "source": info["source"],
        "files": info["files"],
    }


def write_manifest(path: str | Path, content: dict[str, Any]) -> None:
    write_json(path, content)
