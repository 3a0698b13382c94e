"""Collections published on the Hugging Face hub: MIRACL and mMARCO.

Each source reads the files of the hub repository, or a local folder in the same layout
(so tests and mirrors use the same code path); the corpus is streamed with the
`datasets` library in batches, never held whole.

MIRACL (miracl/miracl-corpus, miracl/miracl):
    {corpus}/miracl-corpus-v1.0-{lang}/*.jsonl[.gz]   records: docid, title, text
    {topics}/miracl-v1.0-{lang}/topics/topics.miracl-v1.0-{lang}-{split}.tsv   qid \\t query
    {topics}/miracl-v1.0-{lang}/qrels/qrels.miracl-v1.0-{lang}-{split}.tsv     TREC qrels
  or, with `topics_files`, records in the hub dataset's layout: query_id, query,
  positive_passages [{docid, title, text}], negative_passages [...].
  Judged negatives are grade 0: never relevant.

mMARCO (unicamp-dl/mmarco):
    {corpus}/data/google/collections/{language name}_collection.tsv       pid \\t passage
    {queries}/data/google/queries/{split}/{language name}_queries.{split}.tsv   qid \\t query
  qrels: the MS MARCO qrels of the split (TREC format), a path, a hub file or a URL.
  Documents and queries may be in different languages (cross-lingual runs).
"""

from __future__ import annotations

import contextlib
import difflib
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from sparsebench.errors import DataError

log = logging.getLogger(__name__)
_BATCH = 10_000
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


def _is_local(source: str) -> bool:
    return Path(source).expanduser().exists()


_RESOLVED: dict[str, str] = {}  # hub repository -> the commit its files were read at


def resolved_commits(*repos: str) -> dict[str, str]:
    """The commit each hub repository was read at in this process (for provenance)."""
    return {repo: _RESOLVED[repo] for repo in repos if repo in _RESOLVED}


def _note_commit(repo: str, path: Path) -> None:
    parts = path.parts
    if "snapshots" in parts:
        _RESOLVED[repo] = parts[parts.index("snapshots") + 1]


def hub_snapshot(repo: str, patterns: list[str], revision: str = "main") -> Path:
    """A local folder holding the files of the hub dataset `repo` (at `revision`) that match
    `patterns`, fetched once into the hub cache with `huggingface_hub`.

    Only the data files are read, never the repository's loading script, so repositories
    that still ship one (miracl, mmarco) load with any version of `datasets`. Each file is
    written under a temporary name and moved into the cache only when complete: a cut
    connection is retried within the call, and a killed download is never taken for whole
    (the next run fetches the file again). Offline (HF_HUB_OFFLINE=1), the cached copy is
    used.
    """
    from huggingface_hub import snapshot_download

    try:
        folder = Path(
            snapshot_download(repo, repo_type="dataset", revision=revision, allow_patterns=patterns)
        )
    except Exception as exc:  # noqa: BLE001 (any hub failure: report what was asked)
        raise DataError(
            f"cannot fetch {', '.join(patterns)} from the hub dataset {repo!r} at revision "
            f"{revision!r}: {exc}"
        ) from None
    _RESOLVED[repo] = folder.name
    return folder


def fetch_file(source: str, relative: str, revision: str = "main") -> Path:
    """A file of a hub dataset repository (downloaded once into the hub cache) or of a
    local folder in the same layout."""
    if _is_local(source):
        path = Path(source).expanduser() / relative
        if not path.is_file():
            raise DataError(f"{path} does not exist (expected the hub layout under {source})")
        return path
    try:
        from huggingface_hub import hf_hub_download

        path = Path(hf_hub_download(source, relative, repo_type="dataset", revision=revision))
    except Exception as exc:  # noqa: BLE001 (any hub failure: report what was asked)
        raise DataError(
            f"cannot fetch {relative} from the hub dataset {source!r} at revision "
            f"{revision!r}: {exc}"
        ) from None
    _note_commit(source, path)
    return path


def _natural_key(path: Path) -> list[Any]:
    """docs-2 before docs-10: the files in the order their publishers numbered them."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.as_posix())]


def matching_files(source: str, pattern: str, revision: str = "main") -> list[Path]:
    """The files matching `pattern` (a glob relative to the repository or folder root) of a
    local folder, or of a hub dataset repository once fetched, in natural order."""
    local = _is_local(source)
    root = Path(source).expanduser() if local else hub_snapshot(source, [pattern], revision)
    files = sorted((p for p in root.glob(pattern) if p.is_file()), key=_natural_key)
    if not files:
        where = source if local else f"the hub dataset {source!r} at revision {revision!r}"
        raise DataError(f"no file matches {pattern} in {where}")
    return files


def stream_records(
    source: str,
    pattern: str,
    columns: list[str] | None = None,
    batch_size: int = _BATCH,
    revision: str = "main",
) -> Iterator[dict[str, list]]:
    """Batches (dicts of lists) of the records in the files matching `pattern`, read by the
    packaged builders of `datasets` (json, csv, parquet) in streaming mode: memory is
    bounded by the batch, whatever the size of the files."""
    import datasets

    files = [str(p) for p in matching_files(source, pattern, revision)]
    options: dict[str, Any] = {}
    if pattern.endswith((".tsv", ".tsv.gz")):
        builder = "csv"
        options = {"delimiter": "\t", "column_names": columns, "quoting": 3}
    else:
        builder = "parquet" if files[0].endswith(".parquet") else "json"
    dataset = datasets.load_dataset(
        builder, data_files=files, split="train", streaming=True, **options
    )
    yield from dataset.iter(batch_size=batch_size)


def _corpus_batch(records: dict[str, list], id_field: str, has_title: bool) -> pa.RecordBatch:
    size = len(records[id_field])
    ids = pa.array([str(v) if isinstance(v, int) else v for v in records[id_field]], pa.string())
    title = pa.array(records["title"], pa.string()) if has_title else pa.nulls(size, pa.string())
    return pa.record_batch(
        [ids, title, pa.array(records["text"], pa.string())], names=["_id", "title", "text"]
    )


def read_topics(path: Path) -> pa.Table:
    """Topics as `id \\t text` lines (the text may hold spaces): query_id, text."""
    frame = pd.read_csv(
        path,
        sep="\t",
        header=None,
        dtype=str,
        quoting=3,
        keep_default_na=False,
        names=["id", "text"],
        usecols=[0, 1],
        engine="c",
    )
    return pa.table(
        {
            "query_id": pa.array(frame["id"], pa.string()),
            "text": pa.array(frame["text"], pa.string()),
        }
    )


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


def _close(name: str, known: list[str] | tuple[str, ...]) -> str:
    """' (did you mean X?)' when a known name is close to `name`."""
    normal = {k.replace("-", "").replace("_", "").lower(): k for k in known}
    guess = normal.get(name.replace("-", "").replace("_", "").lower())
    if guess is None:
        matches = difflib.get_close_matches(name, list(known), n=1)
        guess = matches[0] if matches else None
    return f" (did you mean {guess!r}?)" if guess else ""


def _unknown(what: str, kind: str, name: str, known: list[str] | tuple[str, ...]) -> str:
    return f"{what} has no {kind} {name!r}{_close(name, known)}; it has: {', '.join(known)}"


def miracl_problems(language: str, split: str) -> list[tuple[str, str]]:
    """What is wrong with a MIRACL language and split, as (key, message) pairs."""
    if language not in MIRACL_SPLITS:
        return [("language", _unknown("MIRACL", "language", language, list(MIRACL_SPLITS)))]
    splits = MIRACL_SPLITS[language]
    if split not in splits:
        return [("split", _unknown(f"MIRACL {language}", "split", split, splits))]
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


def mmarco_problems(language: str, query_language: str | None, split: str) -> list[tuple[str, str]]:
    """What is wrong with an mMARCO entry's languages and split, as (key, message) pairs."""
    problems = [
        (key, _unknown("mMARCO", "language", code, list(MMARCO_LANGUAGES)))
        for key, code in (("language", language), ("query_language", query_language))
        if code is not None and code not in MMARCO_LANGUAGES
    ]
    if split not in MMARCO_SPLITS:
        problems.append(("split", _unknown("mMARCO", "split", split, MMARCO_SPLITS)))
    return problems


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
    revision: str = "main"

    def check(self) -> None:
        for source in (self.corpus, self.topics):
            if source.startswith((".", "/", "~")) and not _is_local(source):
                raise DataError(f"MIRACL source folder {source} does not exist")
        if not self.topics_files:
            for _, message in miracl_problems(self.language, self.split):
                raise DataError(message)

    def corpus_batches(self) -> Iterator[pa.RecordBatch]:
        pattern = self.corpus_files or f"miracl-corpus-v1.0-{self.language}/*.jsonl*"
        for records in stream_records(self.corpus, pattern, revision=self.revision):
            yield _corpus_batch(records, "docid", "title" in records)

    def _prefix(self) -> str:
        return f"miracl-v1.0-{self.language}"

    def queries_and_qrels(self) -> tuple[pa.Table, pd.DataFrame]:
        if self.topics_files:  # the hub dataset's example layout
            return self._examples()
        from sparsebench.data.prepare import parse_qrels

        name = f"{self._prefix()}-{self.split}.tsv"
        topics = fetch_file(self.topics, f"{self._prefix()}/topics/topics.{name}", self.revision)
        qrels_path = fetch_file(self.topics, f"{self._prefix()}/qrels/qrels.{name}", self.revision)
        return read_topics(topics), parse_qrels(qrels_path.open("rb"), what=str(qrels_path))

    def _examples(self) -> tuple[pa.Table, pd.DataFrame]:
        """Records of query_id, query, positive_passages and negative_passages; judged
        negatives become grade 0."""
        ids, texts, rows = [], [], []
        for records in stream_records(self.topics, self.topics_files, revision=self.revision):
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

    def fingerprint(self) -> dict[str, Any]:
        return {
            "kind": "miracl",
            "path": f"{self.corpus} + {self.topics}",
            "language": self.language,
            "split": self.split,
            "revision": self.revision,
            "commits": resolved_commits(self.corpus, self.topics),
        }


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
            raise DataError(_unknown("mMARCO", "language", code, list(MMARCO_LANGUAGES)))
        return MMARCO_LANGUAGES[code]

    def check(self) -> None:
        for _, message in mmarco_problems(self.language, self.query_language, self.split):
            raise DataError(message)
        if self.qrels is None and self.split not in MMARCO_QRELS:
            raise DataError(
                f"mMARCO {self.split} has no default judgments; give `qrels:` "
                "(a path, a hub file as repo:path, or a URL with qrels_md5)"
            )

    def corpus_batches(self) -> Iterator[pa.RecordBatch]:
        pattern = (
            self.corpus_files
            or f"data/google/collections/{self._name(self.language)}_collection.tsv"
        )
        for records in stream_records(
            self.corpus, pattern, columns=["id", "text"], revision=self.revision
        ):
            yield _corpus_batch(records, "id", False)

    def queries_and_qrels(self) -> tuple[pa.Table, pd.DataFrame]:
        from sparsebench.data.prepare import parse_qrels

        language = self._name(self.query_language or self.language)
        relative = self.queries_files or MMARCO_QUERIES[self.split].format(language=language)
        queries = read_topics(fetch_file(self.queries, relative, self.revision))
        with self._qrels_file() as path:
            return queries, parse_qrels(Path(path).open("rb"), what=str(path))

    @contextlib.contextmanager
    def _qrels_file(self):
        qrels = self.qrels
        if qrels is None:
            yield fetch_file(self.queries, MMARCO_QRELS[self.split], self.revision)
        elif qrels.startswith(("http://", "https://")):
            import tempfile

            from sparsebench.data.download import download

            if not self.qrels_md5:
                raise DataError("a qrels URL needs its md5 (qrels_md5) so a wrong file is caught")
            with tempfile.TemporaryDirectory() as folder:
                target = Path(folder) / "qrels.tsv"
                download(qrels, target, self.qrels_md5)
                yield target
        elif ":" in qrels and not _is_local(qrels):
            repo, relative = qrels.split(":", 1)
            yield fetch_file(repo, relative, self.revision)
        else:
            path = Path(qrels).expanduser()
            if not path.is_file():
                raise DataError(f"mMARCO qrels {path} does not exist")
            yield path

    def fingerprint(self) -> dict[str, Any]:
        return {
            "kind": "mmarco",
            "path": f"{self.corpus} + {self.queries}",
            "language": self.language,
            "query_language": self.query_language or self.language,
            "split": self.split,
            "qrels": self.qrels or f"{self.queries}:{MMARCO_QRELS.get(self.split)}",
            "revision": self.revision,
            "commits": resolved_commits(self.corpus, self.queries),
        }
