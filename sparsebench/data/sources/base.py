"""What the workflow asks of a dataset source. A source is one object (a subclass of
DatasetSource, in its own module) listed in sparsebench.data.sources.registry: its config
schema, the keys that choose its documents, the keys that hold local paths, whether it
reads the Hugging Face hub, what is checked when the config is read, and the reader of
its files. Nothing else in the package branches on a source's name, but the download of
BEIR archives (the download_beir rule) and the published tables' row names
(evaluate.stages.reference_row).

The readers (sparsebench.data.collection, miracl, mmarco, irdatasets) are imported when a
reader is asked for, never when the config is read: reading a config loads no reader,
nor the hub's libraries (tests/data/test_source_registry.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

Entry = Mapping[str, Any]
MEMBERS = ("corpus", "queries", "qrels")


class DatasetSource(ABC):
    """A source of datasets (`source: <name>`). Subclasses set the class attributes and
    override what applies."""

    name: ClassVar[str]
    description: ClassVar[str]
    # the JSON schema of an entry of this source, beside the keys every dataset takes
    # ($defs/dataset/properties of the config schema): its properties, with their
    # defaults, and the required ones
    schema: ClassVar[dict[str, Any]]
    # the entry keys that choose the documents: datasets that agree on them share a corpus
    # (sparsebench.data.corpora)
    document_keys: ClassVar[tuple[str, ...]]
    # entry keys that hold a local path (relative: to the config file naming it); with
    # `hub`, a value may name a hub repository instead (workflow.config.resolve_relative_paths)
    path_keys: ClassVar[tuple[str, ...]] = ()
    # its files come from the Hugging Face hub (fetched by the jobs themselves) or from
    # local copies named by the path keys
    hub: ClassVar[bool] = False

    # -- when the config is read -----------------------------------------------------------

    def datasets(self, name: str, entry: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
        """The datasets an entry stands for, as (name, entry, what it is, for errors)."""
        return [(name, entry, f"the dataset {name}")]

    def fill_defaults(self, name: str, entry: dict[str, Any]) -> None:
        """Fill the defaults that depend on the entry (a split that follows the name)."""
        return None  # a hook: nothing to do unless a source says so

    def problems(self, entry: Entry) -> list[tuple[str, str]]:
        """What the schema cannot say about a validated entry, found without reading data,
        as (key, message) pairs."""
        return []

    # -- the documents ---------------------------------------------------------------------

    def documents(self, entry: Entry) -> dict[str, Any]:
        """The settings that choose the documents (before any subsample): the document keys
        given, local paths made absolute."""
        found = {"source": self.name}
        for key in self.document_keys:
            if entry.get(key) is not None:
                found[key] = entry[key]
        if not self.hub:
            for key in set(self.path_keys) & set(found):
                found[key] = absolute(found[key])
        return found

    def corpus_label(self, documents: Entry) -> str:
        """A readable start of the corpus's name (made a file name by corpora.corpus_label)."""
        return str(documents.get("name") or documents.get("id"))

    # -- the jobs --------------------------------------------------------------------------

    @abstractmethod
    def reader(self, entry: Entry, archive: str | Path | None = None) -> Any:
        """The reader of a validated entry's files (a sparsebench.data.records.Source):
        documents, queries and judgments; `archive` is a downloaded BEIR archive."""

    def corpus_reader(self, documents: Entry, archive: str | Path | None = None) -> Any:
        """The reader of the documents a corpus identity names (`documents`), whatever the
        datasets' splits."""
        return self.reader({**documents, "split": "test"}, archive)

    def at_hand(self, entry: Entry, archive: str | Path | None = None) -> bool:
        """Whether the entry's files can be read now, without a download (its local copies,
        or a downloaded BEIR `archive`): what the plan reads to refuse a mistake before any
        job (sparsebench.workflow.preflight)."""
        return False

    def check_download(self, entry: Entry, archive: str | Path | None) -> None:
        """Check a downloaded file before it is read (BEIR: the archive's md5)."""
        return None  # a hook: nothing to do unless a source says so

    def check_files(self, entry: Entry) -> None:
        """What the entry's local files show when its jobs are planned (a folder's missing
        split named with the splits there are); raises DataError."""
        return None  # a hook: nothing to do unless a source says so

    def input_files(self, entry: Entry, members: Iterable[str]) -> list[Any]:
        """The local files the `members` (corpus, queries, qrels) of an entry are read
        from: inputs of its jobs, so that touching them reruns what they make."""
        return []


def absolute(value: str) -> str:
    """A path, home and links resolved."""
    return str(Path(value).expanduser().resolve())


def local_files(paths: Iterable[str]) -> list[str]:
    """The files of local paths (a file, or every file below a folder); hub ids give none."""
    found = []
    for path in (Path(p).expanduser() for p in paths):
        if path.is_file():
            found.append(str(path))
        elif path.is_dir():
            found += [str(p) for p in sorted(path.rglob("*")) if p.is_file()]
    return found
