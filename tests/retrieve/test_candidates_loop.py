"""The candidate decisions' packed (level, tie key) pairs order as the pairs do."""

from __future__ import annotations

import numpy as np

from sparsebench.retrieve.candidates_loop import packed_pair, push_largest, unpacked_pair


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


def test_push_largest_keeps_the_k_largest():
    rng = np.random.default_rng(6)
    values = rng.integers(0, 2**40, 500).astype(np.uint64)
    heap, size = np.zeros(37, np.uint64), 0
    for value in values:
        size = push_largest(heap, size, value)
    assert size == 37
    assert sorted(heap) == sorted(values)[-37:]
    assert heap[0] == min(heap)
