"""Runs made elsewhere (`kind: run`, a TREC file per dataset), checked against the
dataset and evaluated beside the others."""

from __future__ import annotations

from typing import Any, ClassVar

from sparsebench.kinds.base import Entry, ModelKind


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


RUN_KIND = Run()
