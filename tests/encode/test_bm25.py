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
from support.samefiles import assert_same_files
from support.trec_eval_reference import trec_eval

from sparsebench.analysis.analyzer import Analyzer
from sparsebench.core.csrfiles import load_csr
from sparsebench.core.errors import ConfigError
from sparsebench.core.fileio import read_json, read_lines
from sparsebench.data.corpusfile import read_corpus
from sparsebench.data.qrels import read_qrels
from sparsebench.encode.idf import idf
from sparsebench.encode.schemes import bm25_document_weights
from sparsebench.encode.statistics import (
    document_count,
    document_frequencies,
    document_lengths,
    lucene_stored_lengths,
)
from sparsebench.runs.runfile import read_run
from sparsebench.search.settings import SearchSettings


@pytest.fixture(scope="module")
def cranfield_run(tmp_path_factory):
    # cranfield: graded qrels (0-4), two empty documents; several shards
    return run_stages(
        shared_path("data", "cranfield"), tmp_path_factory.mktemp("cran"), shard_size=400
    )


def test_scores_equal_bm25s_fed_the_same_tokens(cranfield_run):
    analyzer = Analyzer()
    corpus = read_corpus(cranfield_run.corpus / "corpus.parquet").to_pandas()
    queries = pq.read_table(cranfield_run.dataset / "queries.parquet").to_pandas()
    reference = bm25s.BM25(method="lucene", k1=0.9, b=0.4)
    reference.index([analyzer.analyze(t) for t in corpus["text"]], show_progress=False)
    position = {d: i for i, d in enumerate(corpus["doc_id"])}
    run = read_run(cranfield_run.run)
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
    run = read_run(cranfield_run.run)
    qrels = read_qrels(shared_path("data", "cranfield", "qrels", "test.tsv"))
    reference = trec_eval(run, qrels)
    per_query = pd.read_csv(cranfield_run.per_query, sep="\t", dtype={"query_id": str})
    per_query = per_query.pivot(index="query_id", columns="metric", values="value")
    for ours, theirs in [("nDCG@10", "ndcg_cut_10"), ("MAP", "map"), ("MRR", "recip_rank")]:
        expected = reference[theirs].reindex(per_query.index).to_numpy(float)
        np.testing.assert_allclose(per_query[ours].to_numpy(), expected, atol=1e-9)
    means = read_json(cranfield_run.metrics)
    assert means["nDCG@10"] == pytest.approx(reference["ndcg_cut_10"].mean(), abs=1e-9)


def test_run_file_is_sorted_with_real_ranks(cranfield_run):
    run = read_run(cranfield_run.run)
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


def smallfloat_length(length: int) -> int:
    """Lucene's SmallFloat.intToByte4 then byte4ToInt, transcribed line by line from Java."""

    def long_to_int4(i: int) -> int:
        num_bits = i.bit_length()
        if num_bits < 4:
            return i
        shift = num_bits - 4
        return ((i >> shift) & 0x07) | ((shift + 1) << 3)

    def int4_to_long(i: int) -> int:
        bits, shift = i & 0x07, (i >> 3) - 1
        return bits if shift == -1 else (bits | 0x08) << shift

    free = 255 - long_to_int4(2**31 - 1)
    byte = length if length < free else free + long_to_int4(length - free)
    return byte if byte < free else min(free + int4_to_long(byte - free), 2**31 - 1)


def test_lucene_stored_lengths_equal_smallfloat():
    lengths = np.concatenate([np.arange(5000), [10**5, 123_456, 10**6, 2**31 - 1]])
    expected = [smallfloat_length(int(n)) for n in lengths]
    assert lucene_stored_lengths(lengths).tolist() == expected
    assert lucene_stored_lengths(np.array([23, 24, 25, 100, 1000])).tolist() == [
        23, 24, 25, 96, 984
    ]  # fmt: skip
    with pytest.raises(ValueError, match="non-negative"):
        lucene_stored_lengths(np.array([-1]))


def test_lucene_statistics_by_hand():
    # an empty document, a short one and one of 100 tokens (stored as 96)
    counts = sp.csr_matrix(np.array([[0, 0], [1, 2], [40, 60]], dtype=np.float32))
    k1, b = 0.9, 0.4
    average = (0 + 3 + 100) / 2  # over the two documents with a term
    weights = bm25_document_weights(counts, k1, b, statistics="lucene").toarray()
    assert weights[1, 1] == pytest.approx(2 / (2 + k1 * (1 - b + b * 3 / average)), rel=1e-6)
    assert weights[2, 0] == pytest.approx(40 / (40 + k1 * (1 - b + b * 96 / average)), rel=1e-6)
    exact = bm25_document_weights(counts, k1, b).toarray()
    assert exact[2, 0] == pytest.approx(40 / (40 + k1 * (1 - b + b * 100 / (103 / 3))), rel=1e-6)
    lengths = document_lengths(counts)
    assert (document_count(lengths, "lucene"), document_count(lengths, "exact")) == (2, 3)
    with pytest.raises(ConfigError, match="unknown collection statistics 'anserini'"):
        document_count(lengths, "anserini")


def test_lucene_statistics_count_only_documents_with_a_term(tmp_path):
    # cranfield has two empty documents: Lucene's docCount leaves them out of N
    model = {"kind": "bm25", "statistics": "lucene"}
    out = run_stages(shared_path("data", "cranfield"), tmp_path, model, shard_size=400)
    stats = read_json(out.weights / "term_stats.json")
    assert stats["n_docs"] == 1398
    assert stats["statistics"] == "lucene"
    corpus = load_csr(out.encoded / "corpus.npz")
    expected = idf(document_frequencies(corpus), 1398, "lucene")
    assert np.load(out.weights / "idf.npy") == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("statistics", "within"), [("exact", 0.005), ("lucene", 0.0005)])
def test_scifact_matches_the_published_lucene_figure(tmp_path, statistics, within):
    model = {"kind": "bm25", "statistics": statistics}
    out = run_stages(shared_path("data", "beir-scifact"), tmp_path, model, shard_size=2000)
    ndcg = read_json(out.metrics)["nDCG@10"]
    # Anserini BM25 flat on BEIR SciFact; Lucene's own statistics land within Pyserini's
    # "OK" tolerance of it
    assert ndcg == pytest.approx(0.6789, abs=within)
    # only the 300 judged queries of the 1,109 are encoded
    assert len(read_lines(out.queries / "query_ids.txt")) == 300


def test_torch_backend_writes_the_same_run(cranfield_run, tmp_path):
    pytest.importorskip("torch")
    from sparsebench.retrieve import stages

    out = cranfield_run

    def run_to(name: str, search: SearchSettings) -> None:
        stages.retrieve_run(
            out.weights / "postings.npz",
            out.weights / "idf.npy",
            out.queries / "queries.npz",
            out.queries / "query_ids.txt",
            out.encoded / "doc_ids.txt",
            tmp_path / name,
            k=1000,
            tag="m",
            search=search,
        )

    run_to("torch.trec", SearchSettings(backend="torch", device="cpu", max_block_mb=8))
    run_to("threads.trec", SearchSettings(backend="scipy", threads=2, query_batch_size=16))
    assert_same_files(tmp_path / "threads.trec", out.run)
    assert_same_files(tmp_path / "torch.trec", out.run)
