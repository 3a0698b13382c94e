"""Index arithmetic on numpy arrays that several subpackages share."""

from __future__ import annotations

import numpy as np


def span_indices(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Every index of the spans [starts, ends), in order."""
    lengths = ends - starts
    return np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())


def sorted_positions(ascending: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per value, its position in `ascending` (an array of distinct values) and whether
    it is there (where not, the position is meaningless)."""
    positions = np.searchsorted(ascending, values)
    found = positions < len(ascending)
    found[found] = ascending[positions[found]] == values[found]
    return positions, found


def group_ranks(sorted_groups: np.ndarray, n_groups: int) -> np.ndarray:
    """1-based position of each element within its group (groups sorted, contiguous)."""
    starts = np.searchsorted(sorted_groups, np.arange(n_groups))
    return np.arange(len(sorted_groups)) - starts[sorted_groups] + 1


def descending_score_keys(scores: np.ndarray) -> np.ndarray:
    """uint32 keys whose ascending order is the scores' descending order, the scores
    compared as float32 (-0.0 before 0.0: callers that need them tied add 0.0 first)."""
    bits = np.ascontiguousarray(scores, dtype=np.float32).view(np.uint32)
    # IEEE order as unsigned order: negative floats flip every bit, others the sign bit
    ascending = np.where(bits >> 31, ~bits, bits | np.uint32(1 << 31))
    return ~ascending


def bits_set(words):
    """The set bits of each uint64 word (an array, or a scalar in compiled code), as
    uint64: a population count by halves, which every numpy and numba the project
    supports computes alike (numpy's own, bitwise_count, is numpy 2's)."""
    words = words - ((words >> np.uint64(1)) & np.uint64(0x5555555555555555))
    words = (words & np.uint64(0x3333333333333333)) + (
        (words >> np.uint64(2)) & np.uint64(0x3333333333333333)
    )
    words = (words + (words >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (words * np.uint64(0x0101010101010101)) >> np.uint64(56)


def read_only_views(*arrays: np.ndarray) -> list[np.ndarray]:
    """Read-only views of arrays for compiled code: arrays mapped from a file or taken
    from Arrow are read-only, those built by numpy writable, and numba compiles each
    combination apart (a compilation each, at first use: benchmarks/RESULTS.md,
    "Measurements behind the code"); views of one kind share one compiled
    specialisation."""
    views = [np.asarray(array).view() for array in arrays]
    for view in views:
        view.flags.writeable = False
    return views
