"""corpus.parquet, the prepared form of a corpus: its schema, and its rows read a slice
at a time (only the row groups that hold them). Kept apart from prepare.py, which writes
it, so that the jobs that only read it (encoding, partitions) do not import pandas."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sparsebench.data.records import join_title

CORPUS_SCHEMA = pa.schema([("doc_id", pa.string()), ("title", pa.string()), ("body", pa.string())])
TEXT = "text"  # the derived column: (title + " " + body).strip()


def read_corpus(path: str | Path, columns: list[str] | None = None) -> pa.Table:
    """The whole of corpus.parquet (only `columns`, default all and `text`)."""
    return read_corpus_slice(path, 0, pq.ParquetFile(path).metadata.num_rows, columns)


def read_corpus_slice(
    path: str | Path, start: int, stop: int, columns: list[str] | None = None
) -> pa.Table:
    """Rows [start, stop) of corpus.parquet (only `columns`, default all, and `text`, the
    document's text), reading only the row groups that hold them."""
    wanted = columns or [*CORPUS_SCHEMA.names, TEXT]
    stored = [c for c in CORPUS_SCHEMA.names if c in wanted or (TEXT in wanted and c != "doc_id")]
    parquet = pq.ParquetFile(path)
    tables, offset = [], 0
    for group in range(parquet.num_row_groups):
        rows = parquet.metadata.row_group(group).num_rows
        if offset + rows > start and offset < stop:
            table = parquet.read_row_group(group, columns=stored)
            lo, hi = max(start - offset, 0), min(stop - offset, rows)
            tables.append(table.slice(lo, hi - lo))
        offset += rows
        if offset >= stop:
            break
    table = pa.concat_tables(tables) if tables else CORPUS_SCHEMA.empty_table().select(stored)
    if TEXT in wanted:
        table = table.append_column(TEXT, join_title(table["title"], table["body"]))
    return table.select(wanted)
