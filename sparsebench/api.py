"""A Python API for notebooks, with the names of the usual recipe. Every function is a
thin front over the library code the workflow runs; there is no second implementation.

    from sparsebench.api import evaluate_sparse_model
    metrics = evaluate_sparse_model({"kind": "bm25"}, "path/to/beir/scifact")
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.core.csrfiles import save_csr
from sparsebench.core.errors import ConfigError
from sparsebench.core.fileio import read_json, read_lines, write_lines
from sparsebench.encode.encoders import Encoder, make_encoder
from sparsebench.encode.idf import idf
from sparsebench.encode.sparse import LabelledCSR, align_columns
from sparsebench.encode.statistics import document_frequencies
from sparsebench.evaluate.metrics import evaluate_retrieval, evaluate_retrieval_per_query
from sparsebench.evaluate.procedures import TESTS
from sparsebench.evaluate.significance import Comparison, align, paired_tests
from sparsebench.kinds.registry import kind_of
from sparsebench.pair import PairFiles, run_pair
from sparsebench.search.scipy_backend import retrieve
from sparsebench.search.settings import SearchSettings
from sparsebench.workflow.config import validate_config

__all__ = [
    "make_model_encoders",
    "encode_to_csr",
    "encode_corpus_batched",
    "compute_idf",
    "retrieve_top_k",
    "retrieve_batch",
    "retrieve_all_queries",
    "evaluate_retrieval",
    "evaluate_retrieval_per_query",
    "paired_significance",
    "save_encoded_corpus",
    "load_encoded_corpus",
    "evaluate_sparse_model",
    "run_pair",
    "PairFiles",
    "SearchSettings",
]


def _model_config(model: Mapping[str, Any]) -> dict[str, Any]:
    """A model entry as in config.yaml, validated, with its defaults."""
    config = validate_config(
        {"datasets": {"d": {"source": "builtin", "name": "minibeir"}}, "models": {"m": dict(model)}}
    )
    return config["models"]["m"]


def make_model_encoders(model: Mapping[str, Any], language: str = "en") -> tuple[Encoder, Encoder]:
    """(document encoder, query encoder) of a model entry such as {"kind": "bm25"}."""
    entry = _model_config(model)
    kind = kind_of(entry)
    documents = {**kind.encoding(entry, "documents", language), **kind.pruning(entry)}
    return (
        make_encoder(documents, kind.runtime(entry, "documents")),
        make_encoder(kind.encoding(entry, "queries", language), kind.runtime(entry, "queries")),
    )


def encode_to_csr(texts: Sequence[str], encoder: Encoder) -> LabelledCSR:
    """Encode texts into a CSR matrix with named columns."""
    return encoder.encode(list(texts))


def encode_corpus_batched(
    texts: Sequence[str], encoder: Encoder, batch_size: int = 100_000
) -> LabelledCSR:
    """Encode a corpus in batches (as the workflow's shards) and stack them."""
    from sparsebench.encode.sparse import stack_labelled

    parts = [
        encoder.encode(list(texts[i : i + batch_size])) for i in range(0, len(texts), batch_size)
    ]
    return stack_labelled(parts)


def compute_idf(corpus: sp.csr_matrix | LabelledCSR, variant: str = "lucene") -> np.ndarray:
    """IDF of every column from the document frequencies of a (documents x terms) matrix."""
    matrix = corpus.matrix if isinstance(corpus, LabelledCSR) else sp.csr_matrix(corpus)
    return idf(document_frequencies(matrix), matrix.shape[0], variant)


def retrieve_batch(
    queries: sp.csr_matrix,
    corpus: sp.csr_matrix,
    query_term_weights: np.ndarray,
    doc_ids: Sequence[str],
    query_ids: Sequence[str],
    k: int = 1000,
    search: SearchSettings | None = None,
    ignore_identical_ids: bool = False,
) -> dict[str, list[tuple[str, float]]]:
    """{query id: [(doc id, score), ...] best first} for a matrix of query vectors, searched
    on the CPU (sparsebench.search.scipy_backend) with `search`'s batch size, block
    budget, threads and strategy (default: SearchSettings())."""
    search = search or SearchSettings()
    if search.backend not in ("auto", "scipy"):
        raise ConfigError(f"retrieve_batch searches on the CPU (scipy), not {search.backend}")
    doc_ids = np.asarray(doc_ids, dtype=object)
    query_ids = np.asarray(query_ids, dtype=object)
    results: dict[str, list[tuple[str, float]]] = {str(q): [] for q in query_ids}
    for start, batch in retrieve(
        sp.csr_matrix(queries),
        sp.csr_matrix(sp.csr_matrix(corpus).T),  # the postings: term-major
        np.asarray(query_term_weights, dtype=np.float64),
        k,
        doc_ids,
        query_ids,
        ignore_identical_ids=ignore_identical_ids,
        **search.engine_options(),
    ):
        for row, doc, score in zip(batch.query_rows, batch.doc_rows, batch.scores, strict=True):
            results[query_ids[start + row]].append((doc_ids[doc], float(score)))
    return results


def retrieve_top_k(
    query: sp.csr_matrix,
    corpus: sp.csr_matrix,
    query_term_weights: np.ndarray,
    doc_ids: Sequence[str],
    k: int = 1000,
) -> list[tuple[str, float]]:
    """[(doc id, score), ...] best first for one query vector (1 x V)."""
    return retrieve_batch(sp.csr_matrix(query), corpus, query_term_weights, doc_ids, ["q"], k)["q"]


def retrieve_all_queries(
    queries: Mapping[str, str],
    corpus: LabelledCSR,
    doc_ids: Sequence[str],
    query_encoder: Encoder,
    query_term_weights: np.ndarray | None = None,
    k: int = 1000,
    search: SearchSettings | None = None,
) -> dict[str, list[tuple[str, float]]]:
    """Encode {query id: text} in the corpus vocabulary and retrieve the top k of each
    (`search`: as retrieve_batch)."""
    query_ids = list(queries)
    encoded = query_encoder.encode([queries[q] for q in query_ids])
    matrix = align_columns(encoded.matrix, encoded.terms, corpus.terms)
    weights = np.ones(matrix.shape[1]) if query_term_weights is None else query_term_weights
    return retrieve_batch(matrix, corpus.matrix, weights, doc_ids, query_ids, k, search)


def paired_significance(
    model: Mapping[str, float] | pd.Series,
    baseline: Mapping[str, float] | pd.Series,
    tests: Sequence[str] = TESTS,
    resamples: int = 10_000,
    seed: int = 42,
) -> dict[str, Comparison]:
    """Paired tests of two systems' per-query values ({query id: value}) on the same
    queries: {test name: Comparison(statistic, p, delta, ci_low, ci_high, wins, ...)}."""
    a, b = align(
        pd.Series(model, dtype=float), pd.Series(baseline, dtype=float), "paired_significance"
    )
    return {r.test: r for r in paired_tests(a, b, tests, resamples, seed)}


def save_encoded_corpus(folder: str | Path, corpus: LabelledCSR, doc_ids: Sequence[str]) -> Path:
    """corpus.npz (scipy layout), vocab.txt and doc_ids.txt in `folder`, as the workflow
    writes them."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if len(doc_ids) != corpus.matrix.shape[0]:
        raise ValueError(f"{len(doc_ids)} ids for {corpus.matrix.shape[0]} documents")
    save_csr(folder / "corpus.npz", corpus.matrix)
    write_lines(folder / "vocab.txt", corpus.terms.to_pylist())
    write_lines(folder / "doc_ids.txt", [str(d) for d in doc_ids])
    return folder


def load_encoded_corpus(folder: str | Path) -> tuple[LabelledCSR, list[str]]:
    """The (matrix with terms, document ids) that save_encoded_corpus or the workflow wrote."""
    folder = Path(folder)
    matrix = sp.load_npz(folder / "corpus.npz").tocsr()
    terms = pa.array(read_lines(folder / "vocab.txt"), type=pa.string())
    return LabelledCSR(matrix, terms), read_lines(folder / "doc_ids.txt")


def _write_beir_folder(
    folder: Path,
    corpus: Mapping[str, Any],
    queries: Mapping[str, str],
    qrels: Mapping[str, Mapping[str, int]],
) -> Path:
    (folder / "qrels").mkdir(parents=True, exist_ok=True)
    with open(folder / "corpus.jsonl", "w", encoding="utf-8") as handle:
        for doc_id, doc in corpus.items():
            title, text = (
                (doc.get("title", ""), doc.get("text", ""))
                if isinstance(doc, Mapping)
                else ("", doc)
            )
            handle.write(json.dumps({"_id": doc_id, "title": title, "text": text}) + "\n")
    with open(folder / "queries.jsonl", "w", encoding="utf-8") as handle:
        for query_id, text in queries.items():
            handle.write(json.dumps({"_id": query_id, "text": text}) + "\n")
    with open(folder / "qrels" / "test.tsv", "w", encoding="utf-8") as handle:
        handle.write("query-id\tcorpus-id\tscore\n")
        for query_id, docs in qrels.items():
            for doc_id, grade in docs.items():
                handle.write(f"{query_id}\t{doc_id}\t{int(grade)}\n")
    return folder


def evaluate_sparse_model(
    model: Mapping[str, Any],
    corpus: str | Path | Mapping[str, Any],
    queries: Mapping[str, str] | None = None,
    qrels: Mapping[str, Mapping[str, int]] | None = None,
    k: int = 1000,
    k_values: Sequence[int] | None = None,
    work_dir: str | Path | None = None,
    shard_size: int = 100_000,
    per_query: bool = False,
    search: SearchSettings | None = None,
    **dataset_options: Any,
) -> dict[str, Any]:
    """Evaluate a model entry ({"kind": "bm25"}, {"kind": "splade", "model": ...}) on a
    collection: a BEIR-format folder (`corpus` as a path), or the dictionaries of the usual
    loaders ({doc id: {"title", "text"}}, {query id: text}, {query id: {doc id: grade}}).

    Runs the workflow's stages in `work_dir` (a temporary folder by default; `search`: how
    the search runs, sparsebench.search.settings.SearchSettings) and returns
    the metric means (keys like "nDCG@10"), or with per_query=True {"means": ...,
    "per_query": {query id: {metric: value}}}.
    """
    evaluation = {"cutoffs": list(k_values)} if k_values else {}
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(work_dir) if work_dir else Path(scratch)
        if isinstance(corpus, str | Path):
            dataset = {"source": "local", "path": str(corpus), **dataset_options}
        else:
            if queries is None or qrels is None:
                raise ValueError("with a corpus dictionary, give queries and qrels too")
            folder = _write_beir_folder(out / "collection", corpus, queries, qrels)
            dataset = {"source": "local", "path": str(folder), **dataset_options}
        files = run_pair(
            dataset, model, out, shard_size=shard_size, k=k, evaluation=evaluation, search=search
        )
        means = read_json(files.metrics)
        if not per_query:
            return means
        long = pd.read_csv(
            files.per_query, sep="\t", dtype={"query_id": str}, keep_default_na=False
        )
        table = long.pivot(index="query_id", columns="metric", values="value")
        return {"means": means, "per_query": table.to_dict(orient="index")}
