"""One (model x dataset) pair through every stage, in this process: the stage functions
the workflow's jobs call, with the settings and file layout its plan gives them
(sparsebench.workflow.plan), so the run file is the workflow's, byte for byte. The
Python API (sparsebench.api) and tests use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sparsebench.core.errors import ConfigError
from sparsebench.core.fileio import read_json
from sparsebench.data import stages as data_stages
from sparsebench.encode import stages as encode_stages
from sparsebench.encode.encoders import make_encoder
from sparsebench.evaluate import stages as evaluate_stages
from sparsebench.feedback.expansion import Feedback
from sparsebench.retrieve import stages as retrieve_stages
from sparsebench.search.settings import SearchSettings
from sparsebench.workflow import layout
from sparsebench.workflow.config import validate_config
from sparsebench.workflow.layout import n_shards
from sparsebench.workflow.plan import Plan


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
    search: SearchSettings | None = None,
) -> PairFiles:
    """Every stage of one (model x dataset) pair, in order, with the settings and files
    the workflow's plan gives them (a model that encodes: bm25, splade, ...); `dataset`
    and `model` are config entries, `search` how the search runs (default: the config's
    defaults, one thread). Returns where the files are."""
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
        corpus.documents,
        plan.corpora[corpus.documents].identity,
        full,
        archive=archive,
        readers=[entry],
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
    document_encoder = make_encoder(encoder.settings, encoder.runtime)  # loaded once
    for i, shard in enumerate(shards):
        encode_stages.encode_corpus_shard(
            files.corpus / "corpus.parquet",
            i,
            shard_size,
            encoder.settings,
            f"{shard}.npz",
            f"{shard}.terms.txt",
            runtime=encoder.runtime,
            encoder=document_encoder,
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
        files.encoded / "doc_ids.txt",
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
        out_norms=files.queries / "query_norms.npy",
    )
    expansion = plan.feedback("m")
    feedback = None
    if expansion:
        feedback = Feedback(
            expansion,
            query_norms=files.queries / "query_norms.npy",
            corpus_npz=files.encoded / "corpus.npz",
            vocab=files.encoded / "vocab.txt",
            corpus_json=files.corpus / "corpus.json",
        )
    retrieve_stages.retrieve_run(
        files.weights / "postings.npz",
        files.weights / "idf.npy",
        files.queries / "queries.npz",
        files.queries / "query_ids.txt",
        files.encoded / "doc_ids.txt",
        files.run,
        tag="m",
        search=search or SearchSettings.from_config(config["retrieval"]),
        feedback=feedback,
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
