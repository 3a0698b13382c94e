"""A fusion model's settings (`kind: fusion`), checked against the methods and norms the
registry lists: what the config's checks and the plan read, apart from the fusing
itself (sparsebench.runs.fusion.fuse)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sparsebench.core.errors import ConfigError
from sparsebench.runs.fusion.registry import check_norm, method_of, weighted
from sparsebench.runs.fusion.rrf import RRF_K


@dataclass(frozen=True)
class Fusion:
    """How runs are fused (a `kind: fusion` model's settings)."""

    runs: tuple[str, ...]
    method: str = "rrf"
    norm: str = "min-max"
    k: float = RRF_K
    weights: Mapping[str, float] = field(default_factory=dict)
    depth: int | None = None  # None: each run whole

    def __post_init__(self) -> None:
        method = method_of(self.method)
        check_norm(self.norm)
        if len(self.runs) < 2 or len(set(self.runs)) != len(self.runs):
            raise ConfigError(f"fusion needs two or more distinct runs, got {list(self.runs)}")
        unknown = sorted(set(self.weights) - set(self.runs))
        if unknown:
            raise ConfigError(f"fusion weights name runs it does not fuse: {unknown}")
        if self.weights and not method.weighted:
            raise ConfigError(
                f"fusion weights are for method {' or '.join(weighted())}, not {self.method}"
            )
        if self.k < 0 or (self.depth is not None and self.depth < 1):
            raise ConfigError("fusion k must be >= 0 and depth >= 1")

    def weight(self, run: str) -> float:
        return float(self.weights.get(run, 1.0))


def fusion_of(entry: Mapping) -> Fusion:
    """The Fusion of a `kind: fusion` model entry."""
    return Fusion(
        runs=tuple(entry["runs"]),
        method=entry.get("method", "rrf"),
        norm=entry.get("norm", "min-max"),
        k=float(entry.get("k", RRF_K)),
        weights=dict(entry.get("weights") or {}),
        depth=entry.get("depth"),
    )
