"""Top-k retrieval against a plain sort of every score, ties and budgets included."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
import scipy.sparse as sp

from sparsebench.core.errors import DataError
from sparsebench.search import compiled_search, postings_build
from sparsebench.search import postings as postings_module
from sparsebench.search.docids import tie_break_keys
from sparsebench.search.products import batch_rows
from sparsebench.search.scipy_backend import retrieve
from sparsebench.search.topk import CandidatePool


def random_problem(seed: int, n_docs=400, n_queries=30, vocab=50):
    rng = np.random.default_rng(seed)
    # small integer weights: many exactly tied scores
    docs = sp.random(
        n_docs,
        vocab,
        density=0.08,
        random_state=rng,
        format="csr",
        data_rvs=lambda n: rng.integers(1, 4, n),
    ).astype(np.float32)
    queries = sp.random(
        n_queries,
        vocab,
        density=0.1,
        random_state=rng,
        format="csr",
        data_rvs=lambda n: rng.integers(1, 3, n),
    ).astype(np.float32)
    idf = rng.integers(1, 3, vocab).astype(np.float64)
    doc_ids = np.array([f"doc{i:03d}" for i in rng.permutation(n_docs)], dtype=object)
    query_ids = np.array([f"q{i}" for i in range(n_queries)], dtype=object)
    return docs, queries, idf, doc_ids, query_ids


def reference_top_k(docs, queries, idf, doc_ids, k, skip_ids=None):
    """Score every document, keep matching ones, sort by (score desc, doc id desc)."""
    scores = (queries.multiply(idf[None, :].astype(np.float32)).tocsr() @ docs.T).toarray()
    matching = (queries @ docs.T).toarray() != 0
    result = []
    for i in range(queries.shape[0]):
        rows = [
            (float(np.float32(scores[i, j])), doc_ids[j])
            for j in np.nonzero(matching[i])[0]
            if scores[i, j] != 0 and (skip_ids is None or doc_ids[j] != skip_ids[i])
        ]
        rows.sort(key=lambda r: (r[0], r[1]), reverse=True)
        result.append(rows[:k])
    return result


def collect(docs, queries, idf, doc_ids, query_ids, k, **kwargs):
    out = [[] for _ in range(queries.shape[0])]
    names = doc_ids.to_pylist() if isinstance(doc_ids, pa.Array) else doc_ids
    postings = sp.csr_matrix(docs.T)
    for start, batch in retrieve(queries, postings, idf, k, doc_ids, query_ids, **kwargs):
        for row, doc, score, rank in zip(
            batch.query_rows, batch.doc_rows, batch.scores, batch.ranks, strict=True
        ):
            assert rank == len(out[start + row]) + 1
            out[start + row].append((float(score), names[doc]))
    return out


@pytest.mark.parametrize("k", [1, 5, 17, 1000])
@pytest.mark.parametrize("seed", [0, 1])
def test_top_k_equals_full_sort_with_tie_order(seed, k):
    docs, queries, idf, doc_ids, query_ids = random_problem(seed)
    expected = reference_top_k(docs, queries, idf, doc_ids, k)
    got = collect(docs, queries, idf, doc_ids, query_ids, k)
    assert got == expected


@pytest.mark.parametrize("strategy", ["exhaustive", "maxscore"])
def test_crowds_tied_at_the_kth_score_over_many_blocks(monkeypatch, strategy):
    """Thousands of documents share each query's k-th score, in blocks of 256 documents
    so that the tie certificates carry from block to block; some queries name a
    document of their own, excluded. Both strategies give the plain sort's lists."""
    for module in (postings_module, postings_build, compiled_search):
        monkeypatch.setattr(module, "BLOCK_DOCS", 256)
    monkeypatch.setattr("sparsebench.search.scipy_backend.BLOCK_DOCS", 256)
    docs, queries, idf, doc_ids, _ = random_problem(7, n_docs=3000, n_queries=25, vocab=40)
    docs.data[:] = 1
    idf[:] = 1
    query_ids = doc_ids[:25].copy()
    for k in (1, 10, 100):
        expected = reference_top_k(docs, queries, idf, doc_ids, k, skip_ids=query_ids)
        got = collect(
            docs,
            queries,
            idf,
            doc_ids,
            query_ids,
            k,
            strategy=strategy,
            ignore_identical_ids=True,
            query_batch_size=7,
        )
        assert got == expected, f"k={k}"


def test_a_tie_crowd_leaves_k_candidates_in_the_pool():
    """5,000 documents with the same sum: the tie certificate keeps the k of largest
    tie key (which rank first), not the crowd."""
    doc_ids = [f"d{i:05d}" for i in np.random.default_rng(0).permutation(5000)]
    keys = tie_break_keys(doc_ids)
    pool = CandidatePool(10, np.array([1e-15]), False, keys)
    sums = sp.csr_matrix(np.full((1, 5000), 3.0))
    pool.add(sums, 0)
    assert len(pool._pools[0][0]) == 10
    assert sorted(pool._pools[0][0].tolist()) == sorted(np.argsort(keys)[-10:].tolist())
    last = int(np.argmin(keys))  # ranked last among equal scores, first with a higher one
    pool.add(sp.csr_matrix(([3.5], [last], [0, 1]), shape=(1, 5000)), 0)
    assert last in pool._pools[0][0]


def test_results_do_not_depend_on_batching():
    docs, queries, idf, doc_ids, query_ids = random_problem(3)
    one = collect(docs, queries, idf, doc_ids, query_ids, 10, query_batch_size=1)
    many = collect(docs, queries, idf, doc_ids, query_ids, 10, query_batch_size=1000)
    tiny_budget = collect(docs, queries, idf, doc_ids, query_ids, 10, max_block_mb=0.01)
    threaded = collect(docs, queries, idf, doc_ids, query_ids, 10, query_batch_size=4, threads=2)
    assert one == many == tiny_budget == threaded


def test_memory_budget_bounds_the_batch():
    """A batch's sums cover one block of documents (65,536 at most), 48 bytes each."""
    assert batch_rows(block_docs=65_536, query_batch_size=256, budget_bytes=512 * 2**20) == 170
    assert batch_rows(block_docs=10, query_batch_size=256, budget_bytes=512 * 2**20) == 256
    assert batch_rows(block_docs=65_536, query_batch_size=256, budget_bytes=2**20) == 1


def test_identical_ids_are_dropped_when_asked():
    """Queries whose id is also a document's lose that document; the others lose none,
    with document ids as Python strings or as an Arrow array (as the stage reads them)."""
    docs, queries, idf, doc_ids, _ = random_problem(4)
    query_ids = doc_ids[: queries.shape[0]].copy()  # each query's id is also a document id
    query_ids[::3] = [f"query-{i}" for i in range(len(query_ids[::3]))]  # but these
    expected = reference_top_k(docs, queries, idf, doc_ids, 20, skip_ids=query_ids)
    got = collect(docs, queries, idf, doc_ids, query_ids, 20, ignore_identical_ids=True)
    assert got == expected
    arrow_ids = pa.array(doc_ids.tolist())
    assert collect(docs, queries, idf, arrow_ids, query_ids, 20, ignore_identical_ids=True) == got
    kept = collect(docs, queries, idf, doc_ids, query_ids, 20)
    assert kept != got


def test_vocabulary_mismatch_is_an_error():
    docs, queries, idf, doc_ids, query_ids = random_problem(5)
    with pytest.raises(DataError, match="vocabulary sizes differ"):
        list(retrieve(queries[:, :-1], sp.csr_matrix(docs.T), idf, 10, doc_ids, query_ids))
    with pytest.raises(DataError, match="vocabulary sizes differ"):
        list(retrieve(queries, sp.csr_matrix(docs.T), idf[:-1], 10, doc_ids, query_ids))


def test_torch_backend_agrees_with_scipy():
    pytest.importorskip("torch")
    from sparsebench.search.torch_backend import retrieve_torch

    for seed in (0, 1):
        docs, queries, idf, doc_ids, query_ids = random_problem(seed)
        expected = collect(docs, queries, idf, doc_ids, query_ids, 17)
        got = [[] for _ in range(queries.shape[0])]
        for start, batch in retrieve_torch(
            queries,
            sp.csr_matrix(docs.T),
            idf,
            17,
            doc_ids,
            query_ids,
            query_batch_size=7,
            max_block_mb=0.001,
            device="cpu",
        ):
            for row, doc, score in zip(batch.query_rows, batch.doc_rows, batch.scores, strict=True):
                got[start + row].append((float(score), doc_ids[doc]))
        assert got == expected
    self_ids = doc_ids[: queries.shape[0]].copy()
    expected = reference_top_k(docs, queries, idf, doc_ids, 20, skip_ids=self_ids)
    got = [[] for _ in range(queries.shape[0])]
    for start, batch in retrieve_torch(
        queries,
        sp.csr_matrix(docs.T),
        idf,
        20,
        doc_ids,
        self_ids,
        ignore_identical_ids=True,
        device="cpu",
    ):
        for row, doc, score in zip(batch.query_rows, batch.doc_rows, batch.scores, strict=True):
            got[start + row].append((float(score), doc_ids[doc]))
    assert got == expected
