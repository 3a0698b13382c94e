"""A Python API for notebooks, with the names of the usual recipe. Every function is a
thin front over the library code the workflow runs; there is no second implementation.

    from sparsebench.api import evaluate_sparse_model
    metrics = evaluate_sparse_model({"kind": "bm25"}, "path/to/beir/scifact")
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.data import stages as data_stages
from sparsebench.encode import stages as encode_stages
from sparsebench.encode.encoders import Encoder, make_encoder
from sparsebench.encode.sparse import LabelledCSR, align_columns
from sparsebench.encode.weighting import document_frequencies, idf
from sparsebench.errors import ConfigError
from sparsebench.evaluate import stages as evaluate_stages
from sparsebench.evaluate.metrics import evaluate_retrieval, evaluate_retrieval_per_query
from sparsebench.evaluate.significance import TESTS, Comparison, align, paired_tests
from sparsebench.fileio import read_json, read_lines, save_csr, write_lines
from sparsebench.kinds.registry import kind_of
from sparsebench.retrieve import stages as retrieve_stages
from sparsebench.retrieve.scipy_backend import retrieve
from sparsebench.workflow import plan as layout
from sparsebench.workflow.config import validate_config
from sparsebench.workflow.plan import Plan, n_shards

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
    **options: Any,
) -> dict[str, list[tuple[str, float]]]:
    """{query id: [(doc id, score), ...] best first} for a matrix of query vectors."""
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
        **options,
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
) -> dict[str, list[tuple[str, float]]]:
    """Encode {query id: text} in the corpus vocabulary and retrieve the top k of each."""
    query_ids = list(queries)
    encoded = query_encoder.encode([queries[q] for q in query_ids])
    matrix = align_columns(encoded.matrix, encoded.terms, corpus.terms)
    weights = np.ones(matrix.shape[1]) if query_term_weights is None else query_term_weights
    return retrieve_batch(matrix, corpus.matrix, weights, doc_ids, query_ids, k)


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


@dataclass(frozen=True)
class PairFiles:
    """Where run_pair put the files of a (model x dataset) pair: the workflow's layout
    (sparsebench.workflow.plan) under one root folder."""

    root: Path
    corpus: Path  # corpus.parquet, corpus.json
    dataset: Path  # queries.parquet, qrels.tsv, qrels.tuning.tsv, dataset.json
    encoded: Path  # shards/, corpus.npz, vocab.txt, doc_ids.txt
    queries: Path  # queries.npz, query_ids.txt
    weights: Path  # postings.npz, idf.npy, term_stats.json
    run: Path  # the TREC run
    evaluation: Path  # metrics.json, per_query.tsv

    @property
    def metrics(self) -> Path:
        return self.evaluation / "metrics.json"

    @property
    def per_query(self) -> Path:
        return self.evaluation / "per_query.tsv"


def _pair_files(plan: Plan, model: str, dataset: str, root: Path) -> PairFiles:
    def at(path: str) -> Path:
        return root / Path(path).relative_to("results")

    corpus = plan.corpus_of[dataset]
    return PairFiles(
        root=root,
        corpus=at(layout.CORPUS.format(corpus=corpus)),
        dataset=at(layout.DATA.format(dataset=dataset)),
        encoded=at(plan.encoded(model, dataset, "")),
        queries=at(plan.encoded_queries(model, dataset, "", "evaluation")),
        weights=at(plan.weights(model, dataset, "")),
        run=at(layout.RUN["evaluation"].format(model=model, dataset=dataset)),
        evaluation=at(layout.EVAL["evaluation"].format(model=model, dataset=dataset)),
    )


def run_pair(
    dataset: Mapping[str, Any],
    model: Mapping[str, Any],
    out: str | Path,
    shard_size: int = 100_000,
    k: int = 1000,
    evaluation: Mapping[str, Any] | None = None,
) -> PairFiles:
    """Every stage of one (model x dataset) pair, in order, with the settings and files
    the workflow's plan gives them (a model that encodes: bm25, splade, ...); `dataset`
    and `model` are config entries. Returns where the files are."""
    config = validate_config(
        {
            "datasets": {"d": dict(dataset)},
            "models": {"m": dict(model)},
            "evaluation": dict(evaluation or {}),
            "retrieval": {"k": k},
            "corpus": {"shard_size": shard_size},
        }
    )
    plan = Plan(config)
    if not plan.kind("m").encodes:
        raise ConfigError(
            f"run_pair runs models that encode, not kind {config['models']['m']['kind']}"
        )
    files = _pair_files(plan, "m", "d", Path(out))
    entry, corpus = plan.datasets["d"], plan.corpus("d")
    archive = None
    if entry["source"] == "beir":
        archive = files.root / "downloads" / "beir" / f"{entry['name']}.zip"
        data_stages.download_beir(
            entry["name"],
            archive,
            entry.get("base_url", config["download"]["beir_base_url"]),
            entry.get("md5"),
        )
    full = files.corpus.parent / corpus.documents
    data_stages.prepare_corpus(
        corpus.documents, plan.corpora[corpus.documents].identity, full, archive=archive
    )
    data_stages.prepare(
        "d",
        entry,
        files.dataset,
        documents=full / "corpus.parquet",
        corpus=corpus.name,
        archive=archive,
    )
    if corpus.sample_of:
        data_stages.prepare_corpus(
            corpus.name,
            corpus.identity,
            files.corpus,
            documents=full / "corpus.parquet",
            qrels=files.dataset / "qrels.tsv",
        )
    encoder, query_encoder = (plan.encoding(e) for e in plan.encoders("m", "d"))
    count = n_shards(read_json(files.corpus / "corpus.json")["n_docs"], shard_size)
    shards = [files.encoded / "shards" / str(i) for i in range(count)]
    for i, shard in enumerate(shards):
        encode_stages.encode_corpus_shard(
            files.corpus / "corpus.parquet",
            i,
            shard_size,
            encoder.settings,
            f"{shard}.npz",
            f"{shard}.terms.txt",
            runtime=encoder.runtime,
        )
    encode_stages.stack_shards(
        [f"{s}.npz" for s in shards],
        [f"{s}.terms.txt" for s in shards],
        files.corpus / "corpus.parquet",
        files.encoded / "corpus.npz",
        files.encoded / "vocab.txt",
        files.encoded / "doc_ids.txt",
    )
    encode_stages.term_weights(
        files.encoded / "corpus.npz",
        files.encoded / "vocab.txt",
        plan.weighting("m"),
        files.weights / "postings.npz",
        files.weights / "idf.npy",
        files.weights / "term_stats.json",
    )
    encode_stages.encode_queries(
        files.dataset / "queries.parquet",
        files.dataset / "qrels.tsv",
        files.encoded / "vocab.txt",
        query_encoder.settings,
        files.queries / "queries.npz",
        files.queries / "query_ids.txt",
        runtime=query_encoder.runtime,
    )
    speed = config["retrieval"]
    retrieve_stages.retrieve_run(
        files.weights / "postings.npz",
        files.weights / "idf.npy",
        files.queries / "queries.npz",
        files.queries / "query_ids.txt",
        files.encoded / "doc_ids.txt",
        files.run,
        tag="m",
        query_batch_size=speed["query_batch_size"],
        max_block_mb=speed["max_block_mb"],
        backend_choice=speed["backend"],
        device=speed["device"],
        **plan.retrieval_settings("d"),
    )
    evaluate_stages.evaluate(
        files.run,
        files.dataset / "qrels.tsv",
        plan.evaluation_settings("d"),
        files.metrics,
        files.per_query,
    )
    return files


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
    **dataset_options: Any,
) -> dict[str, Any]:
    """Evaluate a model entry ({"kind": "bm25"}, {"kind": "splade", "model": ...}) on a
    collection: a BEIR-format folder (`corpus` as a path), or the dictionaries of the usual
    loaders ({doc id: {"title", "text"}}, {query id: text}, {query id: {doc id: grade}}).

    Runs the workflow's stages in `work_dir` (a temporary folder by default) and returns
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
        files = run_pair(dataset, model, out, shard_size=shard_size, k=k, evaluation=evaluation)
        means = read_json(files.metrics)
        if not per_query:
            return means
        long = pd.read_csv(files.per_query, sep="\t", dtype={"query_id": str})
        table = long.pivot(index="query_id", columns="metric", values="value")
        return {"means": means, "per_query": table.to_dict(orient="index")}
