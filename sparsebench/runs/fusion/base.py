"""What a fusion method is: how each run's lines turn into values, and how the values a
document gets from the runs that retrieved it combine into its fused score. A method is a
module of this package with one FusionMethod, listed in sparsebench.runs.fusion.registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sparsebench.runs.fusion.norms import normalized

if TYPE_CHECKING:  # pandas is imported by the fusing, not by the registry's readers
    import numpy as np
    import pandas as pd
    from pandas.core.groupby import SeriesGroupBy

# (lines of one run in trec_order: query_id, doc_id, score, rank, count; the norm; the
# run's weight; RRF's k) -> a value per line
LineValues = Callable[["pd.DataFrame", str, float, float], "np.ndarray"]
# the values of each (query, document), ascending -> its fused score (sparsebench.runs.fusion.fuse)
Combination = Callable[["SeriesGroupBy"], "pd.Series"]


@dataclass(frozen=True)
class FusionMethod:
    """One fusion method (`method:` of a fusion model).

    values    each line's value (normalised_scores, or one from its rank alone)
    combine   a document's fused score from its values
    norm      whether the values read the normalised scores (`norm:` plays a part)
    weighted  whether it takes a weight per run (`weights:`)
    """

    name: str
    values: LineValues
    combine: Combination
    norm: bool = True
    weighted: bool = False


def normalised_scores(ranked: pd.DataFrame, norm: str, weight: float, k: float) -> np.ndarray:
    """The run's scores normalised per query (sparsebench.runs.fusion.norms), times the
    run's weight (1 unless the method is weighted)."""
    return normalized(ranked, norm) * weight


def total(values: SeriesGroupBy) -> pd.Series:
    """The sum of a document's values."""
    return values.sum()
