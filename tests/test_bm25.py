"""BM25 end to end on real collections: scores equal bm25s, metrics equal trec_eval,
and SciFact lands on the published Lucene figure."""

from __future__ import annotations

import bm25s
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import scipy.sparse as sp
from conftest import run_stages, shared_path
from test_metrics import trec_eval

from sparsebench.analysis import Analyzer
from sparsebench.fileio import read_json, read_lines
from sparsebench.prepare import read_qrels
from sparsebench.runfile import read_run
from sparsebench.weighting import bm25_document_weights, idf


@pytest.fixture(scope="module")
def cranfield_run(tmp_path_factory):
    # cranfield: graded qrels (0-4), two empty documents; several shards
    return run_stages(
        shared_path("data", "cranfield"), tmp_path_factory.mktemp("cran"), shard_size=400
    )


def test_scores_equal_bm25s_fed_the_same_tokens(cranfield_run):
    analyzer = Analyzer()
    corpus = pq.read_table(cranfield_run / "data" / "corpus.parquet").to_pandas()
    queries = pq.read_table(cranfield_run / "data" / "queries.parquet").to_pandas()
    reference = bm25s.BM25(method="lucene", k1=0.9, b=0.4)
    reference.index([analyzer.analyze(t) for t in corpus["text"]], show_progress=False)
    position = {d: i for i, d in enumerate(corpus["doc_id"])}
    run = read_run(cranfield_run / "run.trec")
    text = dict(zip(queries["query_id"], queries["text"], strict=True))
    for query_id, rows in run.groupby("query_id"):
        tokens = [t for t in analyzer.analyze(text[query_id]) if t in reference.vocab_dict]
        expected = reference.get_scores(tokens)
        ours = rows["score"].to_numpy()
        np.testing.assert_allclose(
            ours, expected[[position[d] for d in rows["doc_id"]]], rtol=1e-5, atol=1e-6
        )
        # the run holds the k best documents bm25s finds (all matching ones here)
        best = np.sort(expected[expected > 0])[::-1][: len(rows)]
        np.testing.assert_allclose(np.sort(ours)[::-1], best, rtol=1e-5, atol=1e-6)


def test_metrics_files_equal_trec_eval(cranfield_run):
    run = read_run(cranfield_run / "run.trec")
    qrels = read_qrels(shared_path("data", "cranfield", "qrels", "test.tsv"))
    reference = trec_eval(run, qrels)
    per_query = pd.read_csv(cranfield_run / "per_query.tsv", sep="\t", dtype={"query_id": str})
    per_query = per_query.pivot(index="query_id", columns="metric", values="value")
    for ours, theirs in [("nDCG@10", "ndcg_cut_10"), ("MAP", "map"), ("MRR", "recip_rank")]:
        expected = reference[theirs].reindex(per_query.index).to_numpy(float)
        np.testing.assert_allclose(per_query[ours].to_numpy(), expected, atol=1e-9)
    means = read_json(cranfield_run / "metrics.json")
    assert means["nDCG@10"] == pytest.approx(reference["ndcg_cut_10"].mean(), abs=1e-9)


def test_run_file_is_sorted_with_real_ranks(cranfield_run):
    run = read_run(cranfield_run / "run.trec")
    for _, rows in run.groupby("query_id", sort=False):
        assert list(rows["rank"]) == list(range(1, len(rows) + 1))
        scores = rows["score"].to_numpy(np.float32)
        assert np.all(np.diff(scores) <= 0)
        tied = scores[1:] == scores[:-1]
        docs = rows["doc_id"].to_numpy()
        assert all(docs[i] > docs[i + 1] for i in np.nonzero(tied)[0])


def test_document_weights_by_hand():
    counts = sp.csr_matrix(np.array([[2, 0, 1], [0, 1, 0], [1, 1, 1]], dtype=np.float32))
    k1, b = 1.2, 0.75
    lengths = np.array([3, 1, 3.0])
    avg = lengths.mean()
    weights = bm25_document_weights(counts, k1, b).toarray()
    expected = 2 / (2 + k1 * (1 - b + b * 3 / avg))
    assert weights[0, 0] == pytest.approx(expected, rel=1e-6)
    assert bm25_document_weights(counts, k1, b, k1_plus_one=True)[0, 0] == pytest.approx(
        expected * (k1 + 1), rel=1e-6
    )
    df = np.array([2, 2, 1])
    assert idf(df, 3, "lucene") == pytest.approx(np.log(1 + (3 - df + 0.5) / (df + 0.5)))
    assert idf(df, 3, "classic") == pytest.approx(np.log2(3 / df))
    assert idf(np.array([0]), 3, "classic")[0] == 0
    assert idf(df, 3, "robertson") == pytest.approx([0, 0, np.log(2.5 / 1.5)])
    assert np.all(idf(df, 3, "none") == 1)


def test_scifact_matches_the_published_lucene_figure(tmp_path):
    out = run_stages(shared_path("data", "beir-scifact"), tmp_path, shard_size=2000)
    ndcg = read_json(out / "metrics.json")["nDCG@10"]
    assert ndcg == pytest.approx(0.6789, abs=0.005)  # Anserini BM25 flat, BEIR SciFact
    # only the 300 judged queries of the 1,109 are encoded
    assert len(read_lines(out / "query_ids.txt")) == 300


def test_torch_backend_writes_the_same_run(cranfield_run, tmp_path):
    pytest.importorskip("torch")
    from sparsebench import stages

    out = cranfield_run

    def run_to(name: str, **speed) -> None:
        stages.retrieve_run(
            *(out / f for f in ("weights.npz", "idf.npy", "queries.npz", "query_ids.txt")),
            out / "doc_ids.txt",
            tmp_path / name,
            k=1000,
            tag="m",
            **speed,
        )

    run_to("torch.trec", backend="torch", device="cpu", max_block_mb=8)
    run_to("threads.trec", backend="scipy", threads=2, query_batch_size=16)
    reference = (out / "run.trec").read_bytes()
    assert (tmp_path / "threads.trec").read_bytes() == reference
    assert (tmp_path / "torch.trec").read_bytes() == reference
