"""Query likelihood (Zhai and Lafferty, "A Study of Smoothing Methods for Language Models
Applied to Ad Hoc Information Retrieval", SIGIR 2001), scored as Lucene scores it and
Anserini runs it: a repeated query term counts once per occurrence, and no IDF is applied
(the collection probability p_t plays its part). Both kinds read the BM25 kinds' term
counts, so they share their shards.

qld    Dirichlet smoothing, Lucene's LMDirichletSimilarity, Anserini's `-qld` (mu =
       1000): each matching term weighs max(0, ln(1 + tf / (mu * p_t)) + ln(mu / (dl +
       mu)))
qljm   Jelinek-Mercer smoothing, Lucene's LMJelinekMercerSimilarity, Anserini's `-qljm`
       (lambda = 0.1): each matching term weighs ln(1 + ((1 - lambda) tf / dl) / (lambda
       p_t))
"""

from __future__ import annotations

from typing import Any, ClassVar

from sparsebench.kinds.base import Entry
from sparsebench.kinds.lexical import ANALYZER, STATISTICS, Lexical

_SHARED = {"analyzer": ANALYZER, "statistics": STATISTICS}


class _Smoothed(Lexical):
    """A query-likelihood kind: its smoothing parameter (`parameter` in the config, `field`
    in the weighting) and the weighting scheme it names; no IDF."""

    scheme: ClassVar[str]
    parameter: ClassVar[str]
    field: ClassVar[str]

    def weighting(self, entry: Entry) -> dict[str, Any]:
        return {
            "kind": self.scheme,
            self.field: float(entry[self.parameter]),
            "idf": "none",
            "statistics": entry["statistics"],
        }


class QueryLikelihood(_Smoothed):
    name = "qld"
    scheme, parameter, field = "dirichlet", "mu", "mu"
    description = (
        "Query likelihood with Dirichlet smoothing, as Lucene's LMDirichletSimilarity "
        "(Anserini -qld); shares its shards with BM25 models."
    )
    schema: ClassVar[dict[str, Any]] = {
        "properties": {
            "mu": {
                "type": "number",
                "exclusiveMinimum": 0,
                "default": 1000,
                "description": "The Dirichlet prior, in tokens: how much the collection "
                "model counts against a document's own counts; larger smooths more. 1000 is "
                "Anserini's default.",
            },
            **_SHARED,
        }
    }


QLD_KIND = QueryLikelihood()


class JelinekMercer(_Smoothed):
    name = "qljm"
    scheme, parameter, field = "jelinek-mercer", "lambda", "lam"
    description = (
        "Query likelihood with Jelinek-Mercer smoothing, as Lucene's "
        "LMJelinekMercerSimilarity (Anserini -qljm); shares its shards with BM25 models."
    )
    schema: ClassVar[dict[str, Any]] = {
        "properties": {
            "lambda": {
                "type": "number",
                "exclusiveMinimum": 0,
                "exclusiveMaximum": 1,
                "default": 0.1,
                "description": "The weight of the collection model.",
            },
            **_SHARED,
        }
    }


QLJM_KIND = JelinekMercer()
