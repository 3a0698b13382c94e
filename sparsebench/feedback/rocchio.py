"""Rocchio ("Relevance Feedback in Information Retrieval", in The SMART Retrieval System,
1971) as Anserini's RocchioReranker computes it:

    q' = alpha * q + beta * mean(d / |d|, top docs) - gamma * mean(d / |d|, bottom docs)

q the query's analyzed tokens scaled to unit L2 norm; each document's term counts scaled
by its L2 norm; each mean cut to its `terms` largest values and scaled to unit L2 norm;
only terms above zero kept. The bottom documents (negative feedback, off unless
`negative_docs` > 0) are the last of the first retrieval's `cutoff` documents. Float
arithmetic, orders and ties as Anserini's (sparsebench.feedback.javafloat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sparsebench.feedback.documents import FeedbackCorpus, FirstRetrieval
from sparsebench.feedback.javafloat import F32, from_terms, l2_norm, pruned, scaled, unit

DEFAULTS = {
    "docs": 10,
    "terms": 10,
    "alpha": 1.0,
    "beta": 0.75,
    "gamma": 0.15,
    "negative_docs": 0,
    "negative_terms": 10,
}
NORM_FLOOR = F32(0.001)


def mean_vector(corpus: FeedbackCorpus, rows: Sequence[int], terms: int) -> dict[str, np.float32]:
    """The documents' L2-normalised vectors averaged, cut to `terms`, unit L2 norm."""
    vectors = [corpus.vector(row, alphanumeric_only=False) for row in rows]
    norms = [F32(l2_norm(v)) for v in vectors]
    mean: dict[str, np.float32] = {}
    for term in {t for v in vectors for t in v}:
        weight = F32(0)
        for vector, norm in zip(vectors, norms, strict=True):
            if norm > NORM_FLOOR:
                weight = F32(weight + F32(vector.get(term, F32(0)) / norm))
        mean[term] = F32(weight / F32(len(vectors)))
    mean = pruned(mean, terms)
    return unit(mean, l2_norm)


def expand(
    first: FirstRetrieval, corpus: FeedbackCorpus, settings: Mapping[str, Any]
) -> dict[str, np.float32]:
    """The expanded query's term weights."""
    original = scaled(from_terms(first.query), first.norms[1])
    top = mean_vector(corpus, first.rows[: settings["docs"]], settings["terms"])
    bottom: dict[str, np.float32] = {}
    if settings["negative_docs"]:
        last = list(reversed(first.rows))[: settings["negative_docs"]]
        bottom = mean_vector(corpus, last, settings["negative_terms"])
    alpha, beta, gamma = F32(settings["alpha"]), F32(settings["beta"]), F32(settings["gamma"])
    expanded = {}
    for term in original.keys() | top.keys() | bottom.keys():
        positive = F32(F32(alpha * original.get(term, F32(0))) + F32(beta * top.get(term, F32(0))))
        weight = F32(positive - F32(gamma * bottom.get(term, F32(0))))
        if weight > 0:
            expanded[term] = weight
    return expanded
