"""The Weighting recipe: how a model weighs its encoded documents and its query terms'
IDF, the `weighting` param of term_weights and of the partitioned jobs (a model kind
builds it).

score(q, d) = sum over shared terms t of q_w(t) * idf(t) * d_w(t). The IDF goes on the
query side at retrieval time; the document matrix holds d_w only, which the recipe's
weighting scheme computes (sparsebench.encode.schemes: BM25's saturated term frequency,
raw counts, query likelihood, or the encoder's own weights for learned sparse models) from
the collection statistics (sparsebench.encode.statistics); the IDF is one of the variants
of sparsebench.encode.idf, or the one a model ships.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.encode.fields import column_fields
from sparsebench.encode.idf import idf
from sparsebench.encode.pruning import prune_rows
from sparsebench.encode.quantization import QuantizationRule
from sparsebench.encode.schemes import MODEL_IDF, scheme_of
from sparsebench.encode.statistics import CorpusStatistics, corpus_statistics

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Weighting:
    """How a model weighs its encoded documents (the `weighting` param of term_weights and
    of the partitioned jobs, built by the model's kind): the recipe both share.

    kind        the weighting scheme (sparsebench.encode.schemes.SCHEMES: bm25, tf,
                dirichlet, and splade, python, vectors: the encoder's weights)
    idf         an IDF variant the scheme takes (encode.idf.IDF_VARIANTS), or model (the
                idf.json shipped with the model)
    pruning     static pruning of each document ({top_k, threshold}), SPLADE only
    quantization  integer impacts (encode.quantization: {scale, rounding, arithmetic}),
                after pruning, SPLADE only
    fields      the document fields of a multifield encoding (encode.fields), in their
                column order: statistics, norms and the IDF per field; BM25 only
    packed      the postings' long lists bit-packed (search.packed_rows): integer
                weights only
    """

    kind: str
    idf: str
    k1: float = 0.0
    b: float = 0.0
    k1_plus_one: bool = False
    mu: float = 0.0
    lam: float = 0.0  # Jelinek-Mercer's lambda
    statistics: str = "exact"
    pruning: Mapping[str, Any] | None = None
    idf_source: str | None = None
    quantization: Mapping[str, Any] | None = None
    fields: tuple[str, ...] | None = None
    packed: bool = False

    def __post_init__(self) -> None:
        scheme = scheme_of(self.kind)
        if self.idf not in scheme.idfs:
            raise ConfigError(
                f"weighting {self.kind} takes idf {', '.join(scheme.idfs)}, not {self.idf!r}"
            )
        if self.fields is not None and self.kind != "bm25":
            raise ConfigError(f"fields are weighed by BM25 only, not by {self.kind}")

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Weighting:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(params) - known)
        if unknown:
            raise ConfigError(f"unknown weighting settings {unknown}; known: {sorted(known)}")
        return cls(**params)

    def prepared(self, matrix: sp.csr_matrix) -> sp.csr_matrix:
        """The encoded documents as the model weighs them: statically pruned and quantised
        if it says so."""
        if self.pruning is not None:
            before = matrix.nnz
            matrix = prune_rows(matrix, **self.pruning)
            log.info("pruning %s keeps %d of %d weights", dict(self.pruning), matrix.nnz, before)
        if self.quantization is not None:
            before = matrix.nnz
            matrix = QuantizationRule.from_config(self.quantization).quantize_rows(matrix)
            log.info(
                "quantization %s keeps %d of %d weights (integer impacts above zero)",
                dict(self.quantization),
                matrix.nnz,
                before,
            )
        return matrix

    def corpus_statistics(
        self, matrix: sp.csr_matrix, terms: pa.Array | None = None
    ) -> CorpusStatistics:
        """The statistics of `matrix`'s documents (with `terms`, its columns' names: per
        field as well for a multifield model)."""
        if self.fields is None:
            return corpus_statistics(matrix, self.statistics)
        if terms is None:
            raise DataError("multifield statistics need the corpus vocabulary")
        columns = column_fields(terms, self.fields)
        return corpus_statistics(matrix, self.statistics, columns, len(self.fields))

    def term_idf(self, statistics: CorpusStatistics, terms: pa.Array | None) -> np.ndarray:
        """The IDF of every term: from the corpus statistics, or shipped with the model
        (aligned with the corpus's `terms`)."""
        if self.idf != MODEL_IDF:
            return idf(statistics.df, statistics.column_docs(), self.idf)
        from sparsebench.encode.splade import load_idf_json

        if terms is None or self.idf_source is None:
            raise DataError("an IDF from the model needs the model and the corpus vocabulary")
        return load_idf_json(self.idf_source, terms)

    def document_weights(
        self, matrix: sp.csr_matrix, statistics: CorpusStatistics
    ) -> sp.csr_matrix:
        """Each document's term weights by the recipe's scheme; `statistics` are the whole
        corpus's (`matrix` may be a part of it)."""
        return scheme_of(self.kind).document_weights(matrix, statistics, self)

    def record(
        self,
        params: Mapping[str, Any],
        statistics: CorpusStatistics,
        weights: np.ndarray,
        postings: int,
    ) -> dict[str, Any]:
        """What term_stats.json says of a weighing (`params`: the settings as given)."""
        fields = {}
        if self.fields is not None:
            docs, averages = statistics.field_docs, statistics.field_averages
            fields = {
                "fields": {
                    name: {"n_docs": int(docs[i]), "avg_length": float(averages[i])}
                    for i, name in enumerate(self.fields)
                }
            }
        return {
            "n_docs": int(statistics.n_docs),
            "statistics": self.statistics,
            "vocabulary": len(statistics.df),
            "postings": int(postings),
            "avg_doc_length": statistics.average_length,
            "idf": self.idf,
            "idf_min": float(weights.min(initial=0.0)),
            "idf_max": float(weights.max(initial=0.0)),
            "weighting": dict(params),
            **fields,
        }
