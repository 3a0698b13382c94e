"""`source: builtin`: a BEIR-format folder shipped in the package
(sparsebench/resources/collections/: minibeir, the default run's)."""

from __future__ import annotations

from pathlib import Path

from sparsebench.data.sources.base import Entry
from sparsebench.data.sources.local import Folder


class Builtin(Folder):
    name = "builtin"
    description = "A collection shipped in the package (minibeir: the default run's)."
    schema = {
        "required": ["name"],
        "properties": {
            "name": {
                "type": "string",
                "description": "A collection under sparsebench/resources/collections/ "
                "(minibeir), read as `source: local` reads a folder.",
            }
        },
    }
    document_keys = ("name",)

    def folder(self, entry: Entry) -> Path:
        from sparsebench.data.collection import builtin_collection_path

        return builtin_collection_path(entry["name"])


BUILTIN_SOURCE = Builtin()
