"""Shared array arithmetic (sparsebench.core.arrays) against plain Python."""

from __future__ import annotations

import numpy as np

from sparsebench.core.arrays import bits_set
from sparsebench.search.candidates_loop import _bits_set


def test_set_bits_are_counted_as_python_counts_them():
    rng = np.random.default_rng(0)
    words = np.concatenate(
        [
            np.array([0, 1, 1 << 63, (1 << 64) - 1, 0x5555555555555555], dtype=np.uint64),
            rng.integers(0, 1 << 64, 1000, dtype=np.uint64, endpoint=False),
        ]
    )
    expected = [bin(int(word)).count("1") for word in words]
    counted = bits_set(words)
    assert counted.dtype == np.uint64 and counted.tolist() == expected
    assert [int(_bits_set(word)) for word in words[:50]] == expected[:50]  # compiled
