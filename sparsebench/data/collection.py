"""Where a BEIR-format collection lives: a folder, a BEIR zip archive, or the package.

A source opens its three members (corpus.jsonl, queries.jsonl, qrels/{split}.tsv) as
binary streams, so an archive is read in place, never unpacked to disk.
"""

from __future__ import annotations

import contextlib
import gzip
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO, Any

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import file_digest
from sparsebench.data.delimited import is_gzip

MEMBERS = ("corpus", "queries", "qrels")


def _member_name(member: str, split: str) -> str:
    return f"qrels/{split}.tsv" if member == "qrels" else f"{member}.jsonl"


@contextlib.contextmanager
def open_file(path: Path) -> Iterator[IO[bytes]]:
    """A collection file as a binary stream, decompressed when it is gzip."""
    if is_gzip(path):
        with gzip.open(path, "rb") as handle:
            yield handle
    else:
        with open(path, "rb") as handle:
            yield handle


def file_size(path: Path) -> int | None:
    """Bytes reading a file yields, for progress (unknown for a compressed file)."""
    return None if is_gzip(path) else path.stat().st_size


def existing_file(path: Path) -> Path:
    """`path`, or `path`.gz when only that exists."""
    compressed = path.with_name(path.name + ".gz")
    return compressed if not path.exists() and compressed.is_file() else path


@dataclass(frozen=True)
class FolderSource:
    """A BEIR-format folder: corpus.jsonl, queries.jsonl, qrels/{split}.tsv."""

    root: Path
    split: str

    def member_file(self, member: str) -> Path:
        """The file a member is read from (its .gz when only that exists)."""
        return existing_file(self.root / _member_name(member, self.split))

    def check(self) -> None:
        if not self.root.is_dir():
            raise DataError(f"dataset folder {self.root} does not exist")
        for member in MEMBERS:
            if not self.member_file(member).is_file():
                raise DataError(self._missing(member))

    def _missing(self, member: str) -> str:
        if member == "qrels":
            splits = sorted(p.stem for p in (self.root / "qrels").glob("*.tsv"))
            return (
                f"{self.root}: no qrels for split {self.split!r} (qrels/{self.split}.tsv); "
                f"available splits: {', '.join(splits) or 'none'}"
            )
        return f"{self.root}: missing {_member_name(member, self.split)}"

    @contextlib.contextmanager
    def open(self, member: str) -> Iterator[IO[bytes]]:
        with open_file(self.member_file(member)) as handle:
            yield handle

    def label(self, member: str) -> str:
        """The member's file, as error messages name it."""
        return str(self.member_file(member))

    def size(self, member: str) -> int | None:
        """Bytes of a member (what reading it takes, for progress)."""
        return file_size(self.member_file(member))

    def fingerprint(self) -> dict[str, Any]:
        """sha256 of each member file, for the dataset's provenance."""
        digests = {}
        for member in MEMBERS:
            path = self.member_file(member)
            digests[path.relative_to(self.root).as_posix()] = file_digest(path)
        return {"kind": "folder", "path": str(self.root), "sha256": digests}


@dataclass(frozen=True)
class ZipSource:
    """A BEIR archive ({name}/corpus.jsonl, ...), read without unpacking."""

    archive: Path
    split: str
    subset: str | None = None  # a sub-collection folder (cqadupstack's forums)

    def _find(self, archive: zipfile.ZipFile, member: str) -> str:
        wanted = _member_name(member, self.split)
        if self.subset:
            wanted = f"{self.subset}/{wanted}"
        names = [n for n in archive.namelist() if n == wanted or n.endswith("/" + wanted)]
        if not names:
            if member == "qrels":
                splits = sorted(
                    Path(n).stem
                    for n in archive.namelist()
                    if "/qrels/" in "/" + n
                    and n.endswith(".tsv")
                    and (not self.subset or f"/{self.subset}/qrels/" in "/" + n)
                )
                raise DataError(
                    f"{self.archive}: no qrels for split {self.split!r}; "
                    f"available splits: {', '.join(splits) or 'none'}"
                )
            raise DataError(f"{self.archive}: the archive holds no {wanted}")
        return min(names, key=lambda n: n.count("/"))

    def check(self) -> None:
        try:
            with zipfile.ZipFile(self.archive) as archive:
                bad = archive.testzip()
                if bad is not None:
                    raise DataError(f"{self.archive}: corrupt member {bad}")
                for member in MEMBERS:
                    self._find(archive, member)
        except zipfile.BadZipFile as exc:
            raise DataError(f"{self.archive} is not a valid zip archive: {exc}") from None

    @contextlib.contextmanager
    def open(self, member: str) -> Iterator[IO[bytes]]:
        try:
            archive = zipfile.ZipFile(self.archive)
        except zipfile.BadZipFile as exc:
            raise DataError(f"{self.archive} is not a valid zip archive: {exc}") from None
        with archive, archive.open(self._find(archive, member)) as handle:
            yield handle

    def label(self, member: str) -> str:
        """archive.zip:name/corpus.jsonl, as error messages name a member."""
        with zipfile.ZipFile(self.archive) as archive:
            return f"{self.archive}:{self._find(archive, member)}"

    def size(self, member: str) -> int:
        """Uncompressed bytes of a member."""
        with zipfile.ZipFile(self.archive) as archive:
            return archive.getinfo(self._find(archive, member)).file_size

    def fingerprint(self) -> dict[str, Any]:
        return {
            "kind": "zip",
            "path": str(self.archive),
            "subset": self.subset,
            "md5": file_digest(self.archive, "md5"),
            "sha256": file_digest(self.archive),
        }


@dataclass(frozen=True)
class FilesSource:
    """Collection files named one by one: a corpus and queries as JSON lines (BEIR) or TSV
    (id, text / id, title, text), qrels as TREC or BEIR TSV. A corpus alone (queries and
    qrels None) is what a corpus is prepared from. `fields`: members that are JSON lines
    whose fields have names of their own, whatever the file's name, each with the file's
    name of `_id`, `text` and (optional) `title` (records.json_batches)."""

    corpus: Path
    queries: Path | None = None
    qrels: Path | None = None
    split: str = "test"
    fields: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def _members(self) -> list[str]:
        return [m for m in MEMBERS if getattr(self, m) is not None]

    def _path(self, member: str) -> Path:
        path = getattr(self, member) if member in MEMBERS else None
        if path is None:
            raise DataError(f"no {member} file was given")
        return path

    def check(self) -> None:
        for member in self._members():
            if not self._path(member).is_file():
                raise DataError(f"the {member} file {self._path(member)} does not exist")

    def format(self, member: str) -> str:
        if member in self.fields:
            return "jsonl"
        name = self._path(member).name.lower().removesuffix(".gz")
        return "tsv" if name.endswith((".tsv", ".txt", ".tab")) else "jsonl"

    def field_names(self, member: str) -> Mapping[str, str] | None:
        """The file's names of a JSON-lines member's fields; None: BEIR's."""
        return self.fields.get(member)

    @contextlib.contextmanager
    def open(self, member: str) -> Iterator[IO[bytes]]:
        with open_file(self._path(member)) as handle:
            yield handle

    def label(self, member: str) -> str:
        return str(self._path(member))

    def size(self, member: str) -> int | None:
        return file_size(self._path(member))

    def fingerprint(self) -> dict[str, Any]:
        members = self._members()
        found = {
            "kind": "files",
            "path": str(self.corpus.parent),
            "sha256": {m: file_digest(self._path(m)) for m in members},
            "files": {m: str(self._path(m)) for m in members},
        }
        fields = {m: dict(self.fields[m]) for m in members if m in self.fields}
        return {**found, "fields": fields} if fields else found


def builtin_collection_path(name: str) -> Path:
    """Folder of a collection shipped with the package (e.g. 'minibeir')."""
    root = resources.files("sparsebench").joinpath("resources/collections")
    path = Path(str(root.joinpath(name)))
    if not path.is_dir():
        known = sorted(p.name for p in Path(str(root)).iterdir() if p.is_dir())
        raise DataError(f"no built-in collection {name!r}; built-in: {', '.join(known)}")
    return path
