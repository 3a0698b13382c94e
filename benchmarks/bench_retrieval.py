"""Retrieval speed and memory on synthetic corpora with a Zipfian vocabulary.

Shapes: BM25-like (documents of ~60 distinct terms out of 1M, term counts, queries of ~5
terms), SPLADE-like (documents of ~150 weighted terms out of a 30,522 vocabulary,
queries of ~30), the same as integer impacts (weights x 100, rounded: quantised
SPLADE) and as 8-bit impacts (`impacts-8bit`: the documents' weights quantised linearly
to 1-255, the queries' as in `impacts`). Each run compares, on the same corpus and
queries, in one process per implementation (peak RSS is per process):

  sparsebench   as the retrieve stage runs: postings.npz as the term_weights stage writes
                it (sparsebench.search.postings, compact), memory-mapped, searched by
                retrieve.scipy_backend.retrieve (bounded blocks, 2 threads)
  baseline      the same, from another checkout of sparsebench (--baseline DIR), to
                compare two versions in one run (a checkout from before the compact
                postings searches a float64 matrix held in memory); with --maxscore
                also baseline-maxscore
  reference     the usual loop: per query a dense query vector, corpus.dot in float64
                rounded to float32, argpartition
  bm25s         bm25s on the same BM25 index (BM25-like shape only)
  sparsebench-maxscore   sparsebench with retrieval.strategy maxscore
  pisa-maxscore, pisa-bmw, pisa-taat   PISA's MaxScore, block-max WAND and exhaustive
                term-at-a-time on the same integer weights (shapes bm25-8bit, impacts
                and impacts-8bit), one thread; tantivy's block-max WAND with its own
                BM25 on the same term counts (BM25-like shapes); bmp: block-max pruning
                (exact) on the same 8-bit weights (impacts-8bit); seismic: Seismic's
                approximate search (SPLADE-like shapes): external_engines.py, run by
                the Python given as --engines-python

and checks that sparsebench's top-k equals the reference loop's (the documents, ties
in order), and on how many queries each other engine's top-k scores equal the exact
ones (the scores rank by rank: engines order ties their own way; the exact top k is
the reference loop's, or sparsebench's where the reference is skipped). The bm25-8bit
shape is BM25-like with each posting's BM25 score quantised linearly to 1-255 and
queries of term counts, so that every engine sees the same 8-bit weights. The header
gives the machine's copy bandwidth, and each row's bandwidth bound: the queries per
second at which the postings a query touches, at the row's bytes a posting, stream from
memory; and the same bound at 12 bytes a posting (a 4-byte document id and an 8-byte
sum updated: a plain term-at-a-time index), the same for every engine. The index
columns give sparsebench's postings file as the checkout measured writes it (each
checkout builds its own from the corpus, outside the timing: layouts differ between
versions; the documents' tie keys included), PISA's index with its block-max data,
BMP's index file and Seismic's saved index; the column "ids and weights" what finds and
holds the postings alone: sparsebench's file without its block maxima and tie keys,
PISA's compressed index file (its codec's: ids and quantized scores). Each
implementation runs --repeat times in its process; the table gives the best time (on a
shared machine the slower runs measure the neighbours).

    python benchmarks/bench_retrieval.py --sizes 100000 --shapes bm25
    python benchmarks/bench_retrieval.py --sizes 100000 --baseline ../old-checkout
    python benchmarks/bench_retrieval.py --sizes 10000 100000 1000000   # the full table
    python benchmarks/bench_retrieval.py --sizes 1000000 --shapes bm25-8bit impacts \
        --k 10 --threads 1 --engines-python /path/to/engines/bin/python

The other engines' Python (one of its own: they need packages sparsebench does not):

    python -m venv /path/to/engines
    /path/to/engines/bin/pip install pyterrier-pisa==0.4.9 tantivy bmp pyseismic-lsr scipy
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    import pyarrow as pa

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_metrics import peak_rss_mb  # noqa: E402
from external_engines import SEARCHES, copy_bandwidth, index_bytes  # noqa: E402
from external_engines import SHAPES as ENGINE_SHAPES  # noqa: E402

EXTERNAL = tuple(SEARCHES)  # engines of external_engines.py: other tie orders

SHAPES = {  # vocabulary, terms per document, terms per query, weighted?
    "bm25": (1_000_000, 60, 5, False),
    "bm25-8bit": (1_000_000, 60, 5, False),
    "splade": (30_522, 150, 30, True),
    "impacts": (30_522, 150, 30, True),
    "impacts-8bit": (30_522, 150, 30, True),
}
IMPACT_SCALE = 100  # the "impacts" shape: SPLADE-like weights x 100, rounded
_PLAIN_POSTING_BYTES = 12  # a plain term-at-a-time index: a 4-byte id, an 8-byte sum


def zipf_terms(rng, vocabulary: int, size: int) -> np.ndarray:
    """Term ids with Zipfian frequencies (rank r drawn with probability ~ 1/r)."""
    ranks = np.floor(np.exp(rng.random(size) * np.log(vocabulary))).astype(np.int64) - 1
    return np.minimum(ranks, vocabulary - 1)


def make_matrix(rng, rows: int, vocabulary: int, terms: int, weighted: bool) -> sp.csr_matrix:
    counts = np.maximum(rng.poisson(terms, rows), 1)
    row = np.repeat(np.arange(rows), counts)
    col = zipf_terms(rng, vocabulary, int(counts.sum()))
    data = (
        rng.gamma(1.5, 0.6, len(col)).astype(np.float32)
        if weighted
        else np.ones(len(col), np.float32)
    )
    matrix = sp.csr_matrix((data, (row, col)), shape=(rows, vocabulary), dtype=np.float32)
    matrix.sum_duplicates()
    return matrix


def make_problem(folder: Path, docs: int, queries: int, shape: str, seed: int = 0) -> None:
    vocabulary, doc_terms, query_terms, weighted = SHAPES[shape]
    rng = np.random.default_rng(seed)
    corpus = make_matrix(rng, docs, vocabulary, doc_terms, weighted)
    query = make_matrix(rng, queries, vocabulary, query_terms, weighted)
    if not weighted:  # BM25: saturated document weights, Lucene IDF on the query side
        from sparsebench.encode.idf import idf
        from sparsebench.encode.schemes import bm25_document_weights
        from sparsebench.encode.statistics import document_frequencies

        sp.save_npz(folder / "counts.npz", corpus)
        weights = idf(document_frequencies(corpus), docs, "lucene")
        corpus = bm25_document_weights(corpus, 0.9, 0.4)
        if shape == "bm25-8bit":  # each posting's score, quantised linearly to 1-255
            corpus = sp.csr_matrix(corpus.multiply(weights.reshape(1, -1)))
            corpus.data = np.maximum(np.rint(corpus.data / corpus.data.max() * 255), 1)
            weights = np.ones(vocabulary)
    else:
        weights = np.ones(vocabulary)
    if shape in ("impacts", "impacts-8bit"):
        for matrix in (corpus, query):
            matrix.data = np.rint(matrix.data * IMPACT_SCALE)
            matrix.eliminate_zeros()
    if shape == "impacts-8bit":  # as an 8-bit quantiser maps each weight to 1-255
        corpus.data = np.maximum(np.rint(corpus.data / corpus.data.max() * 255), 1)
    sp.save_npz(folder / "corpus.npz", corpus)
    sp.save_npz(folder / "postings.npz", sp.csr_matrix(corpus.T))
    sp.save_npz(folder / "queries.npz", query)
    np.save(folder / "idf.npy", weights)


def bench_doc_ids(n_docs: int) -> pa.Array:
    """The documents' ids: they ascend in byte order with their position. (Imports
    pyarrow here: the other engines' Python need not have it.)"""
    import pyarrow as pa

    return pa.array([f"d{i:08d}" for i in range(n_docs)], type=pa.string())


def own_postings(folder: Path) -> Path:
    """The corpus's postings as this checkout's term_weights stage writes them (each
    checkout its own file: layouts differ between versions), built once, outside any
    timing."""
    import hashlib

    import sparsebench

    try:
        from sparsebench.search.postings_build import save_postings
    except ImportError:  # a checkout from before the builders had a module of their own
        from sparsebench.search.postings import save_postings

    packed = os.environ.get("BENCH_PACKED") == "1"  # --packed (and --baseline-packed)
    key = hashlib.sha256(str(Path(sparsebench.__file__).resolve()).encode()).hexdigest()[:12]
    path = folder / f"compact-{key}{'-packed' if packed else ''}.npz"
    if not path.exists():
        corpus = sp.load_npz(folder / "corpus.npz").tocsr()
        ids = bench_doc_ids(corpus.shape[0])
        save_postings(path, corpus, doc_ids=ids, **({"packed": True} if packed else {}))
    return path


# members of a postings file that are neither postings nor what finds them: each row's
# largest weight (its block maxima) and each document's tie key
_BEYOND_LISTS = ("row_max.npy", "tie_keys.npy")


def postings_file_bytes(path: Path) -> tuple[int, int]:
    """A postings file's bytes: its ids, weights and what finds their lists (what PISA's
    index file holds), and the whole file (with the block maxima and tie keys)."""
    import zipfile

    with zipfile.ZipFile(path) as archive:
        beyond = sum(m.compress_size for m in archive.infolist() if m.filename in _BEYOND_LISTS)
    whole = path.stat().st_size
    return whole - beyond, whole


def best_of(repeat: int, work) -> dict:
    """The fastest of `repeat` timed calls of work() -> top (or None)."""
    seconds, tops = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        tops.append(work())
        seconds.append(time.perf_counter() - start)
    return {"seconds": min(seconds), "top": tops[0]}


def run_sparsebench(folder: Path, k: int, repeat: int, strategy: str = "exhaustive") -> dict:
    from sparsebench.search.scipy_backend import retrieve

    threads = int(os.environ.get("BENCH_THREADS", "2"))

    queries = sp.load_npz(folder / "queries.npz").tocsr()
    weights = np.load(folder / "idf.npy")
    query_ids = np.array([f"q{i}" for i in range(queries.shape[0])], dtype=object)
    try:  # as the retrieve stage: the compact postings, memory-mapped
        from sparsebench.search.postings import Postings, load_postings

        compact = own_postings(folder)
        postings = load_postings(compact)
        assert isinstance(postings, Postings)
        index_bytes = postings_file_bytes(compact)

        def search():
            return retrieve(
                queries,
                postings,
                weights,
                k,
                doc_ids,
                query_ids,
                threads=threads,
                strategy=strategy,
            )

    except ImportError:  # a checkout from before: a float64 term-major matrix in memory
        postings = sp.load_npz(folder / "postings.npz").tocsr()
        postings = importlib.import_module("sparsebench.search.exactscores").corpus_operand(
            postings.astype(np.float64)
        )
        whole = postings.data.nbytes + postings.indices.nbytes + postings.indptr.nbytes
        index_bytes = (whole, whole)

        def search():
            return retrieve(queries, postings, weights, k, doc_ids, query_ids, threads=threads)

    doc_ids = bench_doc_ids(postings.shape[1])  # as the stage reads them (read_line_array)

    def work():
        top = np.full((queries.shape[0], k), -1, np.int64)
        for first, batch in search():
            top[first + batch.query_rows, batch.ranks - 1] = batch.doc_rows
        return top

    return {**best_of(repeat, work), "index_bytes": index_bytes}


def run_reference(folder: Path, k: int, repeat: int) -> dict:
    """Per query: dense query vector, corpus.dot in float64 (exact products, the sum
    rounded once to float32 as sparsebench defines a score), argpartition."""
    corpus, queries = (
        sp.load_npz(folder / "corpus.npz").tocsr().astype(np.float64),
        sp.load_npz(folder / "queries.npz").tocsr(),
    )
    weights = np.load(folder / "idf.npy").astype(np.float32)

    return best_of(repeat, lambda: reference_top(corpus, queries, weights, k))


def reference_top(corpus: sp.csr_matrix, queries: sp.csr_matrix, weights, k: int) -> np.ndarray:
    top = np.full((queries.shape[0], k), -1, np.int64)
    for i in range(queries.shape[0]):
        dense = (queries[i].toarray().ravel() * weights).astype(np.float32).astype(np.float64)
        scores = corpus.dot(dense).astype(np.float32)
        matched = np.nonzero(scores)[0]
        if len(matched) > k:  # every document tied with the k-th stays a candidate
            kth = -np.partition(-scores[matched], k - 1)[k - 1]
            matched = matched[scores[matched] >= kth]
        order = np.lexsort((-matched, -scores[matched]))[:k]  # ties: larger id first
        top[i, : len(order)] = matched[order]
    return top


def run_bm25s(folder: Path, k: int, repeat: int) -> dict:
    import bm25s

    counts = sp.load_npz(folder / "counts.npz").tocsr()
    queries = sp.load_npz(folder / "queries.npz").tocsr()
    tokens = [
        np.repeat(counts.indices[a:b], counts.data[a:b].astype(int)).tolist()
        for a, b in zip(counts.indptr[:-1], counts.indptr[1:], strict=True)
    ]
    query_tokens = [
        np.repeat(queries.indices[a:b], queries.data[a:b].astype(int)).tolist()
        for a, b in zip(queries.indptr[:-1], queries.indptr[1:], strict=True)
    ]
    retriever = bm25s.BM25(method="lucene", k1=0.9, b=0.4)
    vocabulary = {str(i): i for i in range(counts.shape[1])}
    retriever.index(bm25s.tokenization.Tokenized(ids=tokens, vocab=vocabulary), show_progress=False)

    def work():
        retriever.retrieve(
            bm25s.tokenization.Tokenized(ids=query_tokens, vocab=vocabulary),
            k=k,
            show_progress=False,
            n_threads=0,
        )

    return best_of(repeat, work)


def run_external(engine: str, folder: Path, k: int, repeat: int) -> dict:
    """An engine of external_engines.py: its search timed, its results read after."""
    search, top = SEARCHES[engine](folder, k)
    result = best_of(repeat, search)
    return {**result, "top": top(result["top"]), "index_bytes": index_bytes(engine, folder)}


IMPLEMENTATIONS = {
    "sparsebench": run_sparsebench,
    "sparsebench-maxscore": lambda folder, k, repeat: run_sparsebench(
        folder, k, repeat, "maxscore"
    ),
    "baseline": run_sparsebench,
    "baseline-maxscore": lambda folder, k, repeat: run_sparsebench(folder, k, repeat, "maxscore"),
    "reference": run_reference,
    "bm25s": run_bm25s,
    **{
        engine: lambda folder, k, repeat, engine=engine: run_external(engine, folder, k, repeat)
        for engine in EXTERNAL
    },
}


def top_scores(folder: Path, top: np.ndarray) -> np.ndarray:
    """The exact score of each listed document (float64 products of the stored weights,
    -inf where a rank is empty), to compare engines that order ties their own way."""
    corpus = sp.load_npz(folder / "corpus.npz").tocsr().astype(np.float64)
    queries = sp.load_npz(folder / "queries.npz").tocsr()
    weights = np.load(folder / "idf.npy").astype(np.float32).astype(np.float64)
    scores = np.full(top.shape, -np.inf)
    for i, rows in enumerate(top):
        listed = rows[rows >= 0]
        query = queries[i].multiply(weights).tocsr().astype(np.float32).astype(np.float64)
        scores[i, : len(listed)] = (corpus[listed] @ query.T).toarray().ravel()
    return scores


def scores_agreement(scores: np.ndarray, expected: np.ndarray) -> str:
    """'scores' where every query's top-k scores equal the exact ones, rank by rank, else
    on how many queries they do, and the recall: the share of the exact top k found,
    a document found counted if it scores at least the exact k-th (documents tied with
    it are as good as the one listed)."""
    equal = np.all(scores == expected, axis=1)
    if equal.all():
        return "scores"
    listed = np.isfinite(expected)
    kth = np.where(listed, expected, np.inf).min(axis=1, keepdims=True)
    found = np.minimum((np.isfinite(scores) & (scores >= kth)).sum(axis=1), listed.sum(axis=1))
    recall = found.sum() / max(int(listed.sum()), 1)
    return f"scores on {equal.mean():.1%} of queries, recall {recall:.3f}"


def child(impl: str, folder: str, k: int, repeat: int, out: str) -> None:
    result = IMPLEMENTATIONS[impl](Path(folder), k, repeat)
    if result["top"] is not None:
        np.save(out + ".npy", result["top"])
    Path(out).write_text(
        json.dumps(
            {
                "seconds": result["seconds"],
                "peak_rss_mb": peak_rss_mb(),
                "index_bytes": result.get("index_bytes"),
            }
        )
    )


def measure(
    shape: str,
    docs: int,
    queries: int,
    k: int,
    reference: bool,
    bm25s: bool,
    repeat: int,
    baseline: str | None,
    others: list[str],
    engines_python: str | None,
) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_problem(folder, docs, queries, shape)
        corpus = sp.load_npz(folder / "corpus.npz")
        query = sp.load_npz(folder / "queries.npz")
        postings = np.bincount(corpus.indices, minlength=corpus.shape[1])
        touched = int(postings[query.indices].sum())
        impls = (
            ["sparsebench"]
            + (["baseline"] if baseline else [])
            + (["reference"] if reference else [])
            + (["bm25s"] if shape == "bm25" and bm25s else [])
            + others
            + (["baseline-maxscore"] if baseline and "sparsebench-maxscore" in others else [])
        )
        rows = {}
        for impl in impls:
            out = str(folder / impl)
            env = dict(os.environ)
            if impl.startswith("baseline"):  # the other checkout's sparsebench comes first
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [baseline, env.get("PYTHONPATH")]))
                if env.pop("BENCH_BASELINE_PACKED", None) != "1":
                    env.pop("BENCH_PACKED", None)
                else:
                    env["BENCH_PACKED"] = "1"
            python = engines_python if impl in EXTERNAL else sys.executable
            done = subprocess.run(
                [python, __file__, "--child", impl, str(folder), str(k), str(repeat), out],
                env=env,
                capture_output=impl in EXTERNAL,  # PISA's progress bars, shown on failure
                text=True,
            )
            if done.returncode:
                sys.exit(f"{impl} failed:\n{done.stdout or ''}{done.stderr or ''}")
            rows[impl] = json.loads(Path(out).read_text())
            if Path(out + ".npy").exists():
                rows[impl]["top"] = np.load(out + ".npy")
        if "reference" in rows:
            for impl in ("sparsebench", "sparsebench-maxscore", "baseline", "baseline-maxscore"):
                if impl in rows:
                    rows[impl]["identical"] = bool(
                        np.array_equal(rows[impl]["top"], rows["reference"]["top"])
                    )
        exact = rows["reference" if "reference" in rows else "sparsebench"]["top"]
        expected = top_scores(folder, exact)
        for impl in set(rows) & set(EXTERNAL) - {"tantivy"}:  # tantivy: its own BM25
            found = top_scores(folder, rows[impl]["top"])
            rows[impl]["identical"] = scores_agreement(found, expected)
    return {"rows": rows, "postings": touched, "queries": queries, "nnz": corpus.nnz}


def other_engines(shape: str, maxscore: bool, engines_python: str | None) -> list[str]:
    """The optional rows that apply to a shape: sparsebench's MaxScore, and the other
    engines that take it (external_engines.SHAPES) when their Python is given."""
    engines = ["sparsebench-maxscore"] if maxscore else []
    if engines_python:
        engines += [name for name in SEARCHES if shape in ENGINE_SHAPES[name]]
    return engines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--shapes", nargs="+", default=["bm25", "splade"], choices=list(SHAPES))
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument(
        "--reference-max",
        type=int,
        default=1_000_000,
        help="skip the reference loop above this many documents",
    )
    parser.add_argument(
        "--bm25s-max",
        type=int,
        default=100_000,
        help="skip bm25s above this many documents (its indexing is slow)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per implementation")
    parser.add_argument(
        "--baseline", help="another sparsebench checkout to measure beside this one"
    )
    parser.add_argument("--threads", type=int, default=2, help="sparsebench's search threads")
    parser.add_argument(
        "--maxscore", action="store_true", help="also sparsebench with strategy maxscore"
    )
    parser.add_argument(
        "--engines-python",
        help="a Python with pyterrier-pisa, tantivy, bmp and pyseismic-lsr: adds their rows",
    )
    parser.add_argument(
        "--packed",
        action="store_true",
        help="this checkout's postings packed (save_postings(packed=True): integer weights, "
        "shapes bm25-8bit, impacts and impacts-8bit); a --baseline's stay plain",
    )
    parser.add_argument(
        "--baseline-packed",
        action="store_true",
        help="the --baseline's postings packed too (to compare packed postings of two checkouts)",
    )
    parser.add_argument("--child", nargs=5)
    args = parser.parse_args()
    if args.child:  # the thread count comes from the parent's environment
        impl, folder, k, repeat, out = args.child
        child(impl, folder, int(k), int(repeat), out)
        return
    os.environ["BENCH_THREADS"] = str(args.threads)
    if args.packed:
        os.environ["BENCH_PACKED"] = "1"
    if args.baseline_packed:
        os.environ["BENCH_BASELINE_PACKED"] = "1"
    sys.path.insert(0, str(HERE))
    from bench_metrics import checkout_state, machine

    commit = checkout_state(HERE)
    baseline = ""
    if args.baseline:
        args.baseline = str(Path(args.baseline).resolve())
        baseline = f"; baseline: {args.baseline} at commit {checkout_state(Path(args.baseline))}"
    bandwidth = copy_bandwidth()
    print(
        f"machine: {machine()}; commit {commit}{baseline}; {args.queries} queries, "
        f"k = {args.k}; sparsebench on {args.threads} thread(s), other engines on 1; "
        f"best of {args.repeat} runs; copy bandwidth {bandwidth / 1e9:.1f} GB/s "
        "(one thread reading)\n"
    )
    print(
        "| shape | documents | implementation | seconds | queries/s | postings/s | peak RSS (MiB) "
        "| index (MiB) | bytes a posting | ids and weights, bytes a posting "
        "| bandwidth bound (q/s) "
        f"| bound at {_PLAIN_POSTING_BYTES} B a posting (q/s) | top-k = reference |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for shape in args.shapes:
        for docs in args.sizes:
            result = measure(
                shape,
                docs,
                args.queries,
                args.k,
                docs <= args.reference_max,
                docs <= args.bm25s_max,
                args.repeat,
                args.baseline,
                other_engines(shape, args.maxscore, args.engines_python),
                args.engines_python,
            )
            per_query = result["postings"] / result["queries"] * _PLAIN_POSTING_BYTES
            plain_bound = f"{bandwidth / per_query:,.0f}"
            for impl, row in result["rows"].items():
                seconds, sizes = row["seconds"], row.get("index_bytes")
                size, bound = " |  | ", ""
                if sizes is not None:
                    lists, index = sizes
                    nnz = result["nnz"]
                    alone = "" if lists is None else f"{lists / nnz:.2f}"
                    size = f"{index / 2**20:,.0f} | {index / nnz:.2f} | {alone}"
                    per_query = result["postings"] / result["queries"] * index / nnz
                    bound = f"{bandwidth / per_query:,.0f}"
                print(
                    f"| {shape} | {docs:,} | {impl} | {seconds:.2f} | "
                    f"{result['queries'] / seconds:,.0f} | {result['postings'] / seconds:,.0f} | "
                    f"{row['peak_rss_mb']:.0f} | {size} | {bound} | {plain_bound} | "
                    f"{row.get('identical', '')} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
