"""A file's lines cut apart in compiled passes (numba): their bytes without the newlines
and where each starts, with no temporary as large as the file (faster than numpy's masks
and compaction: benchmarks/RESULTS.md, "Measurements behind the code").
"""

from __future__ import annotations

import numpy as np

from sparsebench.core.jit import compiled


@compiled
def count_lines(raw):
    """The newlines of raw (uint8): the lines that end there."""
    lines = 0
    for byte in raw:
        lines += byte == 10
    return lines


@compiled
def split_lines(raw, data, offsets):
    """Copy the lines of raw (each ended by a newline; bytes after the last are no line)
    into data without their newlines; offsets[i] is where line i starts in data, and
    offsets[len(offsets) - 1] where the last one ends. Returns whether every byte
    copied is ASCII (then the lines are UTF-8 without a check)."""
    line, at, seen = 0, 0, 0
    offsets[0] = 0
    last = len(offsets) - 1
    for byte in raw:
        if line == last:
            break
        if byte == 10:
            line += 1
            offsets[line] = at
        else:
            data[at] = byte
            seen |= byte
            at += 1
    return seen < 128


def load_compiled() -> None:
    """Load both from numba's cache (or compile them) for files under 2 GiB, so that a
    stage can charge it to its start-up rather than to its reading."""
    empty = np.zeros(0, dtype=np.uint8)
    count_lines(empty)
    split_lines(empty, empty, np.zeros(1, dtype=np.int32))
