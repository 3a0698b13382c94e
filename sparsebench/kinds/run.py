"""Runs made elsewhere (`kind: run`, a TREC file per dataset), checked against the
dataset and evaluated beside the others."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from sparsebench.core.errors import ConfigError
from sparsebench.kinds.base import Entry, ModelKind

log = logging.getLogger(__name__)


class Run(ModelKind):
    name = "run"
    description = "A TREC run per dataset, made elsewhere."
    run_rule = "import_run"
    path_keys = ("path",)
    schema: ClassVar[dict[str, Any]] = {
        "required": ["path"],
        "properties": {
            "path": {
                "type": "string",
                "pattern": "\\{dataset\\}",
                "description": "A TREC run per dataset, e.g. runs/{dataset}.trec; datasets "
                "without a file are not covered.",
            }
        },
    }

    def fingerprint(self, entry: Entry, language: str = "en") -> dict[str, Any]:
        return {"run": entry["path"]}


def run_path(entry: Entry, dataset: str) -> str:
    """The file of an external run model for one dataset."""
    return entry["path"].replace("{dataset}", dataset)


def check_run_files(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """`config` (validated), once its run files are checked: a `kind: run` model whose
    path names no file for any dataset is a typo, refused before any job; one that covers
    only some datasets leaves the others' cells empty, and says so."""
    datasets = list(config["datasets"])
    for name, model in config["models"].items():
        if model["kind"] != "run":
            continue
        found = [d for d in datasets if Path(run_path(model, d)).is_file()]
        if not found:
            raise ConfigError(
                f"config.models.{name}.path: no run file for any dataset (looked for "
                f"{', '.join(run_path(model, d) for d in datasets[:3])}"
                f"{', ...' if len(datasets) > 3 else ''})"
            )
        missing = [d for d in datasets if d not in found]
        if missing:
            log.warning(
                "config.models.%s.path: no run file for %s; %s covers only %s, the other "
                "cells stay empty",
                name,
                ", ".join(missing),
                name,
                ", ".join(found),
            )
    return config


RUN_KIND = Run()
