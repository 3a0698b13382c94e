"""Weighting schemes: how a model's document weights d_w come from its encoded documents
and the corpus statistics, one entry each in SCHEMES (the `kind` of a Weighting, which a
model kind chooses): the scheme's function, its formula and source, and the IDF variants
its models take (sparsebench.encode.idf; the score is the sum over shared terms t of
q_w(t) * idf(t) * d_w(t), the IDF on the query side).

A new scheme is a function of (documents, corpus statistics, the weighting's settings)
and one entry here; a model kind that weighs by it names it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from sparsebench.core.errors import ConfigError
from sparsebench.encode.idf import IDF_VARIANTS
from sparsebench.encode.statistics import (
    CorpusStatistics,
    document_count,
    document_lengths,
    field_lengths,
    lucene_stored_lengths,
)

if TYPE_CHECKING:  # the config reads this registry: only weighing needs scipy
    import scipy.sparse as sp

MODEL_IDF = "model"  # the idf.json an inference-free model ships (splade.load_idf_json)
CORPUS_IDFS = tuple(IDF_VARIANTS)  # lucene, classic, robertson, none
LEARNED_IDFS = ("none", *(v for v in IDF_VARIANTS if v != "none"))  # none: the dot product


class Settings(Protocol):
    """The settings of a weighting a scheme may read (encode.weighting.Weighting)."""

    k1: float
    b: float
    k1_plus_one: bool
    mu: float
    lam: float
    statistics: str


DocumentWeights = Callable[["sp.csr_matrix", CorpusStatistics, Settings], "sp.csr_matrix"]


@dataclass(frozen=True)
class Scheme:
    """A weighting scheme: `document_weights(matrix, statistics, settings)`, the weights of
    `matrix`'s documents (a part of the corpus, or all of it) given the whole corpus's
    statistics; `idfs`, the IDF variants its models may take (a model kind's schema
    offers these)."""

    name: str
    document_weights: DocumentWeights
    idfs: tuple[str, ...]


def bm25_document_weights(
    counts: sp.csr_matrix,
    k1: float,
    b: float,
    k1_plus_one: bool = False,
    statistics: str = "exact",
    average: float | None = None,
) -> sp.csr_matrix:
    """tf / (tf + k1 * (1 - b + b * dl / avgdl)), times (k1 + 1) if asked.

    exact: dl is the number of analyzed tokens of the document and avgdl its mean over
    all documents (empty ones included), as bm25s computes them. lucene: avgdl is the
    total length over the documents with a term, and dl the one-byte stored length.
    `average`: avgdl of the whole corpus when `counts` is a part of it.
    """
    exact = document_lengths(counts)
    if average is None:
        n_docs = document_count(exact, statistics)
        average = exact.sum() / n_docs if n_docs else 0.0
    lengths = lucene_stored_lengths(exact) if statistics == "lucene" else exact
    norm = np.ones(len(lengths)) if average == 0 else (1 - b + b * lengths / average)
    return _saturated(counts, k1, np.repeat(norm, np.diff(counts.indptr)), k1_plus_one)


def _saturated(
    counts: sp.csr_matrix, k1: float, norm: np.ndarray, k1_plus_one: bool
) -> sp.csr_matrix:
    """tf / (tf + k1 * norm) of every entry (norm: the entry's length normalisation)."""
    tf = counts.data.astype(np.float64)
    weights = tf / (tf + k1 * norm)
    if k1_plus_one:
        weights *= k1 + 1
    return _reweighted(counts, weights)


def bm25_field_weights(
    counts: sp.csr_matrix,
    k1: float,
    b: float,
    k1_plus_one: bool,
    statistics: str,
    column_fields: np.ndarray,
    averages: np.ndarray,
) -> sp.csr_matrix:
    """BM25's saturated term frequency of a multifield corpus, each field normalised by
    its own length as Lucene keeps one norm per field (Anserini's `-fields`): for a term of
    field f, dl is the document's length in f and avgdl the average over f
    (`averages`, the whole corpus's, per field); otherwise as bm25_document_weights."""
    exact = field_lengths(counts, column_fields, len(averages))
    lengths = lucene_stored_lengths(exact) if statistics == "lucene" else exact
    rows = np.repeat(np.arange(counts.shape[0]), np.diff(counts.indptr))
    fields = column_fields[counts.indices]
    average = averages[fields]
    known = average > 0
    ratio = lengths[rows, fields] / np.where(known, average, 1.0)
    return _saturated(counts, k1, np.where(known, 1 - b + b * ratio, 1.0), k1_plus_one)


def dirichlet_document_weights(
    counts: sp.csr_matrix,
    mu: float,
    collection: np.ndarray,
    total_length: float,
    statistics: str = "exact",
) -> sp.csr_matrix:
    """Query likelihood with Dirichlet smoothing as Lucene's LMDirichletSimilarity scores a
    matching term: max(0, ln(1 + tf / (mu * p_t)) + ln(mu / (dl + mu))), where p_t =
    (cf_t + 1) / (total length + 1) is computed in float32 as Lucene's
    DefaultCollectionModel does (Zhai and Lafferty, "A Study of Smoothing Methods for
    Language Models Applied to Ad Hoc Information Retrieval", SIGIR 2001). `collection`:
    cf per term over the whole corpus; dl as for BM25 (lucene: the one-byte stored length).
    """
    exact = document_lengths(counts)
    lengths = lucene_stored_lengths(exact) if statistics == "lucene" else exact
    one = np.float32(1)
    probability = (collection.astype(np.float32) + one) / (np.float32(total_length) + one)
    tf = counts.data.astype(np.float64)
    p = probability.astype(np.float64)[counts.indices]
    row_length = np.repeat(lengths, np.diff(counts.indptr))
    weights = np.log1p(tf / (mu * p)) + np.log(mu / (row_length + mu))
    return _reweighted(counts, np.maximum(weights, 0.0))


def jelinek_mercer_document_weights(
    counts: sp.csr_matrix,
    lam: float,
    collection: np.ndarray,
    total_length: float,
    statistics: str = "exact",
) -> sp.csr_matrix:
    """Query likelihood with Jelinek-Mercer smoothing as Lucene's
    LMJelinekMercerSimilarity scores a matching term: ln(1 + ((1 - lambda) * tf / dl) /
    (lambda * p_t)), lambda a float (1 - lambda in float arithmetic, as Java computes it
    from a float), p_t = (cf_t + 1) / (total length + 1) in float32 as for Dirichlet
    smoothing. `collection`: cf per term over the whole corpus; dl as for BM25 (lucene:
    the one-byte stored length)."""
    exact = document_lengths(counts)
    lengths = lucene_stored_lengths(exact) if statistics == "lucene" else exact
    one = np.float32(1)
    probability = (collection.astype(np.float32) + one) / (np.float32(total_length) + one)
    smoothing = np.float32(lam)
    kept = np.float64(one - smoothing)
    tf = counts.data.astype(np.float64)
    p = probability.astype(np.float64)[counts.indices]
    row_length = np.repeat(lengths, np.diff(counts.indptr))
    weights = np.log1p(kept * tf / row_length / (np.float64(smoothing) * p))
    return _reweighted(counts, weights)


def bm25(matrix: sp.csr_matrix, statistics: CorpusStatistics, settings: Settings) -> sp.csr_matrix:
    """BM25's saturated term frequency (Robertson and Zaragoza, "The Probabilistic
    Relevance Framework: BM25 and Beyond", FnTIR 2009) in Lucene's form:

        d_w = tf / (tf + k1 * (1 - b + b * dl / avgdl))     (times k1 + 1 if k1_plus_one)

    dl and avgdl by the `statistics` flavour (bm25_document_weights), per field for a
    multifield corpus (bm25_field_weights). Models of kind binary weigh by it at
    k1 = b = 0: d_w = 1 for every matching term."""
    if statistics.column_fields is not None:
        return bm25_field_weights(
            matrix,
            settings.k1,
            settings.b,
            settings.k1_plus_one,
            settings.statistics,
            statistics.column_fields,
            statistics.field_averages,
        )
    return bm25_document_weights(
        matrix,
        settings.k1,
        settings.b,
        settings.k1_plus_one,
        settings.statistics,
        average=statistics.average_length,
    )


def raw_counts(
    matrix: sp.csr_matrix, statistics: CorpusStatistics, settings: Settings
) -> sp.csr_matrix:
    """tf.idf's term frequency, raw (Salton and Buckley, "Term-Weighting Approaches in
    Automatic Text Retrieval", IP&M 1988): d_w = tf, no saturation, no length
    normalisation."""
    return matrix.astype(np.float32)


def dirichlet(
    matrix: sp.csr_matrix, statistics: CorpusStatistics, settings: Settings
) -> sp.csr_matrix:
    """Query likelihood with Dirichlet smoothing (Zhai and Lafferty, SIGIR 2001) as
    Lucene's LMDirichletSimilarity scores a matching term:

        d_w = max(0, ln(1 + tf / (mu * p_t)) + ln(mu / (dl + mu))),  p_t = (cf_t + 1) / (|C| + 1)

    (dirichlet_document_weights). No IDF: the collection probability p_t plays its part."""
    return dirichlet_document_weights(
        matrix, settings.mu, statistics.cf, statistics.total_length, settings.statistics
    )


def jelinek_mercer(
    matrix: sp.csr_matrix, statistics: CorpusStatistics, settings: Settings
) -> sp.csr_matrix:
    """Query likelihood with Jelinek-Mercer smoothing (Zhai and Lafferty, SIGIR 2001) as
    Lucene's LMJelinekMercerSimilarity scores a matching term (Anserini's -qljm):

        d_w = ln(1 + ((1 - lambda) * tf / dl) / (lambda * p_t)),  p_t = (cf_t + 1) / (|C| + 1)

    (jelinek_mercer_document_weights). No IDF: p_t plays its part."""
    return jelinek_mercer_document_weights(
        matrix, settings.lam, statistics.cf, statistics.total_length, settings.statistics
    )


def encoder_weights(
    matrix: sp.csr_matrix, statistics: CorpusStatistics, settings: Settings
) -> sp.csr_matrix:
    """The encoder's own weights, as they are (learned sparse models: SPLADE, Formal et
    al., SIGIR 2021; a user's encoder; vectors encoded elsewhere, Anserini's impacts):
    d_w = w, pruned and quantised before if the model says so (Weighting.prepared)."""
    return matrix


SCHEMES: dict[str, Scheme] = {
    scheme.name: scheme
    for scheme in (
        Scheme("bm25", bm25, CORPUS_IDFS),
        Scheme("tf", raw_counts, CORPUS_IDFS),
        Scheme("dirichlet", dirichlet, ("none",)),
        Scheme("jelinek-mercer", jelinek_mercer, ("none",)),
        Scheme("splade", encoder_weights, (*LEARNED_IDFS, MODEL_IDF)),
        Scheme("python", encoder_weights, LEARNED_IDFS),
        Scheme("vectors", encoder_weights, LEARNED_IDFS),
    )
}


def scheme_of(name: str) -> Scheme:
    """The scheme of that name (a Weighting's `kind`)."""
    try:
        return SCHEMES[name]
    except KeyError:
        raise ConfigError(
            f"unknown weighting {name!r}; known weightings: {', '.join(SCHEMES)}"
        ) from None


def _reweighted(counts: sp.csr_matrix, weights: np.ndarray) -> sp.csr_matrix:
    """The entries of `counts` with `weights` (as float32) in their place."""
    import scipy.sparse as sp

    return sp.csr_matrix(
        (weights.astype(np.float32), counts.indices.copy(), counts.indptr.copy()),
        shape=counts.shape,
    )
