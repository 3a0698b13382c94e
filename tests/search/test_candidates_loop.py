"""The candidate decisions' packed (level, tie key) pairs order as the pairs do."""

from __future__ import annotations

import bisect

import numpy as np
import pytest

from sparsebench.search.candidates_loop import packed_pair, push_largest, unpacked_pair


def test_packed_pairs_order_as_pairs_and_unpack_to_them():
    rng = np.random.default_rng(5)
    levels = np.concatenate(
        [
            np.array([0.0, -0.5, 1e-45, 3.4e38, 1.0, 1.0, 2.5], dtype=np.float32),
            (rng.standard_normal(300) * 10).astype(np.float32),
            rng.integers(0, 4, 100).astype(np.float32),  # ties of level
        ]
    )
    keys = rng.integers(0, 2**32, len(levels)).astype(np.int64)
    keys[:3] = [0, 2**32 - 1, 7]
    cell = np.empty(1, np.float32)
    bits = cell.view(np.uint32)
    packed = np.array(
        [packed_pair(lv, key, cell, bits) for lv, key in zip(levels, keys, strict=True)],
        dtype=np.uint64,
    )
    by_pairs = sorted(range(len(levels)), key=lambda i: (float(levels[i]), int(keys[i])))
    assert list(np.argsort(packed, kind="stable")) == by_pairs
    for value, level, key in zip(packed, levels, keys, strict=True):
        assert unpacked_pair(value, cell, bits) == (float(level), int(key))


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6, 37, 341, 1000])
def test_push_largest_keeps_the_k_largest(k):
    """Every size of the 4-ary heap's last family (k = 5, 6, 37, 341 ...), repeated
    values included: its least is at the root after every push."""
    rng = np.random.default_rng(k)
    values = rng.integers(0, 2**40, 3000).astype(np.uint64)
    values[::7] = values[3]  # repeats
    heap, size, seen = np.zeros(k, np.uint64), 0, []
    for value in values:
        size = push_largest(heap, size, value)
        bisect.insort(seen, int(value))
        assert heap[0] == min(heap[:size]) == seen[-size]
    assert size == k
    assert sorted(heap) == sorted(values)[-k:]
