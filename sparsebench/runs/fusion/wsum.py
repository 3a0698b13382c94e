"""wsum, the weighted sum of normalised scores (a linear combination of the runs: Bartell,
Cottrell and Belew, "Automatic Combination of Multiple Ranked Retrieval Systems", SIGIR
1994; Vogt and Cottrell, "Fusion via a Linear Combination of Scores", Information
Retrieval 1(3), 1999), as ranx's `wsum` computes it (ranx's code cites no source for it).

    wsum(d) = sum over the runs r that retrieved d of w_r * s_r(d)

s_r(d): d's score in r, normalised per query (`norm`); w_r: the run's weight
(`weights: {run: w}`, 1 when not given).
"""

from __future__ import annotations

from sparsebench.runs.fusion.base import FusionMethod, normalised_scores, total

METHOD = FusionMethod("wsum", normalised_scores, total, weighted=True)
