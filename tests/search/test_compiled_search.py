"""The compiled searches, MaxScore pruning and the exhaustive block scan, write the run of
exhaustive search by sparse products (retrieve.products, the path of signed weights),
byte for byte.

On the shared collections for BM25 (exact and Lucene statistics) and tf-idf, on
synthetic SPLADE-like, statically pruned SPLADE and integer-impact corpora, on a corpus
where every score ties, at k = 1, 10, 100 and 1000, with 1 and 2 threads and small
batches, over several blocks of documents, and with a query's own document excluded.
The pruned search must also actually prune: it reads fewer postings than exhaustive
search on BM25, so these comparisons are not of one code path with itself.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import run_stages, shared_path
from support.samefiles import assert_same_bytes
from test_order_independence import splade_like

from sparsebench.core.arrays import sorted_positions
from sparsebench.core.csrfiles import load_csr
from sparsebench.core.errors import ConfigError
from sparsebench.core.fileio import read_lines
from sparsebench.runs.runfile import RunLines
from sparsebench.search import compiled_search, postings_build, rows_loop, scipy_backend
from sparsebench.search import postings as postings_module
from sparsebench.search.postings import BLOCK_DOCS, load_postings
from sparsebench.search.postings_build import as_postings
from sparsebench.search.row_directory import LONG
from sparsebench.search.scipy_backend import chosen_strategy, retrieve

KS = (1, 10, 100, 1000)


def run_bytes(queries, postings, idf, k, doc_ids, query_ids, **options) -> bytes:
    lines = RunLines(query_ids, doc_ids, "m")
    batches = retrieve(queries, postings, idf, k, doc_ids, query_ids, **options)
    return b"".join(lines.retrieved(start, batch) for start, batch in batches)


def exhaustive_run_bytes(*args, scan: bool, **options) -> bytes:
    """The run of exhaustive search by the block scan or by the sparse products, for
    any k (the scan needs nonnegative weights)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scipy_backend, "scanned", lambda signed, k, n_docs: scan and not signed)
        return run_bytes(*args, strategy="exhaustive", **options)


def assert_pruned_equals_exhaustive(queries, postings, idf, doc_ids, query_ids, ks=KS, **extra):
    for k in ks:
        common = (queries, postings, idf, k, doc_ids, query_ids)
        reference = exhaustive_run_bytes(*common, scan=False, **extra)
        assert reference, f"k={k}: an empty run proves nothing"
        for label, options in {
            "1 thread": {},
            "2 threads, batches of 7": {"threads": 2, "query_batch_size": 7},
        }.items():
            pruned = run_bytes(*common, strategy="maxscore", **options, **extra)
            assert_same_bytes(pruned, reference, f"MaxScore, k={k}, {label}")
            scanned = exhaustive_run_bytes(*common, scan=True, **options, **extra)
            assert_same_bytes(scanned, reference, f"block scan, k={k}, {label}")


@pytest.fixture(scope="module", params=["cranfield", "beir-scifact"])
def collection(request):
    return request.param


@pytest.mark.parametrize(
    "model",
    [
        {"kind": "bm25"},
        {"kind": "bm25", "statistics": "lucene"},
        {"kind": "tfidf"},
    ],
    ids=["bm25 exact", "bm25 lucene", "tf-idf"],
)
def test_pruned_runs_equal_exhaustive_ones_on_shared_collections(collection, model, tmp_path):
    out = run_stages(shared_path("data", collection), tmp_path, model=model)
    postings = load_postings(out.weights / "postings.npz")
    queries = load_csr(out.queries / "queries.npz")
    idf = np.load(out.weights / "idf.npy")
    doc_ids = np.array(read_lines(out.encoded / "doc_ids.txt"), dtype=object)
    query_ids = np.array(read_lines(out.queries / "query_ids.txt"), dtype=object)
    assert_pruned_equals_exhaustive(queries, postings, idf, doc_ids, query_ids)


def splade_problem(seed: int, n_docs: int):
    docs, queries, idf, doc_ids, query_ids = splade_like(seed, n_docs=n_docs, n_queries=60)
    return docs, queries, np.ones_like(idf), doc_ids, query_ids


def test_pruned_splade_like_runs_equal_exhaustive_ones():
    """Over plain rows and dense ones (sparsebench.search.dense_rows), and without any
    dense row."""
    docs, queries, idf, doc_ids, query_ids = splade_problem(4, 3000)
    postings = as_postings(sp.csr_matrix(docs.T))
    assert postings.dense is not None
    assert_pruned_equals_exhaustive(queries, postings, idf, doc_ids, query_ids)
    kept = postings.document_frequencies() < 2 * 3000 // 3  # the terms of no dense row
    sparse = sp.csr_matrix(sp.csr_matrix(docs)[:, kept].T)
    assert as_postings(sparse).dense is None
    kept_queries = sp.csr_matrix(queries)[:, kept]
    assert_pruned_equals_exhaustive(kept_queries, sparse, idf[kept], doc_ids, query_ids, ks=(10,))


@pytest.mark.parametrize("top", [255, 3000], ids=["uint8", "uint16"])
def test_packed_splade_like_runs_equal_plain_ones(top):
    """Packed postings whose frequent rows are bit vectors (sparsebench.search.dense_rows)
    and the others chunks: MaxScore and the block scan write the plain postings' runs,
    over queries that hold several bit vectors (two added a pass, and an odd one) and
    queries that hold none (MaxScore's walk without dense branches)."""
    docs, queries, idf, doc_ids, query_ids = splade_problem(7, 9000)
    docs = quantised(docs, top)
    plain = postings_build.build_postings(docs)
    packed = postings_build.build_postings(docs, packed=True)
    vectors = packed.dense.positions >= 0
    assert 10 <= vectors.sum() < len(vectors) and packed.packed.n_chunks > 0
    long = packed.block_lengths(0) > LONG
    vector_terms = packed.block_terms(0)[long][vectors]
    kept = np.ones(queries.shape[1], np.float32)
    kept[vector_terms] = 0
    without = sp.csr_matrix(sp.csr_matrix(queries).multiply(kept[None, :]))
    queries = sp.vstack([sp.csr_matrix(queries), without[without.getnnz(axis=1) > 0]]).tocsr()
    query_ids = np.array([f"q{i}" for i in range(queries.shape[0])], dtype=object)
    held = np.asarray((queries[:, vector_terms] != 0).sum(axis=1)).ravel()
    assert {0, 1} == set((held % 2).tolist()) and (held >= 2).sum() and (held == 0).sum() > 5
    for k in (10, 100):
        common = (idf, k, doc_ids, query_ids)
        reference = exhaustive_run_bytes(queries, plain, *common, scan=False)
        assert_same_bytes(
            run_bytes(queries, packed, *common, strategy="maxscore"), reference, f"MaxScore, k={k}"
        )
        scanned = exhaustive_run_bytes(queries, packed, *common, scan=True)
        assert_same_bytes(scanned, reference, f"block scan, k={k}")


def test_queries_with_zeros_are_read_not_changed():
    """Explicit zeros in the query matrix, and a term the IDF weighs zero, give the
    runs of the matrix without them, and the caller's matrix is left as it was (the
    zeros were once dropped from its own index arrays: a second search read shifted
    rows)."""
    docs, queries, idf, doc_ids, query_ids = splade_problem(5, 2500)
    plain = postings_build.build_postings(quantised(docs, 255))
    idf[sp.csr_matrix(queries).indices[0]] = 0.0
    zeros = sp.csr_matrix(queries, dtype=np.float32, copy=True)
    zeros.data[::3] = 0.0
    held = tuple(a.copy() for a in (zeros.data, zeros.indices, zeros.indptr))
    kept = zeros.copy()
    kept.eliminate_zeros()
    common = (plain, idf, 10, doc_ids, query_ids)
    reference = exhaustive_run_bytes(kept, *common, scan=False)
    for name, run in (
        ("sparse products", lambda q: exhaustive_run_bytes(q, *common, scan=False)),
        ("block scan", lambda q: exhaustive_run_bytes(q, *common, scan=True)),
        ("MaxScore", lambda q: run_bytes(q, *common, strategy="maxscore")),
    ):
        assert_same_bytes(run(zeros), reference, name)
        for array, before in zip((zeros.data, zeros.indices, zeros.indptr), held, strict=True):
            assert np.array_equal(array, before), f"{name} changed the query matrix"


def test_statically_pruned_and_integer_impact_corpora():
    docs, queries, idf, doc_ids, query_ids = splade_problem(5, 2500)
    pruned = docs.copy()
    pruned.data[pruned.data < 0.8] = 0  # a SPLADE model's `threshold`
    pruned.eliminate_zeros()
    assert_pruned_equals_exhaustive(queries, sp.csr_matrix(pruned.T), idf, doc_ids, query_ids)
    impacts = sp.csr_matrix(docs.T)
    impacts.data = np.minimum(np.rint(impacts.data * 40), 255).astype(np.float32)  # uint8
    impacts.eliminate_zeros()
    assert as_postings(impacts).data.dtype == np.uint8
    assert_pruned_equals_exhaustive(queries, impacts, idf, doc_ids, query_ids, ks=(1, 10, 100))


def exact_ties():
    """Every document weighs 1 on each of its terms: scores are counts of shared terms,
    thousands of documents tie at the k-th score and only the ids order them."""
    rng = np.random.default_rng(9)
    docs = sp.random(4000, 50, density=0.1, format="csr", random_state=rng, dtype=np.float32)
    docs.data[:] = 1
    queries = sp.random(40, 50, density=0.08, format="csr", random_state=rng, dtype=np.float32)
    queries.data[:] = 1
    doc_ids = np.array([f"t{i:05d}" for i in rng.permutation(4000)], dtype=object)
    query_ids = np.array([f"q{i:02d}" for i in range(40)], dtype=object)
    return queries, sp.csr_matrix(docs.T), np.ones(50), doc_ids, query_ids


def test_a_corpus_of_exact_ties():
    assert_pruned_equals_exhaustive(*exact_ties())


def handed_to_the_pool(monkeypatch, queries, documents, idf, doc_ids, query_ids) -> float:
    """The candidates a query that the walk hands the pool, at k=10 (the run checked
    against exhaustive search's)."""
    handed = []
    original = rows_loop.search_rows

    def counted(*args):
        found = original(*args)
        handed.append(len(found[1]))
        return found

    monkeypatch.setattr(rows_loop, "search_rows", counted)
    pruned = run_bytes(queries, documents, idf, 10, doc_ids, query_ids, strategy="maxscore")
    monkeypatch.setattr(rows_loop, "search_rows", original)
    exhaustive = run_bytes(queries, documents, idf, 10, doc_ids, query_ids, strategy="exhaustive")
    assert_same_bytes(pruned, exhaustive, "MaxScore, k=10")
    return sum(handed) / queries.shape[0]


def test_ties_at_the_kth_score_are_certified_in_the_walk(monkeypatch):
    """The walk ranks out a document that ties the k-th score with a smaller tie key than
    k others (topk's tie certificate), so it hands the pool about k candidates a query,
    not the thousands of documents that tie."""
    per_query = handed_to_the_pool(monkeypatch, *exact_ties())
    tied = 4000 * 0.1 * 0.08 * 50  # about the documents that share one term with a query
    assert per_query < 10 * np.log(tied), (per_query, tied)


def test_ties_are_met_largest_keys_first_when_ids_ascend(monkeypatch):
    """Ids that ascend with the documents' positions (t00000, t00001, ...) put the
    largest tie keys in the last block: walked first, it certifies the other blocks'
    ties, which a walk in position order would all hand on (each outranks the last)."""
    monkeypatch.setattr(postings_module, "BLOCK_DOCS", 256)
    monkeypatch.setattr(postings_build, "BLOCK_DOCS", 256)
    monkeypatch.setattr("sparsebench.search.scipy_backend.BLOCK_DOCS", 256)
    monkeypatch.setattr(compiled_search, "BLOCK_DOCS", 256)
    queries, documents, idf, _, query_ids = exact_ties()
    ascending = np.array([f"t{i:05d}" for i in range(4000)], dtype=object)
    documents = as_postings(documents)
    assert documents.n_blocks == 16
    per_query = handed_to_the_pool(monkeypatch, queries, documents, idf, ascending, query_ids)
    tied = 4000 * 0.1 * 0.08 * 50
    assert per_query < 10 * np.log(tied), (per_query, tied)  # position order: about 200


def test_candidates_handed_on_before_the_floor_rose_are_cut(monkeypatch):
    """Weights that rise with the documents' positions: the walk hands on every document
    of a list as it beats the floor so far, and only those the final floor leaves in
    reach the pool (a few a query, not the list's 500)."""
    n_docs, n_queries = 2000, 8
    terms = np.arange(n_docs) % 4
    docs = sp.csr_matrix(
        (np.arange(1, n_docs + 1, dtype=np.float64), (np.arange(n_docs), terms)),
        shape=(n_docs, 4),
    )
    queries = sp.csr_matrix(
        (np.ones(n_queries), (np.arange(n_queries), np.arange(n_queries) % 4)), shape=(n_queries, 4)
    )
    doc_ids = np.array([f"d{i}" for i in range(n_docs)], dtype=object)
    query_ids = np.array([f"q{i}" for i in range(n_queries)], dtype=object)
    per_query = handed_to_the_pool(
        monkeypatch, queries, sp.csr_matrix(docs.T), np.ones(4), doc_ids, query_ids
    )
    assert per_query <= 10 + 1, per_query


def test_many_blocks_and_a_query_s_own_document_excluded(monkeypatch):
    """Blocks of 256 documents (so that floors carry from block to block) and
    ignore_identical_ids: the pruned search must skip the same document."""
    monkeypatch.setattr(postings_module, "BLOCK_DOCS", 256)
    monkeypatch.setattr(postings_build, "BLOCK_DOCS", 256)
    monkeypatch.setattr("sparsebench.search.scipy_backend.BLOCK_DOCS", 256)
    monkeypatch.setattr(compiled_search, "BLOCK_DOCS", 256)
    docs, queries, idf, doc_ids, query_ids = splade_problem(6, 3000)
    query_ids = np.array(doc_ids[: queries.shape[0]], dtype=object)  # each names a document
    postings = as_postings(sp.csr_matrix(docs.T))
    assert postings.n_blocks == 12
    assert postings.dense.size > 0 and not postings.directory.apart.all()  # dense and plain
    assert_pruned_equals_exhaustive(
        queries, postings, idf, doc_ids, query_ids, ks=(1, 10, 100), ignore_identical_ids=True
    )


def test_pruning_reads_fewer_postings_than_exhaustive_search(monkeypatch):
    """On BM25-like queries (a few terms, frequent ones among them) the postings that
    pruning reads (the essential lists' and the looked-up ones) are a fraction of
    those exhaustive search multiplies."""
    docs, queries, idf, doc_ids, query_ids = bm25_like_problem(11, 20000, 200)
    read = {True: 0, False: 0}  # postings read, pruned and not
    original = compiled_search.search

    def counted(*args):
        postings_read = original(*args)
        read[args[-1]] += postings_read
        return postings_read

    monkeypatch.setattr(compiled_search, "search", counted)
    postings = as_postings(sp.csr_matrix(docs.T))
    pruned = run_bytes(queries, postings, idf, 10, doc_ids, query_ids, strategy="maxscore")
    exhaustive = run_bytes(queries, postings, idf, 10, doc_ids, query_ids, strategy="exhaustive")
    assert_same_bytes(pruned, exhaustive, "MaxScore, k=10")
    columns, hit = sorted_positions(postings.block_terms(0), queries.indices)
    whole = int(postings.block_lengths(0, columns[hit]).sum())
    assert read[False] == whole  # the block scan reads every posting of the queries' terms
    assert read[True] < 0.5 * whole, (read, whole)


def bm25_like_problem(seed: int, n_docs: int, n_queries: int, per_doc: int = 30):
    """Zipfian documents of `per_doc` terms and queries of 4 (frequent terms among them,
    whose long lists MaxScore skips), gamma-distributed weights, idf of the corpus. Of
    30 terms a document, the two most frequent are in most documents (dense rows)."""
    rng = np.random.default_rng(seed)
    vocabulary = 5000
    ranks = np.floor(np.exp(rng.random(n_docs * per_doc) * np.log(vocabulary))).astype(int) - 1
    docs = sp.csr_matrix(
        (rng.gamma(2.0, 0.5, len(ranks)), (np.repeat(np.arange(n_docs), per_doc), ranks)),
        shape=(n_docs, vocabulary),
        dtype=np.float32,
    )
    query_ranks = np.floor(np.exp(rng.random(n_queries * 4) * np.log(vocabulary))).astype(int)
    queries = sp.csr_matrix(
        (np.ones(n_queries * 4), (np.repeat(np.arange(n_queries), 4), query_ranks - 1)),
        shape=(n_queries, vocabulary),
    )
    idf = np.log(n_docs / (1 + np.bincount(docs.indices, minlength=vocabulary)))
    doc_ids = np.array([f"d{i}" for i in range(n_docs)], dtype=object)
    query_ids = np.array([f"q{i:03d}" for i in range(n_queries)], dtype=object)
    return docs, queries, np.maximum(idf, 0.01), doc_ids, query_ids


def test_non_essential_lists_read_through_or_looked_up_give_one_run(monkeypatch):
    """MaxScore adds a non-essential list to a window's gathered documents by reading it
    through the window or by looking each document up in it: every list read through,
    every one looked up, and the default mix of the two write the exhaustive run, and
    the first reads more postings than the second (so both ways ran). Documents of 12
    terms: no list is dense (a dense list's weights are read at the documents)."""
    docs, queries, idf, doc_ids, query_ids = bm25_like_problem(12, 20000, 100, per_doc=12)
    postings = as_postings(sp.csr_matrix(docs.T))
    assert postings.dense is None
    read = []
    original = compiled_search.search

    def counted(*args):
        read[-1] += original(*args)
        return read[-1]

    monkeypatch.setattr(compiled_search, "search", counted)
    for k in (10, 1000):
        reference = exhaustive_run_bytes(queries, postings, idf, k, doc_ids, query_ids, scan=False)
        read.clear()
        for read_through in (compiled_search.READ_THROUGH, 1 << 30, 0):
            monkeypatch.setattr(compiled_search, "READ_THROUGH", read_through)
            read.append(0)
            pruned = run_bytes(queries, postings, idf, k, doc_ids, query_ids, strategy="maxscore")
            assert_same_bytes(pruned, reference, f"MaxScore, k={k}, read_through={read_through}")
        default, through, looked_up = read
        assert through > max(default, looked_up) and default >= looked_up, (k, read)


def test_bound_tightness_is_what_postings_add_against_their_bounds():
    # block 0: a list of weights 4, 1, 1, 1 (bound 4) and one of 2, 2 (bound 2):
    # (7 + 4) / (4 * 4 + 2 * 2); the second block is not read
    docs = np.zeros((BLOCK_DOCS + 1, 2), dtype=np.float32)
    docs[[0, 1, 2, 3], 0] = [4, 1, 1, 1]
    docs[[5, 9], 1] = 2
    docs[BLOCK_DOCS, 0] = 100
    assert as_postings(sp.csr_matrix(docs.T)).bound_tightness == 11 / 20
    quantised = as_postings(sp.csr_matrix(docs[:BLOCK_DOCS].T))
    assert quantised.data.dtype == np.uint8
    assert quantised.bound_tightness == 11 / 20
    assert as_postings(sp.csr_matrix((2, 5), dtype=np.float32)).bound_tightness == 1.0


def auto_searched(caplog, queries, postings, idf, doc_ids, query_ids) -> str:
    """How `auto` searched (from retrieve's log line)."""
    with caplog.at_level("INFO", logger="sparsebench.search.scipy_backend"):
        caplog.clear()
        run_bytes(queries, postings, idf, 10, doc_ids, query_ids, strategy="auto")
    (line,) = [r.getMessage() for r in caplog.records if "retrieving top" in r.getMessage()]
    return "maxscore" if "MaxScore pruning" in line else "exhaustive"


def test_auto_prunes_bm25_and_scans_learned_weights_for_short_queries(caplog, tmp_path):
    """BM25's saturated term frequencies keep a list's bound close to what its postings
    add; a long tail of learned weights does not, and short (inference-free) queries
    are then searched exhaustively."""
    out = run_stages(shared_path("data", "cranfield"), tmp_path, model={"kind": "bm25"})
    postings = load_postings(out.weights / "postings.npz")
    queries = load_csr(out.queries / "queries.npz")
    assert postings.bound_tightness > 0.6
    common = (
        np.load(out.weights / "idf.npy"),
        np.array(read_lines(out.encoded / "doc_ids.txt"), dtype=object),
        np.array(read_lines(out.queries / "query_ids.txt"), dtype=object),
    )
    assert auto_searched(caplog, queries, postings, *common) == "maxscore"

    docs, queries, idf, doc_ids, query_ids = splade_problem(6, 3000)
    learned = as_postings(sp.csr_matrix(docs.T))
    assert learned.bound_tightness < 0.4
    short = sp.csr_matrix(queries.multiply(queries >= np.float32(1.5)))
    short.eliminate_zeros()
    assert short.nnz / short.shape[0] <= 16  # tokens alone, as inference-free queries
    assert auto_searched(caplog, short, learned, idf, doc_ids, query_ids) == "exhaustive"


def test_the_strategy_choice():
    short = sp.csr_matrix(np.eye(3, 40))
    long = sp.csr_matrix(np.ones((3, 40)))
    assert chosen_strategy("auto", short, signed=False, k=10, n_docs=5183) == "maxscore"
    assert chosen_strategy("auto", long, signed=False, k=10, n_docs=5183) == "exhaustive"
    assert chosen_strategy("auto", short, signed=False, k=150, n_docs=5183) == "maxscore"
    assert chosen_strategy("auto", short, signed=False, k=1000, n_docs=5183) == "exhaustive"
    assert chosen_strategy("auto", short, signed=False, k=1000, n_docs=10**6) == "maxscore"
    # loose bounds (learned weights' long tails): exhaustive, even for short queries
    loose = {"signed": False, "k": 10, "n_docs": 10**6, "tightness": lambda: 0.4}
    assert chosen_strategy("auto", short, **loose) == "exhaustive"
    assert chosen_strategy("maxscore", short, **loose) == "maxscore"
    assert chosen_strategy("maxscore", short, signed=True, k=10, n_docs=10**6) == "exhaustive"
    assert chosen_strategy("maxscore", long, signed=False, k=1000, n_docs=10) == "maxscore"
    with pytest.raises(ConfigError, match="unknown retrieval strategy 'wand'; known: auto"):
        chosen_strategy("wand", short, signed=False, k=10, n_docs=10)
    # exhaustive search: the block scan while k is at most 3% of the corpus
    assert scipy_backend.scanned(signed=False, k=155, n_docs=5183)
    assert not scipy_backend.scanned(signed=False, k=156, n_docs=5183)
    assert scipy_backend.scanned(signed=False, k=1000, n_docs=10**6)
    assert not scipy_backend.scanned(signed=True, k=10, n_docs=10**6)


def quantised(docs: sp.csr_matrix, top: int) -> sp.csr_matrix:
    """Document weights rounded to integers of 1..top (0 dropped)."""
    docs = sp.csr_matrix(docs, dtype=np.float32, copy=True)
    docs.data = np.minimum(np.rint(docs.data / docs.data.max() * top), top).astype(np.float32)
    docs.eliminate_zeros()
    return docs


@pytest.mark.parametrize("top", [255, 3000], ids=["uint8", "uint16"])
def test_packed_postings_write_the_runs_of_plain_ones(top, monkeypatch):
    """Postings whose long lists are bit-packed (packed_rows) give MaxScore (its lists
    read through and looked up) and the block scan the runs of the plain postings, byte
    for byte, over blocks of documents of both kinds of list."""
    docs, queries, idf, doc_ids, query_ids = bm25_like_problem(14, BLOCK_DOCS + 9000, 120)
    docs = quantised(docs, top)
    plain = postings_build.build_postings(docs)
    packed = postings_build.build_postings(docs, packed=True)
    assert packed.packed.n_chunks > 100 and len(packed.data) < plain.nnz == packed.nnz
    # the terms in most documents: bit vectors (dense_rows), the others chunks
    vectors = np.count_nonzero(packed.dense.positions >= 0)
    assert 2 <= vectors < len(packed.dense.positions) // 10
    for k in (10, 1000):
        common = (queries, idf, k, doc_ids, query_ids)
        reference = exhaustive_run_bytes(queries, plain, *common[1:], scan=False)
        for read_through in (compiled_search.READ_THROUGH, 1 << 30, 0):
            monkeypatch.setattr(compiled_search, "READ_THROUGH", read_through)
            pruned = run_bytes(queries, packed, *common[1:], strategy="maxscore")
            assert_same_bytes(pruned, reference, f"MaxScore, k={k}, read_through={read_through}")
        scanned = exhaustive_run_bytes(queries, packed, *common[1:], scan=True)
        assert_same_bytes(scanned, reference, f"block scan, k={k}")
