"""`source: jsonl`: a corpus of JSON lines whose fields have names of their own, such as
Pyserini's and Anserini's JsonCollection (`id`, `contents`: the default) or the `docid`,
`title`, `text` of Mr. TyDi's and Tevatron's corpora, with queries (JSON lines of their
own names too, with `query_fields`; else as `source: files` reads them) and qrels files.
Read by sparsebench.data.collection.FilesSource, as `source: files` is: its path keys,
corpus label and jobs' input files are files'."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sparsebench.data.sources.base import Entry
from sparsebench.data.sources.files import Files

_FIELD = {"type": "string", "minLength": 1}


class Jsonl(Files):
    name = "jsonl"
    description = "A corpus of JSON lines with fields of its own names, queries and qrels files."
    schema = {
        "required": ["corpus", "queries", "qrels"],
        "properties": {
            "corpus": {"type": "string", "description": "JSON lines, one document a line."},
            "queries": {
                "type": "string",
                "description": (
                    "JSON lines with query_fields; without them, queries.jsonl (_id, text) "
                    "or a TSV (id, text), as source: files reads them."
                ),
            },
            "qrels": {
                "type": "string",
                "description": "TREC qrels (qid iter docid grade) or BEIR TSV",
            },
            "fields": {
                "type": "object",
                "additionalProperties": False,
                "default": {},
                "description": (
                    "The corpus's fields: the id, the text and a title if any, joined before "
                    "the text as BEIR's are. Default: Pyserini's JsonCollection (id, contents)."
                ),
                "properties": {
                    "id": {**_FIELD, "default": "id", "description": "The key of the document id."},
                    "title": {
                        **_FIELD,
                        "description": "The key of the title, if the documents have one.",
                    },
                    "text": {
                        **_FIELD,
                        "default": "contents",
                        "description": "The key of the document's text.",
                    },
                },
            },
            "query_fields": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "text"],
                "description": "The fields of queries given as JSON lines (query_id, query).",
                "properties": {
                    "id": {**_FIELD, "description": "The key of the query id."},
                    "text": {**_FIELD, "description": "The key of the query's text."},
                },
            },
        },
    }
    document_keys = ("corpus", "fields")

    def reader(self, entry: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.data.collection import FilesSource

        files = (Path(entry[m]).expanduser().resolve() for m in ("corpus", "queries", "qrels"))
        fields = {"corpus": _names(entry["fields"])}
        if entry.get("query_fields"):
            fields["queries"] = _names(entry["query_fields"])
        return FilesSource(*files, entry.get("split", "test"), fields=fields)

    def corpus_reader(self, documents: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.data.collection import FilesSource

        corpus = Path(documents["corpus"]).expanduser().resolve()
        found = FilesSource(corpus, fields={"corpus": _names(documents["fields"])})
        found.check()
        return found


def _names(fields: Entry) -> dict[str, str]:
    """A record's fields (`_id`, `title`, `text`) -> the file's names of them."""
    return {"_id": fields["id"], **{k: fields[k] for k in ("title", "text") if k in fields}}


JSONL_SOURCE = Jsonl()
