"""What a collection's relevance grades mean, and the collections whose numbers run the
other way.

nDCG takes a grade as a gain (higher = more relevant) and binary measures count grades
at or above the relevance level. Most collections are written that way; some keep the
codes of their original assessors, where a smaller number means more relevant. Read as
gains, those rank the least relevant documents first, and nothing in the numbers says
so. A regrading here maps such codes onto gains, with its reason, so the dataset's
provenance and the leaderboard say what was done.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd


@dataclass(frozen=True)
class Regrading:
    """Codes -> gains for a collection whose codes run the other way."""

    gains: Mapping[int, int]
    meaning: Mapping[int, str]  # what each gain means, once regraded
    reason: str

    def apply(self, qrels: pd.DataFrame, what: str) -> pd.DataFrame:
        unknown = sorted(set(qrels["grade"].unique().tolist()) - set(self.gains))
        if unknown:
            from sparsebench.core.errors import DataError

            raise DataError(
                f"{what}: grades {unknown} are not among the codes "
                f"{sorted(self.gains)} this collection is known to use; cannot regrade them"
            )
        return qrels.assign(grade=qrels["grade"].map(self.gains).astype("int64"))

    def record(self) -> dict[str, Any]:
        return {
            "regraded": {str(k): v for k, v in self.gains.items()},
            "meaning": {str(k): v for k, v in self.meaning.items()},
            "reason": self.reason,
        }


# Cleverdon's Cranfield codes (cranqrel.readme): 1 = complete answer ... 4 = minimum
# interest; -1 marks each question's source document. ir_datasets passes the codes
# through unchanged while its qrels_defs label them the other way round (4 = complete
# answer); BM25 agrees with the readme (median rank of the judged documents: 10.5 for
# code 1, 66 for code 4).
CRANFIELD = Regrading(
    gains={1: 4, 2: 3, 3: 2, 4: 1, 5: 0, -1: 0},
    meaning={
        4: "a complete answer to the question (code 1)",
        3: "a high degree of relevance (code 2)",
        2: "useful, as background or for methods (code 3)",
        1: "of minimum interest, e.g. historical (code 4)",
        0: "of no interest (code 5), or the question's source document (code -1)",
    },
    reason=(
        "Cranfield's judgments are Cleverdon's codes, 1 = complete answer ... 4 = minimum "
        "interest, -1 = the question's source document (cranqrel.readme); read as gains they "
        "would make the least relevant the most relevant. Regraded to gains 5 - code, -1 as "
        "0 (judged, not relevant), as the BEIR-format Cranfield is written."
    ),
)

# ir_datasets ids (their first path part) whose judgments are codes, not gains.
IR_DATASETS_REGRADINGS = {"cranfield": CRANFIELD}


def undefined_grades(qrels: pd.DataFrame, definitions: Mapping[int, str]) -> list[int]:
    """Grades in the judgments that the collection's definitions do not describe."""
    return sorted(set(qrels["grade"].unique().tolist()) - set(definitions))


def regrading_of(dataset_summary: Mapping[str, Any]) -> dict[str, int] | None:
    """The codes -> gains a prepared dataset (its dataset.json) was regraded with, if any."""
    source = dataset_summary.get("source")
    grades = source.get("grades") if isinstance(source, Mapping) else None
    return (grades or {}).get("regraded")
