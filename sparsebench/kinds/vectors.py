"""Vectors encoded elsewhere, searched here: Anserini's pre-encoded corpora
(JsonVectorCollection files, as the published SPLADE++ indexes were built from) and cached
query files (sparsebench.encode.json_vectors). Their integer weights are scored as
Anserini's impact search scores them: the integer dot product."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from sparsebench.kinds.base import Entry, ModelKind, idf_setting


class Vectors(ModelKind):
    name = "vectors"
    description = "Pre-encoded vectors (Anserini JsonVectorCollection and cached topics)."
    path_keys = ("documents", "queries")
    schema: ClassVar[dict[str, Any]] = {
        "required": ["documents", "queries"],
        "properties": {
            "documents": {
                "type": "string",
                "description": "A JsonVectorCollection file or folder (.jsonl, .jsonl.gz): "
                '{"id", "vector": {token: weight}} per line; weights become integers as '
                "Anserini's asInt makes them.",
            },
            "queries": {
                "type": "string",
                "description": "The queries' vectors: a topic file of repeated tokens "
                "(TsvString, as the .cached conditions) or JSON vectors (.jsonl).",
            },
            "idf": idf_setting("vectors", "none"),
        },
    }

    def encoding(self, entry: Entry, side: str, language: str) -> dict[str, Any]:
        path = entry["documents" if side == "documents" else "queries"]
        return {"kind": "vectors", "side": side, "path": path}  # its files: job inputs

    def weighting(self, entry: Entry) -> dict[str, Any]:
        return {"kind": "vectors", "idf": entry["idf"]}

    def model_sources(self, entry: Entry, side: str | None = None) -> list[str]:
        sides = [side] if side else ["documents", "queries"]
        return [entry[s] for s in sides]

    def problems(self, entry: Entry) -> list[str]:
        return [
            f"no vector file or folder {entry[key]} ({key})"
            for key in ("documents", "queries")
            if not Path(entry[key]).expanduser().exists()
        ]


VECTORS_KIND = Vectors()
