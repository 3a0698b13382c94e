"""CombMNZ: Fox and Shaw, "Combination of Multiple Searches", TREC-2 (NIST SP 500-215),
1994.

    CombMNZ(d) = |{r : r retrieved d}| * sum over those runs r of s_r(d)

s_r(d): d's score in r, normalised per query (`norm`): CombSUM times the number of runs
that retrieved the document.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sparsebench.runs.fusion.base import FusionMethod, normalised_scores

if TYPE_CHECKING:
    import pandas as pd
    from pandas.core.groupby import SeriesGroupBy


def sum_times_count(values: SeriesGroupBy) -> pd.Series:
    return values.sum() * values.count()


METHOD = FusionMethod("combmnz", normalised_scores, sum_times_count)
