"""mMARCO (unicamp-dl/mmarco) from the Hugging Face hub, or a local folder in the same
layout:

    {corpus}/data/google/collections/{language name}_collection.tsv       pid \\t passage
    {queries}/data/google/queries/{split}/{language name}_queries.{split}.tsv   qid \\t query

qrels: the MS MARCO qrels of the split (TREC format), a path, a hub file or a URL.
Documents and queries may be in different languages (cross-lingual runs).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from sparsebench.core.errors import DataError
from sparsebench.data import hub, hubrepo

log = logging.getLogger(__name__)


MMARCO_LANGUAGES = {
    "ar": "arabic",
    "zh": "chinese",
    "nl": "dutch",
    "en": "english",
    "fr": "french",
    "de": "german",
    "hi": "hindi",
    "id": "indonesian",
    "it": "italian",
    "ja": "japanese",
    "pt": "portuguese",
    "ru": "russian",
    "es": "spanish",
    "vi": "vietnamese",
}


def mmarco_problems(language: str, query_language: str | None, split: str) -> list[tuple[str, str]]:
    """What is wrong with an mMARCO entry's languages and split, as (key, message) pairs."""
    problems = [
        (key, hub.unknown_name("mMARCO", "language", code, list(MMARCO_LANGUAGES)))
        for key, code in (("language", language), ("query_language", query_language))
        if code is not None and code not in MMARCO_LANGUAGES
    ]
    if split not in MMARCO_SPLITS:
        problems.append(("split", hub.unknown_name("mMARCO", "split", split, MMARCO_SPLITS)))
    return problems


MMARCO_SPLITS = ("dev", "train")


# The files of unicamp-dl/mmarco that a split reads by default: MS MARCO's dev set is the
# 6,980 queries of dev.small, judged in data/qrels.dev.small.tsv.
MMARCO_QUERIES = {
    "dev": "data/google/queries/dev/{language}_queries.dev.small.tsv",
    "train": "data/google/queries/train/{language}_queries.train.tsv",
}


MMARCO_QRELS = {"dev": "data/qrels.dev.small.tsv"}


@dataclass(frozen=True)
class MmarcoSource:
    """mMARCO (unicamp-dl/mmarco, Google-translated): MS MARCO passages and queries in 14
    languages, judged by the MS MARCO qrels."""

    language: str
    qrels: str | None = None
    query_language: str | None = None
    split: str = "dev"
    corpus: str = "unicamp-dl/mmarco"
    queries: str = "unicamp-dl/mmarco"
    corpus_files: str | None = None
    queries_files: str | None = None
    qrels_md5: str | None = None
    revision: str = "main"

    def _name(self, code: str) -> str:
        if code not in MMARCO_LANGUAGES:
            raise DataError(hub.unknown_name("mMARCO", "language", code, list(MMARCO_LANGUAGES)))
        return MMARCO_LANGUAGES[code]

    def check(self) -> None:
        for _, message in mmarco_problems(self.language, self.query_language, self.split):
            raise DataError(message)
        if self.qrels is None and self.split not in MMARCO_QRELS:
            raise DataError(
                f"mMARCO {self.split} has no default judgments; give `qrels:` "
                "(a path, a hub file as repo:path, or a URL with qrels_md5)"
            )

    def _corpus_pattern(self) -> str:
        return (
            self.corpus_files
            or f"data/google/collections/{self._name(self.language)}_collection.tsv"
        )

    def _queries_file(self) -> str:
        language = self._name(self.query_language or self.language)
        return self.queries_files or MMARCO_QUERIES[self.split].format(language=language)

    def corpus_batches(self) -> Iterator[pa.RecordBatch]:
        for records in hub.stream_records(
            self.corpus, self._corpus_pattern(), columns=["id", "text"], revision=self.revision
        ):
            yield hub.corpus_batch(records, "id", False)

    def remote_corpus_files(self) -> list[hubrepo.RemoteFile]:
        """The hub file (or glob) of the passages; none from a local folder."""
        return hub.remote_file(self.corpus, self._corpus_pattern(), self.revision)

    def remote_files(self) -> list[hubrepo.RemoteFile]:
        """The hub files (and globs) this dataset reads: passages, queries and the
        judgments when they are a hub file (a qrels URL is checked by its md5 on download)."""
        qrels = self._hub_qrels()
        return [
            *self.remote_corpus_files(),
            *hub.remote_file(self.queries, self._queries_file(), self.revision),
            *(hub.remote_file(*qrels, self.revision) if qrels else []),
        ]

    def _hub_qrels(self) -> tuple[str, str] | None:
        """(repository, file) of judgments read from the hub, else None (a path, a URL)."""
        qrels = self.qrels
        if qrels is None:  # the split's default (check() requires one)
            return (self.queries, MMARCO_QRELS[self.split]) if self.split in MMARCO_QRELS else None
        if qrels.startswith(("http://", "https://")) or ":" not in qrels or hub.is_local(qrels):
            return None
        repo, relative = qrels.split(":", 1)
        return repo, relative

    def queries_and_qrels(self) -> tuple[pa.Table, pd.DataFrame]:
        from sparsebench.data.qrels import parse_qrels

        queries = hub.read_topics(hub.fetch_file(self.queries, self._queries_file(), self.revision))
        with self._qrels_file() as path:
            return queries, parse_qrels(Path(path).open("rb"), what=str(path))

    @contextlib.contextmanager
    def _qrels_file(self):
        qrels, on_hub = self.qrels, self._hub_qrels()
        if on_hub is not None:
            yield hub.fetch_file(*on_hub, self.revision)
        elif qrels.startswith(("http://", "https://")):
            import tempfile

            from sparsebench.data.download import download

            if not self.qrels_md5:
                raise DataError("a qrels URL needs its md5 (qrels_md5) so a wrong file is caught")
            with tempfile.TemporaryDirectory() as folder:
                target = Path(folder) / "qrels.tsv"
                download(qrels, target, self.qrels_md5)
                yield target
        else:
            path = Path(qrels).expanduser()
            if not path.is_file():
                raise DataError(f"mMARCO qrels {path} does not exist")
            yield path

    def corpus_fingerprint(self) -> dict[str, Any]:
        """What the passages alone are read from (a corpus's corpus.json): no split, no
        queries or judgments."""
        return {
            "kind": "mmarco",
            "path": self.corpus,
            "files": self._corpus_pattern(),
            "language": self.language,
            "revision": self.revision,
            "commits": hub.resolved_commits(self.revision, self.corpus),
        }

    def fingerprint(self) -> dict[str, Any]:
        qrels_repo = (self._hub_qrels() or (self.queries,))[0]
        return {
            "kind": "mmarco",
            "path": f"{self.corpus} + {self.queries}",
            "language": self.language,
            "query_language": self.query_language or self.language,
            "split": self.split,
            "qrels": self.qrels or f"{self.queries}:{MMARCO_QRELS.get(self.split)}",
            "revision": self.revision,
            "commits": hub.resolved_commits(self.revision, self.corpus, self.queries, qrels_repo),
        }
