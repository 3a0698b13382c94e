"""A user's own encoder class (`encoder: package.module:Class`), run like a built-in
kind: encoded documents and queries, an optional corpus IDF (sparsebench.encode.custom)."""

from __future__ import annotations

from typing import Any, ClassVar

from sparsebench.encode.custom import source_digest
from sparsebench.kinds.base import Entry, ModelKind, idf_setting


class Python(ModelKind):
    name = "python"
    description = "An encoder class of your own: package.module:Class."
    schema: ClassVar[dict[str, Any]] = {
        "required": ["encoder"],
        "properties": {
            "encoder": {
                "type": "string",
                "pattern": "^[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_]*$",
                "description": "package.module:Class with encode_documents, encode_queries "
                "and vocab_size.",
            },
            "options": {
                "type": "object",
                "default": {},
                "description": "Keyword arguments of the class.",
            },
            "idf": idf_setting("python", "none"),
            "batch_size": {
                "type": "integer",
                "minimum": 1,
                "default": 1024,
                "description": "Texts handed to encode_documents or encode_queries at a "
                "time. Speed and memory only: nothing is encoded again.",
            },
        },
    }

    def encoding(self, entry: Entry, side: str, language: str) -> dict[str, Any]:
        return {
            "kind": "python",
            "encoder": entry["encoder"],
            "options": dict(entry["options"]),
            "side": side,
            "code_sha256": source_digest(entry["encoder"]),
        }

    speed_settings: ClassVar[tuple[str, ...]] = ("batch_size",)

    def runtime(self, entry: Entry, side: str) -> dict[str, Any]:
        return {"batch_size": int(entry["batch_size"])}

    def weighting(self, entry: Entry) -> dict[str, Any]:
        return {"kind": "python", "idf": entry["idf"]}


PYTHON_KIND = Python()
