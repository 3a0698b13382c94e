"""Atomic file output, checksums and id lists.

Outputs are written under a temporary name in the target directory and moved into
place with os.replace only when complete, so a killed job never leaves a file that
looks finished.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sparsebench.core.errors import DataError


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to `path`; move it to `path` if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # keep the suffix: numpy and pyarrow choose formats by it
    temporary = target.with_name(f".{target.stem}.tmp-{os.getpid()}{target.suffix}")
    try:
        yield temporary
        os.replace(temporary, target)
    except OSError as exc:
        if exc.filename is not None or type(exc) is not OSError:
            raise  # it names its file, or is a network error (URLError, ...) to retry
        # a write that failed (ENOSPC: the disk is full) names no file: name the output
        raise OSError(exc.errno, exc.strerror or str(exc), str(target)) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def write_text(path: str | os.PathLike, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: str | os.PathLike, obj: Any) -> None:
    write_text(path, json.dumps(obj, indent=2, sort_keys=False, ensure_ascii=False) + "\n")


def read_json(path: str | os.PathLike) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def write_lines(path: str | os.PathLike, lines: Iterable[str]) -> None:
    """One item per line (ids, vocabulary terms); items must not contain newlines."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as handle:
        for line in lines:
            handle.write(line)
            handle.write("\n")


def read_lines(path: str | os.PathLike) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as handle:
        return handle.read().split("\n")[:-1]


# Files from this size are cut by compiled code: below it, numpy's passes cost less than
# loading numba and the compiled passes into a new process, and their temporaries (a
# mask as large as the file) stay small (benchmarks/RESULTS.md, "A job's start-up")
COMPILED_SPLIT_BYTES = 512 << 20


def read_line_array(path: str | os.PathLike) -> pa.Array:
    """The lines of a file as write_lines writes them, as one Arrow string array cut from
    the file's bytes: much faster than read_lines' Python strings followed by their
    conversion to Arrow (benchmarks/RESULTS.md, "Measurements behind the code"); from
    COMPILED_SPLIT_BYTES by compiled code (sparsebench.core.lines_loop), which makes no
    temporary as large as the file. Like read_lines, text after the last newline is no
    line; bytes that are not UTF-8 are refused."""
    raw = np.fromfile(path, dtype=np.uint8)
    offset_type = np.int64 if len(raw) >= 2**31 else np.int32
    if len(raw) >= COMPILED_SPLIT_BYTES:
        data, offsets, ascii_only = _split_compiled(raw, offset_type)
    else:
        data, offsets, ascii_only = _split_numpy(raw, offset_type)
    kind = pa.LargeStringArray if offset_type == np.int64 else pa.StringArray
    lines = kind.from_buffers(len(offsets) - 1, pa.py_buffer(offsets), pa.py_buffer(data))
    try:
        lines.validate(full=not ascii_only)
    except pa.ArrowInvalid as exc:
        raise DataError(f"{path}: not UTF-8 text ({exc})") from None
    return lines


def _split_compiled(raw: np.ndarray, offset_type: type) -> tuple[np.ndarray, np.ndarray, bool]:
    from sparsebench.core.lines_loop import count_lines, split_lines  # numba: only when used

    n_lines = int(count_lines(raw))
    offsets = np.empty(n_lines + 1, dtype=offset_type)
    data = np.empty(len(raw) - n_lines, dtype=np.uint8)
    return data, offsets, bool(split_lines(raw, data, offsets))


def _split_numpy(raw: np.ndarray, offset_type: type) -> tuple[np.ndarray, np.ndarray, bool]:
    """(the lines' bytes without their newlines, where each line starts in them and where
    the last ends, whether every byte is ASCII)."""
    ends = np.flatnonzero(raw == 10)
    offsets = np.zeros(len(ends) + 1, dtype=offset_type)
    offsets[1:] = ends - np.arange(len(ends))  # where its newline was, less the newlines before
    kept = raw[: ends[-1]] if len(ends) else raw[:0]  # bytes after the last newline are no line
    data = kept[kept != 10]
    return data, offsets, bool(data.max(initial=0) < 128)


def save_array(path: str | os.PathLike, array: np.ndarray) -> None:
    with atomic_path(path) as tmp:
        np.save(tmp, array)


def file_digest(path: str | os.PathLike, algorithm: str = "sha256") -> str:
    """Hex digest of a file, read in 1 MiB blocks."""
    digest = hashlib.new(algorithm)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
