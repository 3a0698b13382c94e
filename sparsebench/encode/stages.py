"""The encoding stages (rules in workflow/rules/encode.smk): documents encoded shard by
shard, stacked into one matrix, weighed (sparsebench.encode.weighting) into postings;
queries encoded in the corpus vocabulary.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.sparse as sp

from sparsebench.core.csrfiles import load_csr, save_csr
from sparsebench.core.devices import cpu_name
from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_line_array, read_lines, save_array, write_json, write_lines
from sparsebench.data.corpusfile import read_corpus_slice
from sparsebench.encode.encoders import Encoder, encode_table, make_encoder
from sparsebench.encode.quantization import QuantizationRule
from sparsebench.encode.sparse import LabelledCSR, align_columns, stack_npz_files
from sparsebench.encode.weighting import Weighting
from sparsebench.search.postings_build import save_postings

log = logging.getLogger(__name__)

# documents an encoder is first run on, outside the encoding's clock: the first call of
# a process loads (or builds) compiled code, and a model's first forward pass sets up its
# kernels, which no later batch pays again
WARM_DOCUMENTS = 8


def encode_corpus_shard(
    corpus: str | Path,
    shard: int,
    shard_size: int,
    encoding: dict[str, Any],
    out_npz: str | Path,
    out_terms: str | Path,
    runtime: dict[str, Any] | None = None,
    out_cost: str | Path | None = None,
    encoder: Encoder | None = None,
) -> LabelledCSR:
    """Encode documents [shard * size, (shard + 1) * size) of the corpus; `out_cost`:
    what the encoding cost, by the stage's own clock (the model's loading apart, and its
    first call: compiled code loaded or built, kernels a first forward pass sets up).
    `encoder`: the one make_encoder(encoding, runtime) gives, made once by a caller that
    encodes every shard in one process (sparsebench.pair), where loading a model per
    shard would cost more than encoding it."""
    start = shard * shard_size
    table = read_corpus_slice(corpus, start, start + shard_size)
    if table.num_rows == 0:
        raise DataError(f"shard {shard} is empty: the corpus has fewer than {start + 1} documents")
    began = time.perf_counter()
    if encoder is None:
        encoder = make_encoder(encoding, runtime)
    encode_table(encoder, table.slice(0, WARM_DOCUMENTS))  # loading, not encoding
    loaded = time.perf_counter()
    encoded = encode_table(encoder, table)
    seconds = time.perf_counter() - loaded
    log.info(
        "shard %d: %d documents, %d terms, %d postings; %.1f documents/s",
        shard,
        table.num_rows,
        len(encoded.terms),
        encoded.matrix.nnz,
        table.num_rows / max(seconds, 1e-9),
    )
    save_csr(out_npz, encoded.matrix)
    write_lines(out_terms, encoded.terms.to_pylist())
    if out_cost is not None:
        write_json(
            out_cost,
            {
                "documents": table.num_rows,
                "seconds": seconds,
                "load_seconds": loaded - began,
                "device": str(getattr(encoder, "device", "cpu")),
                "threads": (runtime or {}).get("threads", 1),
                "cpu": cpu_name(),
            },
        )
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


def term_weights(
    corpus_npz: str | Path,
    vocab: str | Path,
    doc_ids: str | Path,
    weighting: dict[str, Any],
    out_postings: str | Path,
    out_idf: str | Path,
    out_stats: str | Path,
) -> None:
    """The postings of the weighted documents (with their ids' tie keys) and the IDF of
    every term, from the stacked corpus (`vocab`, the corpus's term list, aligns an IDF
    shipped with the model)."""
    recipe = Weighting.from_params(weighting)
    matrix = recipe.prepared(load_csr(corpus_npz))
    terms = pa.array(read_lines(vocab), type=pa.string())
    statistics = recipe.corpus_statistics(matrix, terms)
    weights = recipe.term_idf(statistics, terms)
    stats = recipe.record(weighting, statistics, weights, matrix.nnz)
    log.info("term weights: %s", stats)
    save_postings(
        out_postings,
        matrix,
        lambda rows: recipe.document_weights(rows, statistics),
        read_line_array(doc_ids),
        packed=recipe.packed,
    )
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
    out_norms: str | Path | None = None,
) -> None:
    """Encode the judged queries in the corpus vocabulary (terms unseen in it drop out);
    `out_norms`: each query's L1 and L2 norms before they drop out (a lexical query's
    token count and the root of its squared counts: what feedback scales it by, as
    Anserini counts every token of the query)."""
    table = pq.read_table(queries)
    from sparsebench.data.qrels import read_qrels  # pandas: this stage's alone

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
    encoded = encode_table(make_encoder(encoding, runtime), table)
    if out_norms is not None:
        save_array(out_norms, query_norms(encoded.matrix))
    vocabulary = pa.array(read_lines(vocab), type=pa.string())
    matrix = align_columns(encoded.matrix, encoded.terms, vocabulary)
    if encoding.get("quantization"):  # integer query weights, as the cached query files
        matrix = QuantizationRule.from_config(encoding["quantization"]).quantize_rows(matrix)
    empty = int((np.diff(matrix.indptr) == 0).sum())
    if empty:
        log.warning(
            "%d queries have no term in the corpus vocabulary; they retrieve nothing and score 0",
            empty,
        )
    save_csr(out_npz, matrix)
    write_lines(out_ids, table.column("query_id").to_pylist())


def query_norms(matrix: sp.csr_matrix) -> np.ndarray:
    """(queries x 2): each row's L1 and L2 norm, in float64."""
    weights = sp.csr_matrix(matrix, dtype=np.float64)
    l1 = np.asarray(abs(weights).sum(axis=1)).ravel()
    l2 = np.sqrt(np.asarray(weights.multiply(weights).sum(axis=1)).ravel())
    return np.column_stack([l1, l2])
