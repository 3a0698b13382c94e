"""Anserini's FeatureVector arithmetic, reproduced: float32 values, a norm summed in
double and cast to float, a value divided by a double norm then cast, and the
value-descending order whose ties go to the term first in Java's String order (UTF-16
code units)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

F32 = np.float32


def java_order(term: str) -> bytes:
    """A sort key equal to Java's String.compareTo order (UTF-16 code units)."""
    return term.encode("utf-16-be")


def pruned(vector: Mapping[str, np.float32], k: int) -> dict[str, np.float32]:
    """FeatureVector.pruneToSize: the k largest values, ties to the first terms."""
    ordered = sorted(vector.items(), key=lambda item: (-float(item[1]), java_order(item[0])))
    return dict(ordered[:k])


def l1_norm(vector: Mapping[str, np.float32]) -> float:
    """computeL1Norm: the sum of |v| in double."""
    return float(np.sum(np.abs(np.array(list(vector.values()), np.float64))))


def l2_norm(vector: Mapping[str, np.float32]) -> float:
    """computeL2Norm: sqrt of the sum of v^2 in double."""
    values = np.array(list(vector.values()), np.float64)
    return float(np.sqrt(np.sum(values * values)))


def scaled(vector: Mapping[str, np.float32], norm: float) -> dict[str, np.float32]:
    """scaleToUnitL1Norm / scaleToUnitL2Norm: each value / the norm in double, as float."""
    return {term: F32(float(value) / norm) for term, value in vector.items()}


def from_terms(counts: Mapping[str, int]) -> dict[str, np.float32]:
    """FeatureVector.fromTerms: each analyzed token adds 1.0f to its term."""
    return {term: F32(count) for term, count in counts.items()}


def unit(vector: Mapping[str, np.float32], norm: Callable[[Mapping], float]) -> dict:
    """The vector scaled to unit norm (l1_norm or l2_norm); an empty one stays empty."""
    return scaled(vector, norm(vector)) if vector else {}
