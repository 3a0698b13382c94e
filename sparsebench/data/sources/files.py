"""`source: files`: a collection's files named one by one: the corpus and the queries as
JSON lines (BEIR's `_id`, `title`, `text`) or TSV (id, text or id, title, text: MS MARCO's
collection.tsv and queries.*.tsv, Pyserini's topics), the judgments as TREC qrels or BEIR
TSV; read by sparsebench.data.collection.FilesSource."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sparsebench.data.sources.base import DatasetSource, Entry


class Files(DatasetSource):
    name = "files"
    description = "Corpus, queries and qrels files named one by one."
    schema = {
        "required": ["corpus", "queries", "qrels"],
        "properties": {
            "corpus": {
                "type": "string",
                "description": (
                    "corpus.jsonl (_id, title, text) or a TSV (id, text) or (id, title, text)"
                ),
            },
            "queries": {
                "type": "string",
                "description": "queries.jsonl (_id, text) or a TSV (id, text)",
            },
            "qrels": {
                "type": "string",
                "description": "TREC qrels (qid iter docid grade) or BEIR TSV",
            },
        },
    }
    document_keys = ("corpus",)
    path_keys = ("corpus", "queries", "qrels")

    def corpus_label(self, documents: Entry) -> str:
        return Path(documents["corpus"]).stem

    def reader(self, entry: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.data.collection import FilesSource

        files = (Path(entry[m]).expanduser().resolve() for m in ("corpus", "queries", "qrels"))
        return FilesSource(*files, entry.get("split", "test"))

    def corpus_reader(self, documents: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.data.collection import FilesSource

        found = FilesSource(Path(documents["corpus"]).expanduser().resolve())
        found.check()
        return found

    def input_files(self, entry: Entry, members: Iterable[str]) -> list[Any]:
        return [entry[m] for m in members]

    def at_hand(self, entry: Entry, archive: str | Path | None = None) -> bool:
        return True


FILES_SOURCE = Files()
