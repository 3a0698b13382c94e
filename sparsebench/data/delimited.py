"""Whitespace tables in their common layout (fields one tab or one space apart, no
quoting) read by Arrow's CSV reader, and the refusal of gzip bytes behind a plain name.
Without pandas: a command can start reading a run while pandas is still being imported."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pyarrow as pa
import pyarrow.csv as pacsv

from sparsebench.core.errors import DataError


def read_single_delimited(
    path: str | Path, read: pacsv.ReadOptions, convert: pacsv.ConvertOptions
) -> pa.Table | None:
    """Arrow's CSV reader for the common layout of a whitespace table: fields one tab
    apart, or one space apart when the first line has no tab; no quoting. None where
    Arrow cannot read the file that way (other whitespace, a line with other fields):
    read_fields then reads it, or names the line that is wrong."""
    try:
        return pacsv.read_csv(
            path, read_options=read, parse_options=_single_delimiter(path), convert_options=convert
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None


def stream_single_delimited(
    path: str | Path, read: pacsv.ReadOptions, convert: pacsv.ConvertOptions
) -> Iterator[pa.RecordBatch]:
    """read_single_delimited a block at a time (memory follows read.block_size); raises
    NotSingleDelimited, possibly after some batches, where Arrow cannot read the file
    that way."""
    try:
        reader = pacsv.open_csv(
            path, read_options=read, parse_options=_single_delimiter(path), convert_options=convert
        )
        yield from reader
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise NotSingleDelimited(str(exc)) from None


class NotSingleDelimited(Exception):
    """The file is not in the common layout: the general reader reads it or names the
    line that is wrong."""


def _single_delimiter(path: str | Path) -> pacsv.ParseOptions:
    """Tabs when the first line has one, else single spaces; no quoting."""
    with open(path, "rb") as handle:
        first = handle.readline()
    return pacsv.ParseOptions(delimiter="\t" if b"\t" in first else " ", quote_char=False)


GZIP_MAGIC = b"\x1f\x8b"
GZIP_PROBLEM = "gzip-compressed, not text: decompress it (gunzip) first"


def refuse_gzip(source: str | Path | IO, what: str) -> None:
    """A clear error for a gzip-compressed file whose name does not say so (a name
    ending in .gz is decompressed by the readers): its bytes would otherwise parse as a
    line of nonsense, or fail at a random line."""
    if isinstance(source, str | Path) and not str(source).endswith(".gz") and is_gzip(source):
        raise DataError(f"{what} line 1: {GZIP_PROBLEM}")


def is_gzip(path: str | Path) -> bool:
    """Whether a file is gzip-compressed, by its first bytes (whatever its name)."""
    with open(path, "rb") as handle:
        return handle.read(2) == GZIP_MAGIC
