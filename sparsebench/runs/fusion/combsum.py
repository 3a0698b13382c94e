"""CombSUM: Fox and Shaw, "Combination of Multiple Searches", TREC-2 (NIST SP 500-215),
1994.

    CombSUM(d) = sum over the runs r that retrieved d of s_r(d)

s_r(d): d's score in r, normalised per query (`norm`).
"""

from __future__ import annotations

from sparsebench.runs.fusion.base import FusionMethod, normalised_scores, total

METHOD = FusionMethod("combsum", normalised_scores, total)
