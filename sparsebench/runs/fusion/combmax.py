"""CombMAX: Fox and Shaw, "Combination of Multiple Searches", TREC-2 (NIST SP 500-215),
1994.

    CombMAX(d) = max over the runs r that retrieved d of s_r(d)

s_r(d): d's score in r, normalised per query (`norm`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sparsebench.runs.fusion.base import FusionMethod, normalised_scores

if TYPE_CHECKING:
    import pandas as pd
    from pandas.core.groupby import SeriesGroupBy


def largest(values: SeriesGroupBy) -> pd.Series:
    return values.max()


METHOD = FusionMethod("combmax", normalised_scores, largest)
