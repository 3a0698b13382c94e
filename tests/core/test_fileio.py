"""Id lists read from files: read_line_array against read_lines."""

from __future__ import annotations

import pytest

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_line_array, read_lines, write_lines


def test_line_arrays_hold_what_read_lines_reads(tmp_path):
    """Empty lines, non-ASCII ids, a carriage return kept as a byte of its id, and text
    after the last newline (no line, as for read_lines)."""
    path = tmp_path / "ids.txt"
    write_lines(path, ["d1", "", "δοκ-中", "a b", "x\r", "\U00020000"])
    assert read_line_array(path).to_pylist() == read_lines(path)
    assert read_lines(path) == ["d1", "", "δοκ-中", "a b", "x\r", "\U00020000"]
    with open(path, "ab") as handle:
        handle.write(b"unterminated")
    assert read_line_array(path).to_pylist() == read_lines(path)
    assert len(read_line_array(path)) == 6
    path.write_bytes(b"")
    assert read_line_array(path).to_pylist() == read_lines(path) == []


def test_line_arrays_refuse_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "ids.txt"
    path.write_bytes(b"d1\nd\xff2\n")
    with pytest.raises(DataError, match="ids.txt: not UTF-8 text"):
        read_line_array(path)
