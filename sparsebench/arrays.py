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
