"""A TREC run file streamed a block at a time by Arrow's CSV reader, without pandas:
`sparsebench evaluate` starts reading the run while pandas is still being imported."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from sparsebench.core.errors import DataError
from sparsebench.data.delimited import NotSingleDelimited, refuse_gzip, stream_single_delimited

RUN_COLUMNS = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
RUN_TYPES = dict(
    zip(
        RUN_COLUMNS,
        [pa.string(), pa.string(), pa.string(), pa.int64(), pa.float64(), pa.string()],
        strict=True,
    )
)
RUN_BLOCK_BYTES = 4 << 20  # bytes of a run file read at a time by run_batches


def run_batches(path: str | Path, block_bytes: int = RUN_BLOCK_BYTES) -> Iterator[pa.RecordBatch]:
    """The run a block of about `block_bytes` at a time, as query_id, doc_id (strings)
    and score (float64) batches: for reading and evaluating at once, in memory that
    follows the block. Raises NotSingleDelimited, possibly after some batches, where
    only read_run reads the file (a layout other than single spaces or tabs) or can
    name its bad line; DataError on an empty or compressed file."""
    refuse_empty_or_gzip(path)
    read, convert = fast_options(["query_id", "doc_id", "score"])
    read.block_size = block_bytes
    read.use_threads = False
    for batch in stream_single_delimited(path, read, convert):
        if not finite(batch.column("score")):
            raise NotSingleDelimited("a score read by Arrow is missing or not finite")
        yield batch.select(["query_id", "doc_id", "score"])


def fast_options(columns: list[str]) -> tuple[pacsv.ReadOptions, pacsv.ConvertOptions]:
    """Arrow's options for a run file, keeping `columns`."""
    convert = pacsv.ConvertOptions(
        column_types=RUN_TYPES, strings_can_be_null=False, include_columns=columns
    )
    return pacsv.ReadOptions(column_names=RUN_COLUMNS), convert


def finite(score: pa.Array | pa.ChunkedArray) -> bool:
    """Whether every score was read as a finite number (else read_run names the line)."""
    return not score.null_count and pc.all(pc.is_finite(score)).as_py() is not False


def refuse_empty_or_gzip(path: str | Path) -> None:
    """DataError on an empty run (nothing retrieved: the likely cause named) or gzip bytes."""
    if Path(path).stat().st_size == 0:
        raise DataError(
            f"{path}: the run is empty: no query has a result. If the run was made here, "
            "every query retrieved nothing: are the queries' texts empty, or in another "
            "field or column, or are none of their terms in the corpus?"
        )
    refuse_gzip(path, str(path))
