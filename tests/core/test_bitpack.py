"""Bit-packed runs: every width, runs of every length around the groups of eight, each
unpacked against numpy's own arithmetic on the values packed."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from sparsebench.core.bitpack import MAX_WIDTH, SLACK, packed_bytes
from sparsebench.core.bitpack_loop import pack, unpack_ascending, unpack_offsets


@njit
def unpacked(stream, at, count, width, start, out, ascending, into=0):
    if ascending:
        unpack_ascending(stream, at, count, width, start, out, into)
    else:
        unpack_offsets(stream, at, count, width, start, out, into)


def packed_runs(runs: list[tuple[np.ndarray, int]]) -> tuple[np.ndarray, list[int]]:
    """Runs packed one after another (after a 3-byte lead, so that no run is aligned),
    the stream's SLACK at its end, and where each run starts."""
    total = 3 + sum(packed_bytes(len(v), w) for v, w in runs) + SLACK
    stream = np.zeros(total, np.uint8)
    at, starts = 3, []
    for values, width in runs:
        starts.append(at)
        at = pack(values, width, stream, at)
        assert at == starts[-1] + packed_bytes(len(values), width)
    return stream, starts


@pytest.mark.parametrize("width", range(MAX_WIDTH + 1))
def test_every_width_and_length_unpacks_to_its_values(width):
    rng = np.random.default_rng(width)
    counts = [1, 2, 7, 8, 9, 15, 16, 17, 100, 127, 128]
    runs = [(rng.integers(0, 1 << width, n, dtype=np.int64), width) for n in counts]
    # the lanes' values at their widest: every bit set
    runs.append((np.full(24, (1 << width) - 1, dtype=np.int64), width))
    stream, starts = packed_runs(runs)
    for (values, _), at in zip(runs, starts, strict=True):
        n = len(values)
        room = -(-n // 8) * 8
        for out_type in (np.int32, np.uint32):
            out = np.zeros(room, out_type)
            unpacked(stream, at, n, width, 11, out, False)
            assert np.array_equal(out[:n], 11 + values)
            unpacked(stream, at, n, width, 11, out, True)
            assert np.array_equal(out[:n], 11 + np.cumsum(values))


def test_ids_of_a_block_unpack_into_uint16():
    """A chunk of ascending ids of a block of 65,536 documents, stored as its first id
    and 16-bit differences (the first zero), and narrow weights into uint8."""
    rng = np.random.default_rng(3)
    ids = np.sort(rng.choice(30000, 128, replace=False))
    ids[-1] = 65535
    deltas = np.diff(ids, prepend=ids[0])
    weights = rng.integers(0, 256, 128)
    width = int(deltas.max()).bit_length()
    assert width == 16  # the gap up to the last document needs every bit
    stream, (at_ids, at_weights) = packed_runs([(deltas, width), (weights, 8)])
    out_ids, out_weights = np.zeros(128, np.uint16), np.zeros(128, np.uint8)
    unpacked(stream, at_ids, 128, width, ids[0], out_ids, True)
    unpacked(stream, at_weights, 128, 8, 0, out_weights, False)
    assert np.array_equal(out_ids, ids) and np.array_equal(out_weights, weights)


def test_a_run_unpacks_into_its_place_and_leaves_the_rest():
    """`into`: where in out the run goes (a list's slot of a shared buffer); whole
    groups of eight are written from there, nothing before it."""
    values = np.arange(20, dtype=np.int64) % 7
    stream, (at,) = packed_runs([(values, 3)])
    out = np.full(64, -1, np.int32)
    unpacked(stream, at, 20, 3, 100, out, False, into=16)
    assert (out[:16] == -1).all() and np.array_equal(out[16:36], 100 + values)
    assert (out[40:] == -1).all()


def test_width_zero_reads_nothing_and_gives_the_start():
    stream = np.zeros(SLACK, np.uint8)
    out = np.zeros(16, np.int32)
    unpacked(stream, 0, 13, 0, 42, out, True)
    assert (out[:13] == 42).all()
    unpacked(stream, 0, 13, 0, 7, out, False)
    assert (out[:13] == 7).all()


def test_an_empty_run_writes_nothing():
    out = np.full(8, -1, np.int32)
    unpacked(np.zeros(SLACK, np.uint8), 0, 0, 5, 1, out, True)
    assert (out == -1).all()


def test_offsets_unpack_into_floats_from_a_float_base():
    values = np.arange(30, dtype=np.int64) % 5
    stream, (at,) = packed_runs([(values, 3)])

    @njit
    def offsets(stream, at, base, out):
        unpack_offsets(stream, at, 30, 3, base, out, 0)

    for out_type in (np.float32, np.float64):
        out = np.zeros(32, out_type)
        offsets(stream, at, out_type(0.5), out)
        assert np.array_equal(out[:30], 0.5 + values)


def test_unpacking_refuses_other_arrays_when_typed():
    @njit
    def ascending_into(stream, out):
        unpack_ascending(stream, 0, 8, 3, 0, out, 0)

    with pytest.raises(TypingError):  # ids are integers
        ascending_into(np.zeros(SLACK, np.uint8), np.zeros(8, np.float64))
    with pytest.raises(TypingError):
        ascending_into(np.zeros(SLACK, np.int8), np.zeros(8, np.int32))
    with pytest.raises(TypingError):
        ascending_into(np.zeros(SLACK, np.uint8), np.zeros(8, np.int64))
