"""TREC run files: what an empty or malformed run says, and lines written exactly as
Python formats them."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_line_array, write_lines
from sparsebench.runs import runfile
from sparsebench.runs.runfile import RunLines, compiled_writer_needed, format_run_lines, read_run
from sparsebench.runs.text import assemble, load_compiled


@pytest.fixture(params=["numpy", "compiled"])
def written_by(request, monkeypatch):
    """Both writers: numpy's for a process's first NUMPY_LINES lines, compiled after."""
    left = 0 if request.param == "compiled" else 10**12
    monkeypatch.setattr(runfile, "_numpy_lines_left", left)
    return request.param


def test_an_empty_run_says_no_query_has_a_result_and_why_that_may_be(tmp_path):
    run = tmp_path / "d.trec"
    run.write_text("")
    with pytest.raises(DataError, match=r"d\.trec: the run is empty: no query has a result"):
        read_run(run)


# --- writing ----------------------------------------------------------------------------


def python_lines(query_ids, doc_ids, ranks, scores, tag, digits=9) -> bytes:
    """The run lines as Python's own formatting writes them, one line at a time."""
    return "".join(
        f"{q} Q0 {d} {r} {float(s):.{digits}g} {tag}\n"
        for q, d, r, s in zip(query_ids, doc_ids, ranks, scores, strict=True)
    ).encode()


def float32_cases(rng: np.random.Generator) -> list[np.ndarray]:
    """Scores of every kind a run can hold: every float32 bit pattern at random (all
    exponents, subnormals, both signs, inf and nan), retrieval-like values, decimal
    powers and their neighbours, rounding carries and ties."""
    powers = 10.0 ** np.arange(-12, 13)
    near = np.concatenate([powers, np.nextafter(powers.astype(np.float32), np.float32(np.inf))])
    return [
        rng.integers(0, 2**32, 200_000, dtype=np.uint32).view(np.float32),
        (rng.random(200_000) * 10.0 ** rng.integers(-6, 11, 200_000)).astype(np.float32),
        (rng.standard_normal(50_000) * 30).astype(np.float32),
        rng.integers(0, 2**24, 50_000).astype(np.float32) / np.float32(2 ** rng.integers(0, 30)),
        np.concatenate([near, -near, [0.0, -0.0, 9.9999999996, 999999999.5]]).astype(np.float32),
        2.0 ** np.arange(-40, 40, dtype=np.float32),  # 2^-13 = 0.0001220703125: a tie
    ]


def test_scores_are_written_as_python_formats_them_for_every_float32(written_by):
    rng = np.random.default_rng(7)
    lines = RunLines(["q"], ["d"], "m")
    for scores in float32_cases(rng):
        zeros = np.zeros(len(scores), dtype=np.int64)
        text = lines(zeros, zeros, np.ones(len(scores), dtype=np.int64), scores)
        got = [line.split(b" ")[4] for line in text.splitlines()]
        with np.errstate(invalid="ignore"):
            wanted = [f"{float(s):.9g}".encode() for s in scores]
        first = next((i for i, (a, b) in enumerate(zip(got, wanted, strict=True)) if a != b), None)
        assert first is None, (scores[first], got[first], wanted[first])


def test_run_lines_equal_python_formatting_line_for_line(written_by):
    rng = np.random.default_rng(3)
    query_ids = np.array(["q1", "Ünïcode-q", "a\"quoted'id", "42"], dtype=object)
    doc_ids = np.array([f"doc{i}" for i in range(300)] + ["δοκ", 'x"y'], dtype=object)
    n = 5000  # more than a chunk's worth of lines is tested by the workflow's runs
    rows = rng.integers(0, len(query_ids), n), rng.integers(0, len(doc_ids), n)
    ranks = rng.integers(1, 3000, n)  # beyond the rank texts made up front
    scores = (rng.standard_normal(n) * 20).astype(np.float32)
    lines = RunLines(query_ids, doc_ids, "my-model")
    got = lines(rows[0], rows[1], ranks, scores)
    wanted = python_lines(query_ids[rows[0]], doc_ids[rows[1]], ranks, scores, "my-model")
    assert got == wanted  # ids holding quotes are written as they are, never quoted
    full = format_run_lines(query_ids[rows[0]], doc_ids[rows[1]], ranks, scores * 1.1, "t", 17)
    assert full == python_lines(query_ids[rows[0]], doc_ids[rows[1]], ranks, scores * 1.1, "t", 17)


def test_ids_that_would_lose_bytes_or_ranks_below_one_are_refused(written_by):
    with pytest.raises(DataError, match=r"document id 'a\\x00b' holds a NUL byte"):
        RunLines(["q"], ["d1", "a\0b"], "m")
    with pytest.raises(DataError, match=r"run tag 'm\\x00' holds a NUL byte"):
        RunLines(["q"], ["d1"], "m\0")
    with pytest.raises(DataError, match="a document id is missing"):
        RunLines(["q"], ["d1", None], "m")
    with pytest.raises(DataError, match="a document id is missing"):
        RunLines(["q"], pa.array(["d1", None]), "m")
    with pytest.raises(DataError, match="query id 7 is not a string"):
        RunLines(np.array(["q", 7], dtype=object), ["d1"], "m")
    with pytest.raises(DataError, match="a query id is not UTF-8 text"):
        RunLines(["q\udc80"], ["d1"], "m")
    lines = RunLines(["q"], ["d1"], "m")
    with pytest.raises(DataError, match="run ranks start at 1"):
        lines(np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64), np.ones(1))


def test_a_process_writes_with_numpy_until_its_lines_pass_the_bound(monkeypatch):
    """The first lines go through numpy; the chunk that would pass NUMPY_LINES and every
    later one through the compiled writer; the same bytes either way."""
    monkeypatch.setattr(runfile, "_numpy_lines_left", 3)
    lines = RunLines(["q"], ["d1", "d2"], "m")
    one = (np.zeros(2, np.int64), np.array([0, 1]), np.array([1, 2]), np.array([2.5, 1.0]))
    assert not compiled_writer_needed(3) and compiled_writer_needed(4)
    assert lines(*one) == b"q Q0 d1 1 2.5 m\nq Q0 d2 2 1 m\n"
    assert runfile._numpy_lines_left == 1 and compiled_writer_needed(2)
    assert lines(*one) == b"q Q0 d1 1 2.5 m\nq Q0 d2 2 1 m\n"  # compiled
    assert runfile._numpy_lines_left == 0
    assert lines(*(a[:1] for a in one)) == b"q Q0 d1 1 2.5 m\n"  # compiled from then on
    assert runfile._numpy_lines_left == 0


def test_run_lines_share_the_writer_that_load_compiled_loads(tmp_path, monkeypatch):
    """Ids from Arrow (read-only buffers, as the retrieve stage reads them) and from numpy
    (writable) go through one compiled specialisation of the writer, the one loaded at
    start-up: another would be compiled in the middle of writing (0.6 s)."""
    monkeypatch.setattr(runfile, "_numpy_lines_left", 0)
    load_compiled()
    path = tmp_path / "doc_ids.txt"
    write_lines(path, ["d1", "d2"])
    rows, scores = np.array([0, 1]), np.array([2.5, 1.0], dtype=np.float32)
    for doc_ids in (read_line_array(path), np.array(["d1", "d2"], dtype=object)):
        text = RunLines(["q"], doc_ids, "m")(np.zeros(2, np.int64), rows, rows + 1, scores)
        assert text == b"q Q0 d1 1 2.5 m\nq Q0 d2 2 1 m\n"
    assert len(assemble.signatures) == 1
