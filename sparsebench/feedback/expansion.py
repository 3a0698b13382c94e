"""A retrieve job's queries expanded by feedback: the first retrieval's top documents (in
Anserini's order: score, then document id ascending), each query's analyzed tokens (the
encoded counts, scaled by the norms of all its tokens: terms the corpus lacks count in
them, as in Anserini; encode_queries writes them), the method's expanded weights, laid
over the corpus vocabulary. No text is analyzed here."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from sparsebench.core.csrfiles import map_csr
from sparsebench.core.fileio import read_json, read_lines
from sparsebench.feedback.documents import FeedbackCorpus, FirstRetrieval
from sparsebench.feedback.methods import METHODS, feedback_settings
from sparsebench.search.topk import RetrievedBatch

log = logging.getLogger(__name__)
_MARGIN = 50  # documents searched beyond the cutoff, so ties at it are all seen

FirstStage = Callable[[int], Iterator[tuple[int, RetrievedBatch]]]


@dataclass(frozen=True)
class Feedback:
    """What a retrieve job needs to expand its queries: the method's settings, the
    queries' norms, and the corpus's files."""

    settings: Mapping[str, Any]  # a model's `feedback`, with its method's defaults
    query_norms: str | Path  # encode_queries' (queries x 2): L1 and L2 of all tokens
    corpus_npz: str | Path  # the stacked term counts (encode/{encoder}/{corpus})
    vocab: str | Path
    corpus_json: str | Path  # its counts: the indexed documents (Lucene's numDocs)

    def first_depth(self) -> int:
        """How deep the first retrieval searches."""
        return feedback_settings(self.settings)["cutoff"] + _MARGIN

    def expanded(
        self, queries: sp.csr_matrix, order: np.ndarray, doc_ids: pa.Array, first_stage: FirstStage
    ) -> sp.csr_matrix:
        """The expanded `queries` (their token counts over the vocabulary, rows in
        `order` of the encoded ones, whose norms these are), over the corpus vocabulary."""
        settings = feedback_settings(self.settings)
        method = METHODS[settings["method"]]
        terms = pa.array(read_lines(self.vocab), type=pa.string())
        counts = read_json(self.corpus_json)
        corpus = FeedbackCorpus.build(
            map_csr(self.corpus_npz), terms, counts["n_docs"] - counts.get("n_empty_docs", 0)
        )
        norms = np.load(self.query_norms)[order]
        names = terms.to_pylist()
        ranked = _anserini_order(first_stage(self.first_depth()), doc_ids)
        rows, columns, values = [], [], []
        cut = settings["cutoff"]
        n_queries = queries.shape[0]
        for row in range(n_queries):
            docs, scores = ranked.get(row, ([], []))
            span = slice(queries.indptr[row], queries.indptr[row + 1])
            tokens = {
                names[c]: int(v)
                for c, v in zip(queries.indices[span], queries.data[span], strict=True)
            }
            first = FirstRetrieval(tokens, tuple(norms[row]), docs[:cut], scores[:cut])
            expanded = method.expand(first, corpus, settings)
            rows.extend([row] * len(expanded))
            columns.extend(expanded)
            values.extend(expanded.values())
        index = pc.index_in(pa.array(columns, pa.string()), value_set=terms)
        known = pc.is_valid(index).to_numpy(zero_copy_only=False)
        matrix = sp.csr_matrix(
            (
                np.array(values, np.float32)[known],
                (np.array(rows, np.int64)[known], index.drop_null().to_numpy().astype(np.int64)),
            ),
            shape=(n_queries, len(terms)),
        )
        log.info(
            "feedback %s: %d queries expanded to %.1f terms each on average",
            dict(settings),
            n_queries,
            matrix.nnz / max(n_queries, 1),
        )
        return matrix


def _anserini_order(
    batches: Iterator[tuple[int, RetrievedBatch]], doc_ids: pa.Array
) -> dict[int, tuple[list[int], list[float]]]:
    """Each query row's retrieved documents ordered as Anserini's first retrieval orders
    them: score descending, then document id ascending."""
    ranked: dict[int, tuple[list[int], list[float]]] = {}
    for start, batch in batches:
        ids = doc_ids.take(pa.array(batch.doc_rows)).to_pylist()
        for query_row in np.unique(batch.query_rows):
            where = np.flatnonzero(batch.query_rows == query_row)
            order = sorted(where, key=lambda i: (-float(batch.scores[i]), ids[i]))
            ranked[start + int(query_row)] = (
                [int(batch.doc_rows[i]) for i in order],
                [float(batch.scores[i]) for i in order],
            )
    return ranked
