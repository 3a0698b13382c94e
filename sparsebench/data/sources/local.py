"""`source: local`: a BEIR-format folder (corpus.jsonl, queries.jsonl, qrels/{split}.tsv,
each or gzipped), read by sparsebench.data.collection.FolderSource."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sparsebench.data.sources.base import DatasetSource, Entry


class Folder(DatasetSource):
    """A BEIR-format folder, wherever `folder` finds it."""

    @abstractmethod
    def folder(self, entry: Entry) -> Path:
        """The folder an entry names."""

    def reader(self, entry: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.data.collection import FolderSource

        return FolderSource(self.folder(entry), entry.get("split", "test"))

    def corpus_reader(self, documents: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.core.errors import DataError
        from sparsebench.data.collection import FilesSource, existing_file

        folder = self.folder(documents)
        if not folder.is_dir():
            raise DataError(f"dataset folder {folder} does not exist")
        found = FilesSource(existing_file(folder / "corpus.jsonl"))
        found.check()
        return found

    def check_files(self, entry: Entry) -> None:
        self.reader(entry).check()

    def at_hand(self, entry: Entry, archive: str | Path | None = None) -> bool:
        return True

    def input_files(self, entry: Entry, members: Iterable[str]) -> list[Any]:
        found = self.reader(entry)
        return [found.member_file(m) for m in members]


class Local(Folder):
    name = "local"
    description = "A BEIR-format folder: corpus.jsonl, queries.jsonl, qrels/{split}.tsv."
    schema = {
        "required": ["path"],
        "properties": {
            "path": {
                "type": "string",
                "minLength": 1,
                "description": "The folder (corpus.jsonl, queries.jsonl, qrels/{split}.tsv, "
                "each may be gzipped), relative to the config file.",
            }
        },
    }
    document_keys = ("path",)
    path_keys = ("path",)

    def folder(self, entry: Entry) -> Path:
        return Path(entry["path"]).expanduser().resolve()

    def corpus_label(self, documents: Entry) -> str:
        return Path(documents["path"]).name


LOCAL_SOURCE = Local()
