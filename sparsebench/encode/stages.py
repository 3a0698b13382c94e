"""The encoding stages (rules in workflow/rules/encode.smk): documents encoded shard by
shard, stacked into one matrix, weighed (BM25 saturation, IDF, pruning); queries encoded
in the corpus vocabulary.
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.sparse as sp

from sparsebench.data.prepare import read_corpus_slice
from sparsebench.data.qrels import read_qrels
from sparsebench.encode.encoders import make_encoder
from sparsebench.encode.pruning import prune_rows
from sparsebench.encode.sparse import LabelledCSR, align_columns, stack_npz_files
from sparsebench.encode.weighting import (
    CorpusStatistics,
    bm25_document_weights,
    corpus_statistics,
    idf,
)
from sparsebench.errors import DataError
from sparsebench.fileio import load_csr, read_lines, save_array, save_csr, write_json, write_lines
from sparsebench.retrieve.exactscores import corpus_operand

log = logging.getLogger(__name__)


def n_shards(n_docs: int, shard_size: int) -> int:
    return max(1, math.ceil(n_docs / shard_size))


def encode_corpus_shard(
    corpus: str | Path,
    shard: int,
    shard_size: int,
    encoding: dict[str, Any],
    out_npz: str | Path,
    out_terms: str | Path,
    runtime: dict[str, Any] | None = None,
) -> LabelledCSR:
    """Encode documents [shard * size, (shard + 1) * size) of the corpus."""
    start = shard * shard_size
    table = read_corpus_slice(corpus, start, start + shard_size)
    if table.num_rows == 0:
        raise DataError(f"shard {shard} is empty: the corpus has fewer than {start + 1} documents")
    encoded = make_encoder(encoding, runtime).encode(table.column("text"))
    log.info(
        "shard %d: %d documents, %d terms, %d postings",
        shard,
        table.num_rows,
        len(encoded.terms),
        encoded.matrix.nnz,
    )
    save_csr(out_npz, encoded.matrix)
    write_lines(out_terms, encoded.terms.to_pylist())
    return encoded


def stack_shards(
    shard_npzs: list[str],
    shard_terms: list[str],
    corpus: str | Path,
    out_npz: str | Path,
    out_vocab: str | Path,
    out_doc_ids: str | Path,
) -> LabelledCSR:
    """One corpus matrix over the union vocabulary, rows in corpus order."""
    stacked = stack_npz_files(
        list(shard_npzs), [pa.array(read_lines(t), type=pa.string()) for t in shard_terms]
    )
    doc_ids = pq.read_table(corpus, columns=["doc_id"]).column("doc_id")
    if len(doc_ids) != stacked.matrix.shape[0]:
        raise DataError(
            f"the shards hold {stacked.matrix.shape[0]} documents but the corpus has {len(doc_ids)}"
        )
    log.info(
        "stacked %d shards: %d documents x %d terms, %d postings",
        len(shard_npzs),
        stacked.matrix.shape[0],
        stacked.matrix.shape[1],
        stacked.matrix.nnz,
    )
    save_csr(out_npz, stacked.matrix)
    write_lines(out_vocab, stacked.terms.to_pylist())
    write_lines(out_doc_ids, doc_ids.to_pylist())
    return stacked


def prepared_matrix(matrix: sp.csr_matrix, weighting: dict[str, Any]) -> sp.csr_matrix:
    """The encoded documents as the model weighs them: statically pruned if it says so."""
    if "pruning" not in weighting:
        return matrix
    before = matrix.nnz
    matrix = prune_rows(matrix, **weighting["pruning"])
    log.info("pruning %s keeps %d of %d weights", weighting["pruning"], matrix.nnz, before)
    return matrix


def corpus_idf(
    weighting: dict[str, Any], statistics: CorpusStatistics, vocab: str | Path | None
) -> np.ndarray:
    """The IDF of every term: from the corpus statistics, or shipped with the model."""
    if weighting["idf"] != "model":
        return idf(statistics.df, statistics.n_docs, weighting["idf"])
    from sparsebench.encode.splade import load_idf_json

    if vocab is None:
        raise DataError("an IDF from the model needs the corpus vocabulary")
    return load_idf_json(weighting["idf_source"], pa.array(read_lines(vocab), type=pa.string()))


def document_weights(
    matrix: sp.csr_matrix, weighting: dict[str, Any], statistics: CorpusStatistics
) -> sp.csr_matrix:
    """Each document's term weights; `statistics` are the whole corpus's (`matrix` may be
    a part of it)."""
    if weighting["kind"] == "bm25":
        return bm25_document_weights(
            matrix,
            weighting["k1"],
            weighting["b"],
            weighting["k1_plus_one"],
            weighting.get("statistics", "exact"),
            average=statistics.average_length,
        )
    if weighting["kind"] == "tf":  # raw term frequencies
        return matrix.astype(np.float32)
    return matrix


def term_statistics_record(
    weighting: dict[str, Any], statistics: CorpusStatistics, weights: np.ndarray, postings: int
) -> dict[str, Any]:
    return {
        "n_docs": int(statistics.n_docs),
        "statistics": weighting.get("statistics", "exact"),
        "vocabulary": len(statistics.df),
        "postings": int(postings),
        "avg_doc_length": statistics.average_length,
        "idf": weighting["idf"],
        "idf_min": float(weights.min(initial=0.0)),
        "idf_max": float(weights.max(initial=0.0)),
        "weighting": weighting,
    }


def save_postings(out_postings: str | Path, documents: sp.csr_matrix) -> None:
    """The term-major copy retrieval scores against, held in the float64 in which it sums
    (sparsebench.retrieve.exactscores): loaded without a copy."""
    save_csr(out_postings, corpus_operand(sp.csr_matrix(documents.T)))


def term_weights(
    corpus_npz: str | Path,
    weighting: dict[str, Any],
    out_weights: str | Path,
    out_idf: str | Path,
    out_stats: str | Path,
    vocab: str | Path | None = None,
    out_postings: str | Path | None = None,
) -> None:
    """Document weights and the IDF of every term, from the stacked corpus (`vocab`, the
    corpus's term list, is needed for an IDF shipped with the model)."""
    matrix = prepared_matrix(load_csr(corpus_npz), weighting)
    statistics = corpus_statistics(matrix, weighting.get("statistics", "exact"))
    weights = corpus_idf(weighting, statistics, vocab)
    documents = document_weights(matrix, weighting, statistics)
    stats = term_statistics_record(weighting, statistics, weights, matrix.nnz)
    log.info("term weights: %s", stats)
    save_csr(out_weights, documents)
    if out_postings is not None:
        save_postings(out_postings, documents)
    save_array(out_idf, weights)
    write_json(out_stats, stats)


def encode_queries(
    queries: str | Path,
    qrels: str | Path,
    vocab: str | Path,
    encoding: dict[str, Any],
    out_npz: str | Path,
    out_ids: str | Path,
    runtime: dict[str, Any] | None = None,
) -> None:
    """Encode the judged queries in the corpus vocabulary (terms unseen in it drop out)."""
    table = pq.read_table(queries)
    judged = set(read_qrels(qrels)["query_id"])
    keep = pc.is_in(table.column("query_id"), value_set=pa.array(sorted(judged), pa.string()))
    keep = keep.to_numpy(zero_copy_only=False)
    dropped = int((~keep).sum())
    log.info(
        "encoding %d of %d queries (%d dropped: they have no qrels in this split)",
        int(keep.sum()),
        table.num_rows,
        dropped,
    )
    table = table.filter(pa.array(keep))
    encoded = make_encoder(encoding, runtime).encode(table.column("text"))
    vocabulary = pa.array(read_lines(vocab), type=pa.string())
    matrix = align_columns(encoded.matrix, encoded.terms, vocabulary)
    empty = int((np.diff(matrix.indptr) == 0).sum())
    if empty:
        log.warning(
            "%d queries have no term in the corpus vocabulary; they retrieve nothing and score 0",
            empty,
        )
    save_csr(out_npz, matrix)
    write_lines(out_ids, table.column("query_id").to_pylist())
