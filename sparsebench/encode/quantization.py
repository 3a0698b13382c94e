"""Integer impacts: learned sparse weights quantised as the published SPLADE indexes are.

Anserini's impact search (IndexCollection -impact -pretokenized, SearchCollection
-impact) scores a document by the integer dot product of the query's integer weights
and the document's integer impacts (ImpactSimilarity: term frequency x query boost, no
length norm). The published pre-encoded corpora and cached queries were quantised by
their makers (naver/splade's and tevatron's export scripts) as np.rint(w * 100) on the
float32 weights, keeping the values above zero; Pyserini's encoder writes
round(w / 5 * 256) on Python floats; Anserini's ONNX query encoders Math.round(w / 5f *
256f) on Java floats. A rule here names all three parts, so that each is reproduced
exactly:

    scale       the factor: a number, or "a/b" (divided by b, then times a: 256/5)
    rounding    half_even (np.rint, Python's round), half_up (Java's Math.round) or
                down (truncation: what JsonVectorCollection's asInt does to a float)
    arithmetic  float32 (numpy on float32 weights, Java floats) or float64 (Python floats)

Weights that quantise to zero or below are dropped, as Anserini indexes no such term.
Integer weights make every score an exact integer (in float64 up to 2^53; Lucene sums
float32 term scores, the same integers while each product stays below 2^24).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError

ROUNDINGS = ("half_even", "half_up", "down")
# The rule of the published pre-encoded SPLADE corpora and cached queries.
DEFAULT_RULE = {"scale": 100, "rounding": "half_even", "arithmetic": "float32"}
ARITHMETICS = ("float32", "float64")

_CHUNK = 1 << 24  # weights quantised at a time: memory a chunk, not the corpus


@dataclass(frozen=True)
class QuantizationRule:
    """One side's rule: w -> rounding((w / divisor) * multiplier) in `arithmetic`."""

    multiplier: float
    divisor: float
    rounding: str
    arithmetic: str

    @classmethod
    def from_config(cls, settings: Mapping[str, Any]) -> QuantizationRule:
        multiplier, divisor = parse_scale(settings.get("scale", 100))
        rounding = settings.get("rounding", "half_even")
        arithmetic = settings.get("arithmetic", "float32")
        if rounding not in ROUNDINGS:
            raise ConfigError(f"quantization rounding must be one of {', '.join(ROUNDINGS)}")
        if arithmetic not in ARITHMETICS:
            raise ConfigError(f"quantization arithmetic must be one of {', '.join(ARITHMETICS)}")
        return cls(multiplier, divisor, rounding, arithmetic)

    def quantize(self, weights: np.ndarray) -> np.ndarray:
        """The integer of each weight (as int64)."""
        dtype = np.float32 if self.arithmetic == "float32" else np.float64
        scaled = np.asarray(weights).astype(dtype)
        if self.divisor != 1:
            scaled = scaled / dtype(self.divisor)
        scaled = scaled * dtype(self.multiplier)
        if self.rounding == "half_even":
            rounded = np.rint(scaled)
        elif self.rounding == "half_up":  # Math.round: the nearest integer, halves up
            rounded = np.floor(scaled)
            rounded += (scaled - rounded) >= 0.5  # exact: a float minus its floor
        else:
            rounded = np.trunc(scaled)
        return rounded.astype(np.int64)

    def quantize_rows(self, matrix: sp.csr_matrix) -> sp.csr_matrix:
        """A CSR matrix of weights as integer impacts (held in float32: every integer a
        model gives is exact there), those at or below zero dropped. In place (the
        matrix's arrays are reused, a chunk of weights quantised at a time), so that a
        corpus is quantised without a copy of it."""
        matrix = sp.csr_matrix(matrix)
        for start in range(0, matrix.nnz, _CHUNK):
            chunk = matrix.data[start : start + _CHUNK]
            chunk[...] = np.maximum(self.quantize(chunk), 0)
        if matrix.dtype != np.float32:
            matrix = matrix.astype(np.float32)
        matrix.eliminate_zeros()
        return matrix


def parse_scale(scale: float | int | str) -> tuple[float, float]:
    """(multiplier, divisor) of a scale: a positive number, or "a/b"."""
    if isinstance(scale, str):
        parts = scale.split("/")
        try:
            numbers = [float(Fraction(p.strip())) for p in parts]
        except (ValueError, ZeroDivisionError):
            numbers = []
        if len(numbers) not in (1, 2) or min(numbers) <= 0:
            raise ConfigError(
                f"quantization scale {scale!r} must be a positive number or 'a/b' (e.g. 256/5)"
            )
        return numbers[0], numbers[1] if len(numbers) == 2 else 1.0
    if isinstance(scale, bool) or not isinstance(scale, int | float) or scale <= 0:
        raise ConfigError(f"quantization scale {scale!r} must be a positive number or 'a/b'")
    return float(scale), 1.0


def side_rules(settings: Mapping[str, Any] | None) -> dict[str, dict[str, Any] | None]:
    """A model's `quantization` setting as each side's rule ({scale, rounding,
    arithmetic} or None): `queries: same` (the default) quantises the queries as the
    documents, `none` leaves them float, a mapping gives them a rule of their own."""
    if not settings:
        return {"documents": None, "queries": None}
    documents = {**DEFAULT_RULE, **{k: settings[k] for k in DEFAULT_RULE if k in settings}}
    QuantizationRule.from_config(documents)  # checked when the config is read
    queries_setting = settings.get("queries", "same")
    if queries_setting == "same":
        queries = dict(documents)
    elif queries_setting == "none":
        queries = None
    else:
        queries = {**DEFAULT_RULE, **queries_setting}
        QuantizationRule.from_config(queries)
    return {"documents": documents, "queries": queries}
