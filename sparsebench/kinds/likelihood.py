"""qld: query likelihood with Dirichlet smoothing (Zhai and Lafferty, "A Study of
Smoothing Methods for Language Models Applied to Ad Hoc Information Retrieval", SIGIR
2001), scored as Lucene's LMDirichletSimilarity does and Anserini's `-qld` runs it
(mu = 1000): each matching term weighs max(0, ln(1 + tf / (mu * p_t)) + ln(mu / (dl +
mu))), a repeated query term counts once per occurrence, and no IDF is applied (the
collection probability p_t plays its part). It reads the BM25 kinds' term counts, so it
shares their shards.
"""

from __future__ import annotations

from typing import Any, ClassVar

from sparsebench.kinds.base import Entry
from sparsebench.kinds.lexical import Lexical


class QueryLikelihood(Lexical):
    name = "qld"
    description = (
        "Query likelihood with Dirichlet smoothing, as Lucene's LMDirichletSimilarity "
        "(Anserini -qld); shares its shards with BM25 models."
    )
    schema: ClassVar[dict[str, Any]] = {
        "properties": {
            "mu": {"type": "number", "exclusiveMinimum": 0, "default": 1000},
            "analyzer": {"$ref": "#/$defs/analyzer", "default": {}},
            "statistics": {"$ref": "#/$defs/statistics", "default": "exact"},
        }
    }

    def weighting(self, entry: Entry) -> dict[str, Any]:
        return {
            "kind": "dirichlet",
            "mu": float(entry["mu"]),
            "idf": "none",
            "statistics": entry["statistics"],
        }


QLD_KIND = QueryLikelihood()
