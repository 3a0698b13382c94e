"""Retrieval over a corpus split into partitions, each its own job, merged: byte for
byte the single job's run, for every model kind and any number of partitions, including
partitions that cut through runs of tied scores."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import prepare_collection, shared_path
from support.samefiles import assert_same_files

from sparsebench.encode import stages as encode_stages
from sparsebench.kinds.registry import kind_of
from sparsebench.partitions import stages as partitions
from sparsebench.retrieve import stages as retrieve_stages
from sparsebench.search.settings import SearchSettings
from sparsebench.workflow.config import validate_config
from sparsebench.workflow.layout import n_shards, partition_shards


def encoding_params(model: dict, side: str) -> dict:
    return kind_of(model).encoding(model, side, "en")


def weighting_params(model: dict) -> dict:
    return kind_of(model).weighting(model)


def model_entry(model: dict) -> dict:
    config = validate_config(
        {"datasets": {"d": {"source": "builtin", "name": "minibeir"}}, "models": {"m": model}}
    )
    return config["models"]["m"]


def encode(folder: Path, data: Path, model: dict, shard_size: int) -> tuple[list[Path], list[Path]]:
    import pyarrow.parquet as pq

    folder.mkdir(exist_ok=True)
    total = pq.ParquetFile(data / "corpus.parquet").metadata.num_rows
    npzs, terms = [], []
    for shard in range(n_shards(total, shard_size)):
        npz, listed = folder / f"{shard}.npz", folder / f"{shard}.terms.txt"
        encode_stages.encode_corpus_shard(
            data / "corpus.parquet",
            shard,
            shard_size,
            encoding_params(model, "documents"),
            npz,
            listed,
        )
        npzs.append(npz)
        terms.append(listed)
    return npzs, terms


def single_job(out: Path, data: Path, model: dict, npzs, terms, k: int, ignore: bool) -> Path:
    encode_stages.stack_shards(
        [str(p) for p in npzs],
        [str(t) for t in terms],
        data / "corpus.parquet",
        out / "corpus.npz",
        out / "vocab.txt",
        out / "doc_ids.txt",
    )
    encode_stages.term_weights(
        out / "corpus.npz",
        out / "vocab.txt",
        out / "doc_ids.txt",
        weighting_params(model),
        out / "postings.npz",
        out / "idf.npy",
        out / "term_stats.json",
    )
    encode_stages.encode_queries(
        data / "queries.parquet",
        data / "qrels.tsv",
        out / "vocab.txt",
        encoding_params(model, "queries"),
        out / "queries.npz",
        out / "query_ids.txt",
    )
    retrieve_stages.retrieve_run(
        out / "postings.npz",
        out / "idf.npy",
        out / "queries.npz",
        out / "query_ids.txt",
        out / "doc_ids.txt",
        out / "run.trec",
        k,
        "m",
        ignore_identical_ids=ignore,
        search=SearchSettings(strategy="exhaustive"),
    )
    return out / "run.trec"


def partitioned(
    out: Path,
    data: Path,
    model: dict,
    npzs,
    terms,
    shard_size: int,
    count: int,
    k: int,
    ignore: bool,
    queries: Path,
    strategy: str = "auto",
) -> Path:
    weighting = weighting_params(model)
    partitions.write_vocabulary(terms, out / "vocab.txt")
    groups = partition_shards(len(npzs), count)
    stats = []
    for p, shards in enumerate(groups):
        stats.append(out / f"{p}.stats.npz")
        partitions.partition_statistics(
            [npzs[s] for s in shards],
            [terms[s] for s in shards],
            out / "vocab.txt",
            weighting,
            stats[-1],
        )
    partitions.global_statistics(
        stats,
        weighting,
        out / "vocab.txt",
        out / "statistics.npz",
        out / "idf.npy",
        out / "term_stats.json",
    )
    total = len((queries / "doc_ids.txt").read_text().splitlines())
    runs = []
    for p, shards in enumerate(groups):
        rows = range(shards.start * shard_size, min(shards.stop * shard_size, total))
        partitions.partition_postings(
            [npzs[s] for s in shards],
            [terms[s] for s in shards],
            out / "vocab.txt",
            data / "corpus.parquet",
            rows,
            weighting,
            out / "statistics.npz",
            out / str(p) / "postings.npz",
            out / str(p) / "doc_ids.txt",
        )
        runs.append(out / str(p) / "run.trec")
        retrieve_stages.retrieve_run(
            out / str(p) / "postings.npz",
            out / "idf.npy",
            queries / "queries.npz",
            queries / "query_ids.txt",
            out / str(p) / "doc_ids.txt",
            runs[-1],
            k,
            "m",
            ignore_identical_ids=ignore,
            search=SearchSettings(strategy=strategy),
        )
    partitions.merge_runs(runs, queries / "query_ids.txt", out / "run.trec", k, "m")
    return out / "run.trec"


@pytest.fixture(scope="module")
def cranfield(tmp_path_factory):
    return prepare_collection(
        shared_path("data", "cranfield"), tmp_path_factory.mktemp("cranfield")
    )


@pytest.mark.parametrize(
    "model",
    [
        {"kind": "bm25", "k1": 0.9, "b": 0.4},
        {"kind": "bm25", "k1": 0.9, "b": 0.4, "statistics": "lucene"},
        {"kind": "bm25", "idf": "classic"},
        {"kind": "tfidf"},
        {"kind": "qld", "statistics": "lucene"},
        {"kind": "qljm", "lambda": 0.3},
        {"kind": "bm25", "fields": {"contents": 1.0, "title": 0.5}, "statistics": "lucene"},
    ],
    ids=["bm25-exact", "bm25-lucene", "bm25-classic", "tfidf", "qld", "qljm", "multifield"],
)
def test_partitions_merge_into_the_single_job_run(cranfield, tmp_path, model):
    entry = model_entry(model)
    shard_size = 200
    npzs, terms = encode(tmp_path / "shards", cranfield, entry, shard_size)
    single = tmp_path / "single"
    single.mkdir()
    expected = single_job(single, cranfield, entry, npzs, terms, 100, False)
    for count in (2, 3, 7):
        out = tmp_path / f"p{count}"
        out.mkdir()
        merged = partitioned(
            out, cranfield, entry, npzs, terms, shard_size, count, 100, False, single
        )
        assert_same_files(merged, expected)
        assert np.array_equal(np.load(out / "idf.npy"), np.load(single / "idf.npy"))


@pytest.mark.parametrize("k", [1, 10, 1000])
def test_partitions_searched_with_maxscore_merge_into_the_exhaustive_run(cranfield, tmp_path, k):
    """Each partition prunes against its own floors (its own top k), yet the merged run
    is the single exhaustive job's, byte for byte."""
    entry = model_entry({"kind": "bm25", "statistics": "lucene"})
    npzs, terms = encode(tmp_path / "shards", cranfield, entry, 200)
    single = tmp_path / "single"
    single.mkdir()
    expected = single_job(single, cranfield, entry, npzs, terms, k, False)
    out = tmp_path / "p3"
    out.mkdir()
    merged = partitioned(
        out, cranfield, entry, npzs, terms, 200, 3, k, False, single, strategy="maxscore"
    )
    assert_same_files(merged, expected)
