"""Id lists read from files: read_line_array against read_lines."""

from __future__ import annotations

import pytest

from sparsebench.core import fileio
from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_line_array, read_lines, write_lines


@pytest.fixture(params=["numpy", "compiled"])
def split_by(request, monkeypatch):
    """Both ways of cutting the lines: numpy's below COMPILED_SPLIT_BYTES, compiled from it."""
    if request.param == "compiled":
        monkeypatch.setattr(fileio, "COMPILED_SPLIT_BYTES", 0)
    return request.param


def test_line_arrays_hold_what_read_lines_reads(tmp_path, split_by):
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


def test_line_arrays_refuse_bytes_that_are_not_utf8(tmp_path, split_by):
    path = tmp_path / "ids.txt"
    path.write_bytes(b"d1\nd\xff2\n")
    with pytest.raises(DataError, match="ids.txt: not UTF-8 text"):
        read_line_array(path)


def test_both_ways_cut_the_same_lines(tmp_path, monkeypatch):
    """Random lines of random bytes (newlines among them), cut both ways: the same array,
    or the same refusal."""
    import numpy as np

    rng = np.random.default_rng(7)
    path = tmp_path / "ids.txt"
    for size in (0, 1, 2, 17, 1000):
        raw = rng.choice(np.frombuffer(b"ab\n\xc3\xa9\xff", np.uint8), size)
        raw.tofile(path)
        results = []
        for threshold in (len(raw) + 1, 0):
            monkeypatch.setattr(fileio, "COMPILED_SPLIT_BYTES", threshold)
            try:
                results.append(read_line_array(path).to_pylist())
            except DataError as exc:
                results.append(str(exc))
        assert results[0] == results[1], raw.tobytes()
