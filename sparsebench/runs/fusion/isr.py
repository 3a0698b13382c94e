"""ISR, inverse square rank: Mourão, Martins and Magalhães, "Multimodal Medical
Information Retrieval with Unsupervised Rank Fusion", Computerized Medical Imaging and
Graphics 39, 2015 (online 2014), as ranx's `isr` computes it.

    ISR(d) = |{r : r retrieved d}| * sum over those runs r of 1 / rank_r(d)^2

rank 1-based in trec_eval's order: RRF's reciprocal ranks squared (no k), so the top of
each run counts more, and multiplied as CombMNZ is by the number of runs that retrieved
the document. The scores play no part beyond the order, so `norm` does not either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sparsebench.runs.fusion.base import FusionMethod
from sparsebench.runs.fusion.combmnz import sum_times_count

if TYPE_CHECKING:
    import pandas as pd


def inverse_square_ranks(ranked: pd.DataFrame, norm: str, weight: float, k: float) -> np.ndarray:
    return 1.0 / ranked["rank"].to_numpy(dtype=np.float64) ** 2


METHOD = FusionMethod("isr", inverse_square_ranks, sum_times_count, norm=False)
