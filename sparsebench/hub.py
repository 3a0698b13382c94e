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
import logging
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


def fetch_file(source: str, relative: str) -> Path:
    """A file of a hub dataset repository (downloaded once into the hub cache) or of a
    local folder in the same layout."""
    if _is_local(source):
        path = Path(source).expanduser() / relative
        if not path.is_file():
            raise DataError(f"{path} does not exist (expected the hub layout under {source})")
        return path
    try:
        from huggingface_hub import hf_hub_download

        return Path(hf_hub_download(source, relative, repo_type="dataset"))
    except Exception as exc:  # noqa: BLE001 (any hub failure: report what was asked)
        raise DataError(f"cannot fetch {relative} from the hub dataset {source!r}: {exc}") from None


def stream_records(
    source: str, pattern: str, columns: list[str] | None = None, batch_size: int = _BATCH
) -> Iterator[dict[str, list]]:
    """Batches (dicts of lists) of the records in the files matching `pattern` in a hub
    dataset repository or a local folder, streamed by `datasets`."""
    import datasets

    tsv = pattern.endswith((".tsv", ".tsv.gz"))
    options: dict[str, Any] = {}
    if tsv:
        options = {"delimiter": "\t", "column_names": columns, "quoting": 3}
    if _is_local(source):
        files = sorted(str(p) for p in Path(source).expanduser().glob(pattern))
        if not files:
            raise DataError(f"no file matches {pattern} under {source}")
        builder = "csv" if tsv else ("parquet" if files[0].endswith(".parquet") else "json")
        dataset = datasets.load_dataset(
            builder, data_files=files, split="train", streaming=True, **options
        )
    else:
        try:
            dataset = datasets.load_dataset(
                source, data_files=pattern, split="train", streaming=True, **options
            )
        except Exception as exc:  # noqa: BLE001
            raise DataError(
                f"cannot stream {pattern} from the hub dataset {source!r}: {exc}"
            ) from None
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


@dataclass(frozen=True)
class MiraclSource:
    language: str
    split: str = "dev"
    corpus: str = "miracl/miracl-corpus"
    topics: str = "miracl/miracl"
    corpus_files: str | None = None
    topics_files: str | None = None

    def check(self) -> None:
        for source in (self.corpus, self.topics):
            if source.startswith((".", "/", "~")) and not _is_local(source):
                raise DataError(f"MIRACL source folder {source} does not exist")

    def corpus_batches(self) -> Iterator[pa.RecordBatch]:
        pattern = self.corpus_files or f"miracl-corpus-v1.0-{self.language}/*.jsonl*"
        for records in stream_records(self.corpus, pattern):
            yield _corpus_batch(records, "docid", "title" in records)

    def _prefix(self) -> str:
        return f"miracl-v1.0-{self.language}"

    def queries_and_qrels(self) -> tuple[pa.Table, pd.DataFrame]:
        if self.topics_files:  # the hub dataset's example layout
            ids, texts, rows = [], [], []
            for records in stream_records(self.topics, self.topics_files):
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
        from sparsebench.prepare import parse_qrels

        name = f"{self._prefix()}-{self.split}.tsv"
        queries = read_topics(fetch_file(self.topics, f"{self._prefix()}/topics/topics.{name}"))
        qrels_path = fetch_file(self.topics, f"{self._prefix()}/qrels/qrels.{name}")
        return queries, parse_qrels(qrels_path.open("rb"), what=str(qrels_path))

    def fingerprint(self) -> dict[str, Any]:
        return {
            "kind": "miracl",
            "path": f"{self.corpus} + {self.topics}",
            "language": self.language,
            "split": self.split,
        }


@dataclass(frozen=True)
class MmarcoSource:
    language: str
    qrels: str
    query_language: str | None = None
    split: str = "dev"
    corpus: str = "unicamp-dl/mmarco"
    queries: str = "unicamp-dl/mmarco"
    corpus_files: str | None = None
    queries_files: str | None = None
    qrels_md5: str | None = None

    def _name(self, code: str) -> str:
        if code not in MMARCO_LANGUAGES:
            raise DataError(
                f"mMARCO has no language {code!r}; it has: {', '.join(MMARCO_LANGUAGES)}"
            )
        return MMARCO_LANGUAGES[code]

    def check(self) -> None:
        self._name(self.language)
        self._name(self.query_language or self.language)

    def corpus_batches(self) -> Iterator[pa.RecordBatch]:
        pattern = (
            self.corpus_files
            or f"data/google/collections/{self._name(self.language)}_collection.tsv"
        )
        for records in stream_records(self.corpus, pattern, columns=["id", "text"]):
            yield _corpus_batch(records, "id", False)

    def queries_and_qrels(self) -> tuple[pa.Table, pd.DataFrame]:
        from sparsebench.prepare import parse_qrels

        language = self._name(self.query_language or self.language)
        relative = (
            self.queries_files
            or f"data/google/queries/{self.split}/{language}_queries.{self.split}.tsv"
        )
        queries = read_topics(fetch_file(self.queries, relative))
        with self._qrels_file() as path:
            return queries, parse_qrels(Path(path).open("rb"), what=str(path))

    @contextlib.contextmanager
    def _qrels_file(self):
        if self.qrels.startswith(("http://", "https://")):
            import tempfile

            from sparsebench.download import download

            if not self.qrels_md5:
                raise DataError("a qrels URL needs its md5 (qrels_md5) so a wrong file is caught")
            with tempfile.TemporaryDirectory() as folder:
                target = Path(folder) / "qrels.tsv"
                download(self.qrels, target, self.qrels_md5)
                yield target
        elif ":" in self.qrels and not _is_local(self.qrels):
            repo, relative = self.qrels.split(":", 1)
            yield fetch_file(repo, relative)
        else:
            path = Path(self.qrels).expanduser()
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
            "qrels": self.qrels,
        }
