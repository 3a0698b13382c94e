"""MIRACL v1.0 from the Hugging Face hub (miracl/miracl-corpus, miracl/miracl), or a local
folder in the same layout:

    {corpus}/miracl-corpus-v1.0-{lang}/*.jsonl[.gz]   records: docid, title, text
    {topics}/miracl-v1.0-{lang}/topics/topics.miracl-v1.0-{lang}-{split}.tsv   qid \\t query
    {topics}/miracl-v1.0-{lang}/qrels/qrels.miracl-v1.0-{lang}-{split}.tsv     TREC qrels

or, with `topics_files`, records in the hub dataset's layout: query_id, query,
positive_passages [{docid, title, text}], negative_passages [...]. Judged negatives are
grade 0: never relevant.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa

from sparsebench.core.errors import DataError
from sparsebench.data import hub, hubrepo

log = logging.getLogger(__name__)


# Languages and topic sets of MIRACL v1.0 (as the miracl/miracl repository and ir_datasets
# publish them); test-a and test-b come without public judgments.
MIRACL_SPLITS: dict[str, tuple[str, ...]] = {
    **{
        code: ("train", "dev", "test-a", "test-b")
        for code in ("ar", "bn", "en", "fi", "id", "ja", "ko", "ru", "sw", "te", "th")
    },
    **{code: ("train", "dev", "test-b") for code in ("es", "fa", "fr", "hi", "zh")},
    "de": ("dev", "test-b"),
    "yo": ("dev", "test-b"),
}


MIRACL_JUDGED = ("train", "dev")


def miracl_problems(language: str, split: str) -> list[tuple[str, str]]:
    """What is wrong with a MIRACL language and split, as (key, message) pairs."""
    if language not in MIRACL_SPLITS:
        return [("language", hub.unknown_name("MIRACL", "language", language, list(MIRACL_SPLITS)))]
    splits = MIRACL_SPLITS[language]
    if split not in splits:
        return [("split", hub.unknown_name(f"MIRACL {language}", "split", split, splits))]
    if split not in MIRACL_JUDGED:
        judged = " or ".join(s for s in MIRACL_JUDGED if s in splits)
        return [
            (
                "split",
                f"MIRACL {language} {split} has topics but no public judgments; "
                f"evaluate on {judged}",
            )
        ]
    return []


@dataclass(frozen=True)
class MiraclSource:
    """MIRACL v1.0: the corpus of one language (miracl/miracl-corpus), its topics and
    judgments (miracl/miracl)."""

    language: str
    split: str = "dev"
    corpus: str = "miracl/miracl-corpus"
    topics: str = "miracl/miracl"
    corpus_files: str | None = None
    topics_files: str | None = None
    revision: str = "main"  # of the corpus, and of the topics unless the next says
    topics_revision: str | None = None  # the topics' own: the two repositories' commits differ

    @property
    def _topics_at(self) -> str:
        return self.topics_revision or self.revision

    def check(self) -> None:
        for source in (self.corpus, self.topics):
            if source.startswith((".", "/", "~")) and not hub.is_local(source):
                raise DataError(f"MIRACL source folder {source} does not exist")
        if not self.topics_files:
            for _, message in miracl_problems(self.language, self.split):
                raise DataError(message)

    def _corpus_pattern(self) -> str:
        return self.corpus_files or f"miracl-corpus-v1.0-{self.language}/*.jsonl*"

    def corpus_batches(self) -> Iterator[pa.RecordBatch]:
        for records in hub.stream_records(
            self.corpus, self._corpus_pattern(), revision=self.revision
        ):
            yield hub.corpus_batch(records, "docid", "title" in records)

    def _prefix(self) -> str:
        return f"miracl-v1.0-{self.language}"

    def _topic_files(self) -> tuple[str, str]:
        name = f"{self._prefix()}-{self.split}.tsv"
        return f"{self._prefix()}/topics/topics.{name}", f"{self._prefix()}/qrels/qrels.{name}"

    def remote_corpus_files(self) -> list[hubrepo.RemoteFile]:
        """The hub files (a glob) of the corpus; none from a local folder."""
        return hub.remote_file(self.corpus, self._corpus_pattern(), self.revision)

    def remote_files(self) -> list[hubrepo.RemoteFile]:
        """The hub files (and globs) this dataset reads: its corpus, topics and judgments."""
        topics = [self.topics_files] if self.topics_files else list(self._topic_files())
        return [
            *self.remote_corpus_files(),
            *(f for path in topics for f in hub.remote_file(self.topics, path, self._topics_at)),
        ]

    def queries_and_qrels(self) -> tuple[pa.Table, pd.DataFrame]:
        if self.topics_files:  # the hub dataset's example layout
            return self._examples()
        from sparsebench.data.qrels import parse_qrels

        topics, qrels = (
            hub.fetch_file(self.topics, f, self._topics_at) for f in self._topic_files()
        )
        return hub.read_topics(topics), parse_qrels(qrels.open("rb"), what=str(qrels))

    def _examples(self) -> tuple[pa.Table, pd.DataFrame]:
        """Records of query_id, query, positive_passages and negative_passages; judged
        negatives become grade 0."""
        ids, texts, rows = [], [], []
        for records in hub.stream_records(self.topics, self.topics_files, revision=self._topics_at):
            for qid, query, positives, negatives in zip(
                records["query_id"],
                records["query"],
                records["positive_passages"],
                records["negative_passages"],
                strict=True,
            ):
                ids.append(str(qid))
                texts.append(query)
                rows += [(str(qid), p["docid"], 1) for p in positives]
                rows += [(str(qid), n["docid"], 0) for n in negatives]
        queries = pa.table(
            {"query_id": pa.array(ids, pa.string()), "text": pa.array(texts, pa.string())}
        )
        return queries, pd.DataFrame(rows, columns=["query_id", "doc_id", "grade"])

    def corpus_fingerprint(self) -> dict[str, Any]:
        """What the documents alone are read from (a corpus's corpus.json): no split, no
        topics."""
        return {
            "kind": "miracl",
            "path": self.corpus,
            "files": self._corpus_pattern(),
            "language": self.language,
            "revision": self.revision,
            "commits": hub.resolved_commits(self.revision, self.corpus),
        }

    def fingerprint(self) -> dict[str, Any]:
        return {
            "kind": "miracl",
            "path": f"{self.corpus} + {self.topics}",
            "language": self.language,
            "split": self.split,
            "revision": self.revision,
            **({"topics_revision": self.topics_revision} if self.topics_revision else {}),
            "commits": {
                **hub.resolved_commits(self.revision, self.corpus),
                **hub.resolved_commits(self._topics_at, self.topics),
            },
        }
