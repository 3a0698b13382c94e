"""`source: ir_datasets`: any dataset of the ir_datasets catalogue with documents, queries
and judgments, by id (downloads md5-checked by ir_datasets, kept in IR_DATASETS_HOME);
read by sparsebench.data.irdatasets.IrDatasetsSource."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sparsebench.data.sources.base import DatasetSource, Entry


class IrDatasets(DatasetSource):
    name = "ir_datasets"
    description = "A dataset of the ir_datasets catalogue by id (its split: the id's last part)."
    schema = {
        "required": ["id"],
        "properties": {
            "id": {
                "type": "string",
                "minLength": 1,
                "description": (
                    "An ir_datasets id with documents, queries and judgments, e.g. "
                    "msmarco-passage/dev/small, beir/scifact/test."
                ),
            },
            "query_field": {
                "type": "string",
                "description": (
                    "The query field searched (default: text, else title for TREC topics)."
                ),
            },
            "tuning_split": {
                "enum": ["auto", "none"],
                "description": (
                    "The id names its queries: sweeps cross-validate over the evaluated queries."
                ),
            },
        },
    }
    document_keys = ("id",)

    def fill_defaults(self, name: str, entry: dict[str, Any]) -> None:
        entry.setdefault("split", entry["id"].rstrip("/").rsplit("/", 1)[-1])

    def problems(self, entry: Entry) -> list[tuple[str, str]]:
        """An id ir_datasets does not have, or one without documents, queries or judgments
        (read from its registry, never downloaded)."""
        from sparsebench.core.errors import DataError
        from sparsebench.data.irdatasets import check_id

        try:
            check_id(entry["id"])
        except DataError as exc:
            return [("id", str(exc))]
        return []

    def documents(self, entry: Entry) -> dict[str, Any]:
        """The id of the dataset that holds the documents (msmarco-passage for
        msmarco-passage/dev/small), so that datasets over one corpus share it."""
        return {**super().documents(entry), "id": _documents_id(entry["id"])}

    def reader(self, entry: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.data.irdatasets import IrDatasetsSource

        return IrDatasetsSource(entry["id"], entry.get("split", "test"), entry.get("query_field"))


def _documents_id(dataset_id: str) -> str:
    """The ir_datasets id that provides the documents of `dataset_id`; the id itself when
    ir_datasets cannot tell."""
    try:
        import ir_datasets

        return ir_datasets.docs_parent_id(dataset_id) or dataset_id
    except Exception:  # noqa: BLE001 (an id ir_datasets builds from a pattern, or no package)
        return dataset_id


IR_DATASETS_SOURCE = IrDatasets()
