"""Query likelihood with Dirichlet smoothing (kind qld) and Jelinek-Mercer smoothing
(kind qljm): every score of a real run equals Lucene's LMDirichletSimilarity or
LMJelinekMercerSimilarity computed term by term here, from the analyzed texts."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pyarrow.parquet as pq
import pytest
from conftest import run_stages, shared_path

from sparsebench.analysis.analyzer import Analyzer
from sparsebench.data.corpusfile import read_corpus
from sparsebench.encode.statistics import lucene_stored_lengths
from sparsebench.runs.runfile import read_run


def lucene_qld(query: list[str], document: Counter, length: float, cf: Counter, total: int, mu):
    """LMDirichletSimilarity.score summed over the query's terms (boost: a term's count);
    p_t = (cf + 1f) / (total + 1f) in float arithmetic, as DefaultCollectionModel computes it."""
    score = 0.0
    for term, count in Counter(query).items():
        if document[term] == 0:
            continue
        one = np.float32(1)
        p = float((np.float32(cf[term]) + one) / (np.float32(total) + one))  # float / float
        weight = math.log(1 + document[term] / (mu * p)) + math.log(mu / (length + mu))
        score += count * float(np.float32(max(weight, 0.0)))
    return score


def lucene_qljm(query: list[str], document: Counter, length: float, cf: Counter, total: int, lam):
    """LMJelinekMercerSimilarity.score summed over the query's terms (boost: a term's
    count): Math.log(1 + ((1 - lambda) * freq / docLen) / (lambda * p_t)), lambda a Java
    float (so 1 - lambda is float arithmetic), p_t as for Dirichlet smoothing."""
    score = 0.0
    lam = np.float32(lam)
    for term, count in Counter(query).items():
        if document[term] == 0:
            continue
        one = np.float32(1)
        p = float((np.float32(cf[term]) + one) / (np.float32(total) + one))  # float / float
        weight = math.log(1 + (float(one - lam) * document[term] / length) / (float(lam) * p))
        score += count * float(np.float32(weight))
    return score


def analyzed_collection(files, statistics):
    """The collection's analyzed documents, cf, total length, dl and queries."""
    analyzer = Analyzer()
    corpus = read_corpus(files.corpus / "corpus.parquet").to_pandas()
    documents = {
        d: Counter(analyzer.analyze(t))
        for d, t in zip(corpus["doc_id"], corpus["text"], strict=True)
    }
    cf = sum(documents.values(), Counter())
    total = sum(cf.values())
    exact = {d: float(sum(c.values())) for d, c in documents.items()}
    if statistics == "lucene":
        stored = lucene_stored_lengths(np.array(list(exact.values())))
        lengths = dict(zip(exact, stored.astype(float), strict=True))
    else:
        lengths = exact
    queries = pq.read_table(files.dataset / "queries.parquet").to_pandas()
    text = dict(zip(queries["query_id"], queries["text"], strict=True))
    return analyzer, documents, cf, total, lengths, text


@pytest.mark.parametrize("statistics", ["exact", "lucene"])
def test_scores_equal_lucenes_dirichlet_similarity(tmp_path, statistics):
    collection = shared_path("data", "adi")
    files = run_stages(collection, tmp_path, {"kind": "qld", "statistics": statistics}, 30)
    analyzer, documents, cf, total, lengths, text = analyzed_collection(files, statistics)
    run = read_run(files.run)
    assert run["query_id"].nunique() == 35
    for query_id, rows in run.groupby("query_id"):
        query = analyzer.analyze(text[query_id])
        expected = [
            lucene_qld(query, documents[d], lengths[d], cf, total, 1000.0) for d in rows["doc_id"]
        ]
        np.testing.assert_allclose(rows["score"].to_numpy(), expected, rtol=1e-6)
    # every document with a positive score is retrieved (k = 1000 > 82 documents)
    query_id = run["query_id"].iloc[0]
    query = analyzer.analyze(text[query_id])
    positive = {d for d in documents if lucene_qld(query, documents[d], lengths[d], cf, total, 1e3)}
    assert positive == set(run.loc[run["query_id"] == query_id, "doc_id"])


@pytest.mark.parametrize(("statistics", "lam"), [("exact", 0.1), ("lucene", 0.7)])
def test_scores_equal_lucenes_jelinek_mercer_similarity(tmp_path, statistics, lam):
    collection = shared_path("data", "adi")
    model = {"kind": "qljm", "lambda": lam, "statistics": statistics}
    files = run_stages(collection, tmp_path, model, 30)
    analyzer, documents, cf, total, lengths, text = analyzed_collection(files, statistics)
    run = read_run(files.run)
    assert run["query_id"].nunique() == 35
    for query_id, rows in run.groupby("query_id"):
        query = analyzer.analyze(text[query_id])
        expected = [
            lucene_qljm(query, documents[d], lengths[d], cf, total, lam) for d in rows["doc_id"]
        ]
        np.testing.assert_allclose(rows["score"].to_numpy(), expected, rtol=1e-6)
    # every document that shares a term with the query is retrieved, and no other
    query_id = run["query_id"].iloc[0]
    query = set(analyzer.analyze(text[query_id]))
    matching = {d for d, terms in documents.items() if query & set(terms)}
    assert matching == set(run.loc[run["query_id"] == query_id, "doc_id"])
