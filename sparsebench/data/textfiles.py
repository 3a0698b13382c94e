"""Whitespace-separated text tables (TREC runs, qrels) read fast, with errors that name
the file and the line; streams checked for UTF-8 as they are read; and the search for the
first bad line of a file, run only once a fast reader has failed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np
import pyarrow as pa

from sparsebench.core.errors import DataError
from sparsebench.data.delimited import GZIP_MAGIC, GZIP_PROBLEM, refuse_gzip

if TYPE_CHECKING:  # pandas: imported by read_fields, the one function that reads with it
    import pandas as pd


def read_fields(source: str | Path | IO, what: str) -> tuple[pd.DataFrame, np.ndarray]:
    """All fields as strings, and the 1-based line number of each row; blank lines skipped.

    Raises DataError naming `what` and the line when a line has a different number of
    fields than the first one.
    """
    import pandas as pd

    refuse_gzip(source, what)
    try:
        frame = pd.read_csv(
            source,
            sep=r"\s+",
            header=None,
            dtype=str,
            engine="c",
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=False,
            quoting=3,
            encoding="utf-8",
        )
    except pd.errors.EmptyDataError:
        raise DataError(f"{what}: the file is empty") from None
    except pd.errors.ParserError as exc:
        detail = str(exc).replace("Error tokenizing data. C error: ", "")
        raise DataError(f"{what}: {detail}") from None
    except UnicodeDecodeError as exc:
        raise DataError(_not_utf8_message(source, what, exc)) from None
    lines = np.arange(1, len(frame) + 1)
    empty = (frame == "").to_numpy()
    blank = empty.all(axis=1)
    short = empty.any(axis=1) & ~blank
    if short.any():
        row = int(np.argmax(short))
        found = int((~empty[row]).sum())
        raise DataError(f"{what}: line {lines[row]} has {found} fields, expected {frame.shape[1]}")
    if blank.any():
        frame, lines = frame[~blank].reset_index(drop=True), lines[~blank]
    return frame, lines


def first_bad(mask: np.ndarray | pd.Series) -> int | None:
    """Index of the first True in `mask`, or None."""
    values = np.asarray(mask)
    return int(np.argmax(values)) if values.any() else None


# --- UTF-8 ------------------------------------------------------------------------------


class NotUtf8(DataError):
    """Bytes that are not UTF-8, at `offset` bytes from the start of the stream."""

    def __init__(self, offset: int, byte: int | None):
        self.offset, self.byte = offset, byte
        shown = f"byte 0x{byte:02x}" if byte is not None else "an incomplete character"
        super().__init__(f"not UTF-8 ({shown} at byte {offset} of the file)")


def _complete_prefix(block: bytes) -> int:
    """Length of `block` without a multi-byte character cut short at its end."""
    size = len(block)
    for back in range(1, min(4, size) + 1):
        byte = block[size - back]
        if byte < 0x80:
            return size
        if byte >= 0xC0:  # a lead byte: how long its character is
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return size if back >= need else size - back
    return size


class Utf8Reader:
    """A binary stream that checks, as it is read, that its bytes are UTF-8, and raises
    NotUtf8 on the read that brings the first bad byte.

    Each block is checked where it lies, by Arrow's vectorised validation (no copy; a small
    share of the time JSON parsing takes); a character split between two reads is held
    back and checked with the next one. Memory: the block, plus at most 3 bytes.
    """

    def __init__(self, raw: IO[bytes]):
        self.raw = raw
        self._held = b""
        self._checked = 0  # bytes of the stream checked so far
        self._lock = threading.Lock()
        self._stopped = False

    def read(self, size: int = -1) -> bytes:
        with self._lock:
            if self._stopped:
                return b""
            data = self.raw.read(size)
            self._check(bytes(data))
            return data

    def stop(self) -> None:
        """Later reads (a reader's read-ahead) return nothing; a read under way ends first,
        so the caller may then move the underlying stream."""
        with self._lock:
            self._stopped = True

    def _check(self, data: bytes) -> None:
        block = self._held + data if self._held else data
        # at the end (no data) nothing may be left incomplete
        length = _complete_prefix(block) if data else len(block)
        if length:
            buffer = pa.py_buffer(block)
            offsets = pa.array([0, length], pa.int64()).buffers()[1]
            try:
                pa.LargeStringArray.from_buffers(1, offsets, buffer).validate(full=True)
            except pa.ArrowInvalid:
                try:
                    block[:length].decode("utf-8")
                except UnicodeDecodeError as exc:
                    bad = block[exc.start] if exc.reason != "unexpected end of data" else None
                    raise NotUtf8(self._checked + exc.start, bad) from None
                raise
        self._checked += length
        self._held = block[length:]

    # a forward-only stream to Arrow: a seek, or a read_buffer beside read, would pass by
    # the check
    @property
    def closed(self) -> bool:
        return self.raw.closed

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def tell(self) -> int:
        return self._checked + len(self._held)


# --- the first bad line --------------------------------------------------------------


LineCheck = Callable[[str], "str | None"]


def first_bad_line(handle: IO[bytes], check: LineCheck | None = None) -> tuple[int, str] | None:
    """(1-based line, what is wrong) of the first line of `handle`, read again from its
    start, that is not UTF-8 or that `check` (given the line's text, newline included)
    finds wrong; None if every line passes or the stream cannot be rewound.

    For error messages, once a fast reader has failed: a Python loop over the lines, so
    memory is bounded by the longest line.
    """
    try:
        handle.seek(0)
    except (AttributeError, OSError, ValueError):
        return None
    for number, line in enumerate(iter(handle.readline, b""), 1):
        if number == 1 and line.startswith(GZIP_MAGIC):
            return number, GZIP_PROBLEM
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return number, _utf8_problem(line, exc)
        problem = check(text) if check is not None else None
        if problem is not None:
            return number, problem
    return None


def _utf8_problem(line: bytes, exc: UnicodeDecodeError) -> str:
    if exc.reason == "unexpected end of data":  # the file ends inside a character
        shown = "an incomplete character"
    else:
        shown = f"byte 0x{line[exc.start]:02x}"
    return (
        f"not UTF-8 ({shown} at offset {exc.start} of the line); the file must be UTF-8 "
        "(convert it, e.g. iconv -f latin1 -t utf-8)"
    )


def _not_utf8_message(source: str | Path | IO, what: str, exc: UnicodeDecodeError) -> str:
    """`what line N: not UTF-8 (...)`, the line found by reading `source` again."""
    if isinstance(source, str | Path):
        with open(source, "rb") as handle:
            found = first_bad_line(handle)
    else:
        found = first_bad_line(source)
    if found is None:
        return f"{what}: not UTF-8 text ({exc})"
    return f"{what} line {found[0]}: {found[1]}"
