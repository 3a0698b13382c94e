"""The Python API: the same numbers as the Snakemake workflow, through the same code."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml
from conftest import TINY_DOCS, TINY_QRELS, TINY_QUERIES, shared_path
from scipy import stats
from support.snakemake_runs import snakemake

from sparsebench import api
from sparsebench.core.errors import ConfigError
from sparsebench.runs.runfile import read_run


@pytest.mark.slow
def test_evaluate_sparse_model_equals_the_snakemake_run(tmp_path):
    collection = shared_path("data", "cranfield")
    model = {"kind": "bm25", "k1": 1.2, "b": 0.75}
    configfile = tmp_path / "c.yaml"
    configfile.write_text(
        yaml.safe_dump(
            {
                "datasets": {"cranfield": {"source": "local", "path": str(collection)}},
                "models": {"bm25": model},
                "corpus": {"shard_size": 500},
            }
        )
    )
    snakemake(tmp_path / "work", configfile=configfile)
    expected = json.loads(
        (tmp_path / "work" / "results" / "eval" / "bm25" / "cranfield" / "metrics.json").read_text()
    )
    ours = api.evaluate_sparse_model(model, collection, shard_size=700)
    assert ours == expected
    # the dictionaries of the usual loaders give the same numbers
    corpus = {}
    for line in (collection / "corpus.jsonl").read_text().splitlines():
        doc = json.loads(line)
        corpus[doc["_id"]] = {"title": doc["title"], "text": doc["text"]}
    queries = {
        json.loads(line)["_id"]: json.loads(line)["text"]
        for line in (collection / "queries.jsonl").read_text().splitlines()
    }
    qrels: dict = {}
    for line in (collection / "qrels" / "test.tsv").read_text().splitlines()[1:]:
        q, d, g = line.split("\t")
        qrels.setdefault(q, {})[d] = int(g)
    assert (
        api.evaluate_sparse_model(model, corpus, queries, qrels)["nDCG@10"] == expected["nDCG@10"]
    )


def test_notebook_functions_agree_with_the_stages(tmp_path):
    documents, queries = api.make_model_encoders({"kind": "bm25"})
    texts = [f"{title} {text}".strip() for _, title, text in TINY_DOCS]
    doc_ids = [d for d, _, _ in TINY_DOCS]
    counts = api.encode_corpus_batched(texts, documents, batch_size=3)
    assert counts.matrix.shape[0] == len(texts)
    assert (api.encode_to_csr(texts, documents).matrix != counts.matrix).nnz == 0
    idf = api.compute_idf(counts, "lucene")
    from sparsebench.encode.schemes import bm25_document_weights

    weights = api.LabelledCSR(bm25_document_weights(counts.matrix, 0.9, 0.4), counts.terms)
    results = api.retrieve_all_queries(dict(TINY_QUERIES), weights, doc_ids, queries, idf, k=3)
    assert results["q1"][0][0] == "d1" and len(results["q1"]) <= 3
    folder = api.save_encoded_corpus(tmp_path / "enc", weights, doc_ids)
    loaded, loaded_ids = api.load_encoded_corpus(folder)
    assert loaded_ids == doc_ids and (loaded.matrix != weights.matrix).nnz == 0
    single = api.retrieve_top_k(
        _query_vector(queries, "tides", weights), weights.matrix, idf, doc_ids, k=2
    )
    assert [d for d, _ in single] == [
        d
        for d, _ in api.retrieve_all_queries({"x": "tides"}, weights, doc_ids, queries, idf, k=2)[
            "x"
        ]
    ]
    judged: dict = {}
    for q, d, g in TINY_QRELS:
        judged.setdefault(q, {})[d] = g
    per_query = api.evaluate_retrieval_per_query(results, judged, metrics=["MRR"])
    assert per_query["q1"]["MRR"] == 1.0


def _query_vector(encoder, text, corpus):
    from sparsebench.encode.sparse import align_columns

    encoded = encoder.encode([text])
    return align_columns(encoded.matrix, encoded.terms, corpus.terms)


def test_paired_significance_front(tmp_path):
    rng = np.random.default_rng(1)
    base = {f"q{i}": float(v) for i, v in enumerate(rng.random(50))}
    model = {q: v + 0.05 + rng.normal(0, 0.05) for q, v in base.items()}
    result = api.paired_significance(model, base, resamples=500)
    keys = sorted(base)
    expected = stats.ttest_rel([model[q] for q in keys], [base[q] for q in keys]).pvalue
    assert result["t-test"].p == pytest.approx(expected)
    assert set(result) == {"t-test", "wilcoxon", "sign", "bootstrap", "randomization"}


def test_run_file_of_run_pair_is_the_workflow_format(tmp_path, tiny_collection):
    out = api.run_pair(
        {"source": "local", "path": str(tiny_collection)}, {"kind": "bm25"}, tmp_path, shard_size=3
    )
    run = read_run(out.run)
    assert set(run["query_id"]) == {"q1", "q2", "q3", "q4"}


def test_search_settings_change_how_a_pair_is_searched_not_its_run(tmp_path, tiny_collection):
    """One SearchSettings says how run_pair (and evaluate_sparse_model, retrieve_batch)
    searches; the run is the same bytes whatever it says."""
    dataset = {"source": "local", "path": str(tiny_collection)}
    plain = api.run_pair(dataset, {"kind": "bm25"}, tmp_path / "plain", shard_size=3)
    search = api.SearchSettings(query_batch_size=1, max_block_mb=1, threads=2, strategy="maxscore")
    other = api.run_pair(dataset, {"kind": "bm25"}, tmp_path / "other", shard_size=3, search=search)
    assert other.run.read_bytes() == plain.run.read_bytes()
    with pytest.raises(ConfigError, match="on the CPU"):
        api.retrieve_batch(np.eye(2), np.eye(2), np.ones(2), ["a", "b"], ["q", "r"],
                           search=api.SearchSettings(backend="torch"))  # fmt: skip


def test_query_ids_that_look_missing_stay_ids(tmp_path):
    """Query ids `NA`, `null` and `nan` are ids, in the per-query values as everywhere."""
    corpus = {"d1": {"text": "solar panels"}, "d2": {"text": "wind turbines"}}
    queries = {"NA": "solar", "null": "wind", "nan": "turbines"}
    qrels = {"NA": {"d1": 1}, "null": {"d2": 1}, "nan": {"d2": 1}}
    found = api.evaluate_sparse_model(
        {"kind": "bm25"}, corpus, queries, qrels, per_query=True, work_dir=tmp_path
    )
    assert sorted(found["per_query"]) == ["NA", "nan", "null"]
    assert found["means"]["nDCG@10"] == 1.0
