"""The prefetch hint compiles into loops and changes nothing they compute."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from sparsebench.core.cache_hints import prefetch


@njit
def prefetched_sum(values, at):
    for i in at:
        prefetch(values, i)
    total = 0
    for i in at:
        total += values[i]
    return total


def test_a_prefetched_gather_sums_what_numpy_sums():
    values = np.arange(1_000_000, dtype=np.int64) * 3
    at = np.random.default_rng(5).integers(0, len(values), 5000)
    assert prefetched_sum(values, at) == values[at].sum()
    assert prefetched_sum(values, at.astype(np.uint16)) == values[at.astype(np.uint16)].sum()


def test_a_hint_past_the_array_does_not_fault():
    """A prefetch never faults (LLVM: it has no effect on the program's behaviour)."""
    values = np.ones(10, dtype=np.int64)

    @njit
    def far(values):
        prefetch(values, 1 << 40)
        return values[0]

    assert far(values) == 1


def test_only_a_one_dimensional_array_and_an_integer_index():
    @njit
    def matrix(values):
        prefetch(values, 0)

    @njit
    def float_index(values):
        prefetch(values, 1.5)

    with pytest.raises(TypingError):
        matrix(np.zeros((2, 2)))
    with pytest.raises(TypingError):
        float_index(np.zeros(2))
