"""RM3 (Lavrenko and Croft, "Relevance-Based Language Models", SIGIR 2001; Abdul-Jaleel
et al., "UMass at TREC 2004: Novelty and HARD", the RM1 model interpolated with the
query), as Anserini's Rm3Reranker computes it:

    P(t | R) = sum over the top `docs` documents d of (tf(t, d) / |d|) * score(d)
    q'(t)    = w * q(t) + (1 - w) * P(t | R)

q the query's analyzed tokens scaled to unit L1 norm; each document vector cut to its
`terms` largest counts first (|d| the sum of what is left), P(. | R) cut to its `terms`
largest values and scaled to unit L1 norm; w the original query's weight. Float
arithmetic, orders and ties as Anserini's (sparsebench.feedback.javafloat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sparsebench.feedback.documents import FeedbackCorpus, FirstRetrieval
from sparsebench.feedback.javafloat import F32, from_terms, l1_norm, pruned, scaled, unit

DEFAULTS = {"docs": 10, "terms": 10, "original_query_weight": 0.5, "filter_terms": True}
NORM_FLOOR = F32(0.001)  # Anserini skips feedback documents whose norm is below it


def relevance_model(
    corpus: FeedbackCorpus, rows: Sequence[int], scores: Sequence[float], settings: Mapping
) -> dict[str, np.float32]:
    """P(t | R) over the feedback documents (rank order), cut and normalised."""
    vectors, norms = [], []
    for row in rows:
        vector = pruned(corpus.vector(row, settings["filter_terms"]), settings["terms"])
        vectors.append(vector)
        norms.append(F32(l1_norm(vector)))
    weights: dict[str, np.float32] = {}
    for term in {t for v in vectors for t in v}:
        weight = F32(0)
        for vector, norm, score in zip(vectors, norms, scores, strict=True):
            if norm > NORM_FLOOR:
                weight = F32(weight + F32(F32(vector.get(term, F32(0)) / norm) * F32(score)))
        weights[term] = weight
    model = pruned(weights, settings["terms"])
    return unit(model, l1_norm)


def expand(
    first: FirstRetrieval, corpus: FeedbackCorpus, settings: Mapping[str, Any]
) -> dict[str, np.float32]:
    """The expanded query's term weights."""
    original = scaled(from_terms(first.query), first.norms[0])
    docs = settings["docs"]
    model = relevance_model(corpus, first.rows[:docs], first.scores[:docs], settings)
    w = F32(settings["original_query_weight"])
    return {
        term: F32(
            float(F32(w * original.get(term, F32(0))))
            + (1.0 - float(w)) * float(model.get(term, F32(0)))
        )
        for term in original.keys() | model.keys()
    }
