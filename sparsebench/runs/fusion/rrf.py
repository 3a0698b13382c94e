"""RRF, reciprocal rank fusion: Cormack, Clarke and Buettcher, "Reciprocal Rank Fusion
Outperforms Condorcet and Individual Rank Learning Methods", SIGIR 2009.

    RRF(d) = sum over the runs r that retrieved d of 1 / (k + rank_r(d))

rank 1-based in trec_eval's order, k = 60 by default (as the paper and ranx); the scores
play no part beyond the order, so `norm` does not either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sparsebench.runs.fusion.base import FusionMethod, total

if TYPE_CHECKING:
    import pandas as pd

RRF_K = 60


def reciprocal_ranks(ranked: pd.DataFrame, norm: str, weight: float, k: float) -> np.ndarray:
    return 1.0 / (k + ranked["rank"].to_numpy(dtype=np.float64))


METHOD = FusionMethod("rrf", reciprocal_ranks, total, norm=False)
