"""One run file whatever the order of summation.

A float32 sum of many products depends on the order in which a library adds them
(scipy, MKL, AVX-512 kernels and CUDA all pick their own), and near-ties then swap. The
scores are defined so that no order changes them (sparsebench.search.exactscores); these tests
score the same queries and corpus with the terms of each query in reversed and shuffled
order, the vocabulary renumbered, documents in another order, other batch sizes, 1 and 2
threads, the corpus split into other shard sizes and the torch backend, and ask for one
byte-identical run, on a SPLADE-like synthetic corpus (30-term queries, where float32
order matters most), on cranfield and on BEIR SciFact. The scores themselves are checked
against math.fsum of the products, computed here pair by pair.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import run_stages, shared_path
from support.samefiles import assert_same_bytes, assert_same_files

from sparsebench.core.csrfiles import load_csr, save_csr
from sparsebench.retrieve import stages
from sparsebench.runs.runfile import RunLines
from sparsebench.search.exactscores import error_factors, settle
from sparsebench.search.postings import load_postings
from sparsebench.search.postings_build import save_postings
from sparsebench.search.scipy_backend import retrieve
from sparsebench.search.settings import SearchSettings


def splade_like(seed: int, n_docs: int, n_queries: int, vocabulary: int = 2000):
    """Documents of ~150 and queries of ~30 weighted terms, Zipfian term ids, float32
    weights with all their bits used (so float32 sums round at nearly every addition)."""
    rng = np.random.default_rng(seed)

    def matrix(rows: int, terms: int) -> sp.csr_matrix:
        counts = np.maximum(rng.poisson(terms, rows), 1)
        row = np.repeat(np.arange(rows), counts)
        ranks = np.floor(np.exp(rng.random(counts.sum()) * np.log(vocabulary))).astype(int) - 1
        data = rng.gamma(1.5, 0.6, len(row)).astype(np.float32)
        out = sp.csr_matrix((data, (row, np.minimum(ranks, vocabulary - 1))), (rows, vocabulary))
        out.sum_duplicates()
        return sp.csr_matrix(out, dtype=np.float32)

    docs, queries = matrix(n_docs, 150), matrix(n_queries, 30)
    idf = rng.uniform(0.5, 3.0, vocabulary)
    doc_ids = np.array([f"d{i}" for i in rng.permutation(n_docs)], dtype=object)
    query_ids = np.array([f"q{i:03d}" for i in range(n_queries)], dtype=object)
    return docs, queries, idf, doc_ids, query_ids


def reorder_rows(matrix: sp.csr_matrix, how: str, seed: int = 0) -> sp.csr_matrix:
    """The same matrix with the stored terms of each row in another order (unsorted CSR:
    scipy's product then adds the query's terms in that order)."""
    rng = np.random.default_rng(seed)
    order = np.arange(matrix.nnz)
    for row in range(matrix.shape[0]):
        lo, hi = matrix.indptr[row], matrix.indptr[row + 1]
        order[lo:hi] = order[lo:hi][::-1] if how == "reversed" else rng.permutation(order[lo:hi])
    out = sp.csr_matrix(
        (matrix.data[order], matrix.indices[order], matrix.indptr.copy()), shape=matrix.shape
    )
    out.has_sorted_indices = False
    return out


def run_bytes(batches, doc_ids, query_ids) -> bytes:
    lines = RunLines(query_ids, doc_ids, "m")
    return b"".join(lines.retrieved(start, batch) for start, batch in batches)


def variants(docs, queries, idf, doc_ids, query_ids, k):
    """(name, run bytes) of one problem scored in every order and on every backend."""
    common = {"k": k, "doc_ids": doc_ids, "query_ids": query_ids}

    def scipy_run(q=queries, d=docs, ids=doc_ids, weights=idf, **options):
        batches = retrieve(q, sp.csr_matrix(d.T), weights, k, ids, query_ids, **options)
        return run_bytes(batches, ids, query_ids)

    yield "scipy", scipy_run()
    yield "2 threads, batches of 7", scipy_run(threads=2, query_batch_size=7)
    yield "batches of 1", scipy_run(query_batch_size=1)
    yield "query terms reversed", scipy_run(q=reorder_rows(queries, "reversed"))
    yield "query terms shuffled", scipy_run(q=reorder_rows(queries, "shuffled", 1))
    renumber = np.random.default_rng(2).permutation(docs.shape[1])
    yield (
        "vocabulary renumbered",
        scipy_run(q=queries[:, renumber], d=docs[:, renumber], weights=idf[renumber]),
    )
    shuffled = np.random.default_rng(3).permutation(docs.shape[0])
    yield "documents in another order", scipy_run(d=docs[shuffled], ids=doc_ids[shuffled])
    torch = pytest.importorskip("torch")
    from sparsebench.search.torch_backend import retrieve_torch

    for threads in (1, 2):
        torch.set_num_threads(threads)
        for budget in (64, 0.05):
            batches = retrieve_torch(
                reorder_rows(queries, "reversed"),
                sp.csr_matrix(docs.T),
                idf,
                max_block_mb=budget,
                query_batch_size=16,
                device="cpu",
                **common,
            )
            yield f"torch, {threads} threads, {budget} MiB", run_bytes(batches, doc_ids, query_ids)


def test_cuda_backend_writes_the_same_run():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    from sparsebench.search.torch_backend import retrieve_torch  # pragma: no cover - GPU only

    docs, queries, idf, doc_ids, query_ids = splade_like(6, n_docs=3000, n_queries=64)
    postings = sp.csr_matrix(docs.T)
    reference = run_bytes(
        retrieve(queries, postings, idf, 100, doc_ids, query_ids), doc_ids, query_ids
    )
    for budget in (256, 0.5):
        batches = retrieve_torch(
            queries, postings, idf, 100, doc_ids, query_ids, max_block_mb=budget, device="cuda"
        )
        assert_same_bytes(run_bytes(batches, doc_ids, query_ids), reference, f"cuda, {budget} MiB")


def exact_scores(docs, queries, idf) -> np.ndarray:
    """Every (query, document) score by the definition: math.fsum of the float64 products
    of float32(query weight x IDF) and the document weight, rounded to float32."""
    weighted = sp.csr_matrix(queries.multiply(idf.astype(np.float32)[None, :]), dtype=np.float32)
    dense_docs = docs.toarray()
    scores = np.zeros((queries.shape[0], docs.shape[0]), np.float32)
    for q in range(queries.shape[0]):
        terms = weighted.indices[weighted.indptr[q] : weighted.indptr[q + 1]]
        weights = weighted.data[weighted.indptr[q] : weighted.indptr[q + 1]].astype(np.float64)
        products = dense_docs[:, terms].astype(np.float64) * weights[None, :]
        scores[q] = [math.fsum(row) for row in products]
    return scores


def test_synthetic_splade_scores_equal_the_exact_sums():
    docs, queries, idf, doc_ids, query_ids = splade_like(0, n_docs=600, n_queries=40)
    expected = exact_scores(docs, queries, idf)
    for start, batch in retrieve(
        queries, sp.csr_matrix(docs.T), idf, 50, doc_ids, query_ids, query_batch_size=9
    ):
        rows = start + batch.query_rows
        assert np.array_equal(batch.scores, expected[rows, batch.doc_rows])
        for row in np.unique(rows):  # the top 50 by (score, doc id), descending
            ranked = sorted(
                ((expected[row, d], doc_ids[d]) for d in np.flatnonzero(expected[row])),
                reverse=True,
            )[:50]
            got = [(s, doc_ids[d]) for s, d in zip(batch.scores, batch.doc_rows, strict=True)]
            assert [g for g, r in zip(got, rows, strict=True) if r == row] == ranked


def test_float32_order_would_change_this_corpus():
    """The problem is a real one: float32 sums in two orders disagree on it."""
    docs, queries, idf, _, _ = splade_like(1, n_docs=2000, n_queries=100)
    weighted = sp.csr_matrix(queries.multiply(idf.astype(np.float32)[None, :]), dtype=np.float32)
    forward = (weighted @ sp.csr_matrix(docs.T)).toarray()
    backward = (reorder_rows(weighted, "reversed") @ sp.csr_matrix(docs.T)).toarray()
    assert (forward != backward).sum() > 100


@pytest.mark.parametrize("k", [10, 1000])
def test_synthetic_splade_run_is_one_file_in_every_order(k):
    docs, queries, idf, doc_ids, query_ids = splade_like(1, n_docs=2000, n_queries=100)
    runs = iter(variants(docs, queries, idf, doc_ids, query_ids, k))
    _, reference = next(runs)
    assert reference.count(b"\n") >= 100 * min(k, 500)
    for name, run in runs:
        assert_same_bytes(run, reference, name)


def test_signed_weights_are_settled_by_their_magnitudes():
    """A model with negative weights: the error bound comes from sum |q_t d_t|, and near
    cancellations still give the exact score in every order."""
    docs, queries, idf, doc_ids, query_ids = splade_like(4, n_docs=500, n_queries=30)
    rng = np.random.default_rng(5)
    docs.data *= rng.choice(np.float32([-1, 1]), docs.nnz)
    expected = exact_scores(docs, queries, idf)
    runs = iter(variants(docs, queries, idf, doc_ids, query_ids, 40))
    _, reference = next(runs)
    for name, run in runs:
        assert_same_bytes(run, reference, name)
    for start, batch in retrieve(queries, sp.csr_matrix(docs.T), idf, 40, doc_ids, query_ids):
        assert np.array_equal(batch.scores, expected[start + batch.query_rows, batch.doc_rows])
        assert (batch.scores != 0).all()


def test_an_unsettled_sum_is_recomputed_exactly():
    """A float64 sum that sits on a float32 rounding boundary within its error bound is
    decided by the exact sum, not by the order the backend happened to use."""
    midpoint = float(np.float32(1.0)) + 2.0**-24  # halfway between 1 and the next float32
    sums = np.array([midpoint, midpoint - 2.0**-50, 3.0])
    widths = np.array([2.0**-48, 2.0**-48, 2.0**-48])
    asked = []

    def exact(rows, cols):
        asked.append(list(rows))
        return np.array([midpoint + 2.0**-40, midpoint - 2.0**-40])[: len(rows)]

    scores = settle(sums, widths, np.arange(3), np.arange(3), exact)
    assert asked == [[0, 1]]  # only the two sums the width leaves open
    assert scores.tolist() == [np.nextafter(np.float32(1), np.float32(2)), 1.0, 3.0]
    assert error_factors(sp.csr_matrix(np.ones((2, 3)) * [[1, 0, 0], [1, 1, 1]])).tolist() == [
        0.0,
        5 * 2.0**-52,
    ]


def test_a_sum_whose_float64_rounding_depends_on_order_is_settled_exactly(monkeypatch):
    """Products 1, 2^-24, 2^-53, 2^-53: added in this order, float64 rounds twice to 1 +
    2^-24, halfway between two float32s (so float32 1.0, ties to even); added in reverse,
    it holds 1 + 2^-24 + 2^-52 exactly (float32 1 + 2^-23). The error bound sees that the
    order can decide, and the exact sum settles it: one score, whatever the order."""
    weights = np.float32([1.0, 2.0**-24, 2.0**-53, 2.0**-53])
    docs = sp.csr_matrix(np.vstack([weights, np.float32([1, 0, 0, 0])]))
    queries = sp.csr_matrix(np.ones((1, 4), np.float32))
    forward = ((1.0 + 2.0**-24) + 2.0**-53) + 2.0**-53
    backward = 1.0 + (2.0**-24 + (2.0**-53 + 2.0**-53))
    assert np.float32(forward) != np.float32(backward)  # naive rounding depends on order
    exact = np.float32(1.0 + 2.0**-23)
    settled = []
    import sparsebench.search.exactscores as module

    def counted(*args, **kwargs):
        settled.append(len(args[2]))
        return module.exact_pair_sums(*args, **kwargs)

    monkeypatch.setattr("sparsebench.search.scipy_backend.exact_pair_sums", counted)
    monkeypatch.setattr("sparsebench.search.torch_backend.exact_pair_sums", counted, raising=False)
    ids, query_ids = np.array(["a", "b"], dtype=object), np.array(["q"], dtype=object)
    for name, run in variants(docs, queries, np.ones(4), ids, query_ids, 2):
        assert run.split(b"\n")[0] == f"q Q0 a 1 {exact:.9g} m".encode(), name
    assert settled and all(count == 1 for count in settled)  # only the one open sum


@pytest.fixture(scope="module", params=["cranfield", "beir-scifact"])
def collection_run(request, tmp_path_factory):
    name = request.param
    folder = shared_path("data", name)
    out = run_stages(folder, tmp_path_factory.mktemp(name), shard_size=400)
    return name, folder, out


def test_real_collections_give_one_run_in_every_order(collection_run, tmp_path):
    """The stages' run against: other shard sizes, query terms reversed, the vocabulary
    renumbered, threads and small batches, and the torch backend."""
    name, folder, out = collection_run
    reference = out.run
    other_shards = run_stages(folder, tmp_path / "shards", shard_size=1500)
    assert_same_files(other_shards.run, reference)

    save_csr(
        tmp_path / "reversed.npz", reorder_rows(load_csr(out.queries / "queries.npz"), "reversed")
    )
    documents = load_postings(out.weights / "postings.npz").documents()
    renumber = np.random.default_rng(0).permutation(documents.shape[1])
    save_postings(tmp_path / "renumbered_postings.npz", documents[:, renumber])
    save_csr(tmp_path / "renumbered.npz", load_csr(out.queries / "queries.npz")[:, renumber])
    np.save(tmp_path / "renumbered_idf.npy", np.load(out.weights / "idf.npy")[renumber])
    settings = {
        "scipy, query terms reversed": {"queries": tmp_path / "reversed.npz"},
        "scipy, vocabulary renumbered": {
            "postings": tmp_path / "renumbered_postings.npz",
            "queries": tmp_path / "renumbered.npz",
            "idf": tmp_path / "renumbered_idf.npy",
        },
        "scipy, 2 threads": {"search": SearchSettings(threads=2, query_batch_size=16)},
        "torch, query terms reversed": {
            "queries": tmp_path / "reversed.npz",
            "search": SearchSettings(backend="torch", device="cpu", max_block_mb=8),
        },
    }
    for number, (label, setting) in enumerate(settings.items()):
        if "search" in setting and setting["search"].backend == "torch":
            pytest.importorskip("torch")
        setting = dict(setting)
        run = tmp_path / f"variant{number}.trec"
        stages.retrieve_run(
            setting.pop("postings", out.weights / "postings.npz"),
            setting.pop("idf", out.weights / "idf.npy"),
            setting.pop("queries", out.queries / "queries.npz"),
            out.queries / "query_ids.txt",
            out.encoded / "doc_ids.txt",
            run,
            k=1000,
            tag="m",
            **setting,
        )
        assert_same_bytes(run.read_bytes(), reference.read_bytes(), label)
