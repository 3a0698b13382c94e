"""The normalisations of a run's scores before they are fused (`norm:`), per query over
the lines of the run that are fused, as ranx's normalize defines them; one function each,
listed in NORMS. A denominator below 1e-9 counts as 1e-9 (ranx).

    min-max   (s - min) / (max - min)
    z-score   (s - mean) / standard deviation (of the population; ranx's zmuv)
    sum       (s - min) / (sum - n min)
    rank      1 - (rank - 1) / n (rank 1-based in trec_eval's order, n the lines fused)
    none      s
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the fusing, not by the registry's readers
    import pandas as pd

FLOOR = 1e-9  # ranx's smallest denominator

# the lines of one run in trec_order (query_id, score, rank, count) -> a score per line
Norm = Callable[["pd.DataFrame"], np.ndarray]


def _scores(ranked: pd.DataFrame) -> np.ndarray:
    return ranked["score"].to_numpy(dtype=np.float64)


def _groups(ranked: pd.DataFrame):
    return ranked.groupby("query_id", sort=False)["score"]


def min_max(ranked: pd.DataFrame) -> np.ndarray:
    scores, groups = _scores(ranked), _groups(ranked)
    low = groups.transform("min").to_numpy()
    return (scores - low) / np.maximum(groups.transform("max").to_numpy() - low, FLOOR)


def z_score(ranked: pd.DataFrame) -> np.ndarray:
    """Two passes, as numpy's std."""
    scores, groups = _scores(ranked), _groups(ranked)
    deviation = scores - groups.transform("mean").to_numpy()
    squares = ranked.assign(square=deviation**2).groupby("query_id", sort=False)["square"]
    return deviation / np.maximum(np.sqrt(squares.transform("mean").to_numpy()), FLOOR)


def sum_norm(ranked: pd.DataFrame) -> np.ndarray:
    scores, groups = _scores(ranked), _groups(ranked)
    low = groups.transform("min").to_numpy()
    total = groups.transform("sum").to_numpy()
    return (scores - low) / np.maximum(total - low * ranked["count"].to_numpy(), FLOOR)


def rank(ranked: pd.DataFrame) -> np.ndarray:
    return 1.0 - (ranked["rank"].to_numpy() - 1) / ranked["count"].to_numpy()


def none(ranked: pd.DataFrame) -> np.ndarray:
    return _scores(ranked)


NORMS: dict[str, Norm] = {
    "min-max": min_max,
    "z-score": z_score,
    "sum": sum_norm,
    "rank": rank,
    "none": none,
}


def normalized(ranked: pd.DataFrame, norm: str) -> np.ndarray:
    """The scores of a run in trec_order, normalised per query."""
    return NORMS[norm](ranked)
