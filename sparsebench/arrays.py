"""Index arithmetic on numpy arrays that several subpackages share."""

from __future__ import annotations

import numpy as np


def span_indices(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Every index of the spans [starts, ends), in order."""
    lengths = ends - starts
    return np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
