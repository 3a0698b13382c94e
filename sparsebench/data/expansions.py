"""Document expansion from files: predicted queries appended to each document's text
before analysis, as Anserini indexes doc2query-T5's expanded collections (the passage,
a space, the predictions: docTTTTTquery's convert script; Pyserini's expansions).

Two layouts of the published files are read, in corpus order (checked):
  lines   one line per document, its predictions joined by spaces (docTTTTTquery's
          predicted_queries_topk_sampling files pasted together)
  jsonl   records {"id": ..., "predicted_queries": [...]} (Pyserini's
          castorini/msmarco_v1_passage_doc2query-t5_expansions); `count` keeps the
          first n predictions, `field` and `id_field` name other keys; the records follow
          the corpus's order, and a document without one keeps its text (as Pyserini's
          augment_corpus.py); a record no document matches in that order is refused
Both may be gzipped. The file is read alongside the corpus, a batch at a time: memory
follows the batch, not the corpus.
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import IO, Any

import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.errors import DataError

FORMATS = ("lines", "jsonl")


@dataclass(frozen=True)
class Expansions:
    """A corpus's expansions setting (`expansions:` of a dataset entry)."""

    path: str
    format: str = "lines"
    field: str = "predicted_queries"
    id_field: str = "id"
    count: int | None = None

    @classmethod
    def from_config(cls, settings: Mapping[str, Any]) -> Expansions:
        expansions = cls(**settings)
        if expansions.format not in FORMATS:
            raise DataError(f"expansions format must be one of {', '.join(FORMATS)}")
        return expansions


def _open(path: str) -> IO[str]:
    if not Path(path).is_file():
        raise DataError(f"expansions file {path} does not exist")
    raw = open(path, "rb")  # noqa: SIM115 (closed by the wrapper)
    if raw.read(2) == b"\x1f\x8b":
        raw.seek(0)
        return io.TextIOWrapper(gzip.GzipFile(fileobj=raw), encoding="utf-8")
    raw.seek(0)
    return io.TextIOWrapper(raw, encoding="utf-8")


class ExpansionReader:
    """The expansions of the corpus's documents, batch after batch, in corpus order."""

    def __init__(self, settings: Expansions) -> None:
        self.settings = settings
        self.handle = _open(settings.path)
        self.read = 0
        self.pending = self._record() if settings.format == "jsonl" else None

    def __enter__(self) -> ExpansionReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()

    def _record(self) -> tuple[str, str] | None:
        """The next jsonl record's (document id, predictions joined), or None at the end."""
        line = self.handle.readline()
        if not line:
            return None
        self.read += 1
        where = f"{self.settings.path} line {self.read}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise DataError(f"{where}: not JSON ({error})") from None
        predictions = record.get(self.settings.field)
        if isinstance(predictions, str):
            predictions = [predictions]
        if not isinstance(predictions, list) or self.settings.id_field not in record:
            raise DataError(
                f"{where}: no {self.settings.id_field!r} or no list of predictions under "
                f"{self.settings.field!r}"
            )
        joined = " ".join(str(p).strip() for p in predictions[: self.settings.count])
        return str(record[self.settings.id_field]), joined

    def _texts(self, ids: list[str]) -> list[str]:
        if self.settings.format == "lines":
            lines = list(islice(self.handle, len(ids)))
            self.read += len(lines)
            if len(lines) < len(ids):
                raise DataError(
                    f"{self.settings.path} has expansions for {self.read} documents; the "
                    "corpus has more"
                )
            return [line.rstrip("\n").strip() for line in lines]
        texts = []
        for doc_id in ids:
            if self.pending is not None and self.pending[0] == doc_id:
                texts.append(self.pending[1])
                self.pending = self._record()
            else:
                texts.append("")
        return texts

    def append_to(self, body: pa.Array, ids: pa.Array) -> pa.Array:
        """The batch's texts with their documents' expansions appended."""
        texts = pa.array(self._texts(ids.to_pylist()), pa.string())
        expanded = pc.binary_join_element_wise(pc.fill_null(body, ""), texts, " ")
        return pc.utf8_trim_whitespace(expanded)

    def check_done(self) -> None:
        """Refuse expansions left over: for more documents than the corpus has, or a
        record out of the corpus's order."""
        if self.settings.format == "lines":
            if next(self.handle, None) is not None:
                raise DataError(
                    f"{self.settings.path} has expansions for more documents than the "
                    f"corpus ({self.read})"
                )
        elif self.pending is not None:
            raise DataError(
                f"{self.settings.path} line {self.read}: expansions of {self.pending[0]!r} "
                "match no document in the corpus's order (not in the corpus, or out of order)"
            )


def expanded_batches(
    batches: Iterator[pa.RecordBatch], settings: Mapping[str, Any] | None
) -> Iterator[pa.RecordBatch]:
    """The corpus's record batches (_id, title, text), each text with its expansions."""
    if not settings:
        yield from batches
        return
    with ExpansionReader(Expansions.from_config(settings)) as reader:
        for batch in batches:
            text = reader.append_to(batch.column("text"), batch.column("_id"))
            yield batch.set_column(batch.schema.get_field_index("text"), "text", text)
        reader.check_done()
