"""What produced an output: settings and their hash, input checksums, versions, command.

Every file a person reads (metrics, leaderboard) has a manifest beside it, so a number
can always be traced to the exact configuration, data and software behind it.
"""

from __future__ import annotations

import os
import platform
import shlex
import sys
from collections.abc import Iterable
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from sparsebench.core.fileio import file_digest, read_json, write_json
from sparsebench.core.hashing import stable_hash

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


def model_provenance(sources: Iterable[Any], fingerprint: dict[str, Any]) -> dict[str, Any]:
    """What identifies a model: the hash of its `fingerprint` (every setting that changes
    its results: sparsebench.kinds), and for the `sources` (its kind's model_sources) read
    from local folders the sha256 of every file (hub ids are recorded as given, with the
    revision the hub cache resolved if there is one); a folder by model_folder_files."""
    record: dict[str, Any] = {"settings_sha256": stable_hash(fingerprint)}
    for source in sources:
        folder = Path(str(source)).expanduser()
        if folder.is_dir():
            record[str(source)] = {
                p.relative_to(folder).as_posix(): file_digest(p) for p in model_folder_files(folder)
            }
        else:
            record[str(source)] = {"hub_id": source, "revision": _hub_revision(str(source))}
    return record


def model_folder_files(folder: Path) -> list[Path]:
    """The files that make a model folder what it is: its own, and the JSON configs of
    the modules in its subfolders (a sentence-transformers model's pooling)."""
    return sorted([p for p in folder.iterdir() if p.is_file()] + list(folder.glob("*/*.json")))


def _hub_revision(repo_id: str) -> str | None:
    """The commit of a hub model that loading it reads (the cache's main, as
    transformers resolves it), if it was downloaded."""
    try:
        from huggingface_hub import try_to_load_from_cache

        config = try_to_load_from_cache(repo_id, "config.json")
    except Exception:  # noqa: BLE001 (no cache, no hub library: no revision to report)
        return None
    if not isinstance(config, str):  # not cached, or cached as absent
        return None
    return Path(config).parent.name  # .../snapshots/<commit>/config.json


def dataset_provenance(dataset_json: str | Path, corpus_json: str | Path) -> dict[str, Any]:
    """The checksums that identify a prepared dataset (source files and canonical files,
    its corpus's among them)."""
    info, corpus = read_json(dataset_json), read_json(corpus_json)
    return {
        "name": info["name"],
        "split": info["split"],
        "source": info["source"],
        "corpus": corpus["name"],
        "files": {**corpus["files"], **info["files"]},
    }


def write_manifest(path: str | Path, content: dict[str, Any]) -> None:
    write_json(path, content)


def other_experiment(experiment: dict[str, Any], manifest_path: str | Path) -> str | None:
    """Why the results in place are not those of `experiment` (the config's experiment
    settings; None when they are, or when there are none yet): a report must describe one
    experiment, not the figures of the last run mixed with the settings of another."""
    path = Path(manifest_path)
    if not path.is_file():
        return None
    recorded = read_json(path)
    if recorded.get("settings_sha256") == stable_hash(experiment):
        return None
    return (
        f"the results in {path.parent} are those of another experiment, made by "
        f"`{recorded.get('command', '?')}`; repeat that run's --configfile (and --directory) "
        "to package its report, or run this experiment first"
    )
