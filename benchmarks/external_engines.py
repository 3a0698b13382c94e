"""Other engines on bench_retrieval's corpora, each in its own process: PISA (through
pyterrier-pisa's compiled module), tantivy, BMP and Seismic, plus the machine's memory
copy bandwidth.

PISA indexes the very integer weights that sparsebench searches (the `bm25-8bit` and
`impacts` shapes): the inverted index is written in PISA's binary collection format from
the postings matrix (what pyterrier-pisa's toks indexer writes, without its per-posting
Python loop) and PISA compresses it and computes its block-max data when the retriever
is first prepared, outside the timing. Queries go to `_pisathon.retrieve` directly, the
call pyterrier-pisa's transformer makes, without building a results frame.

tantivy cannot take given weights: it indexes the BM25-like corpus's term counts and
scores with its own BM25 (k1 1.2, b 0.75, document lengths stored in one byte), so its
column is speed on the same documents and queries, not the same scores.

BMP (block-max pruning, the `bmp` package) keeps a forward index of blocks of BMP_BLOCK
documents with 16-bit term ids and 8-bit scores: it takes the SPLADE-like corpus with
8-bit impacts (`impacts-8bit`), indexed from the same integer weights (its block maxima
compressed, BMP_COMPRESS_RANGE), and searches
exactly (alpha and beta 1) for the query it searches, which it quantises itself (each
query's weights scaled so that the largest is 32, rounded up): its top-k scores may
differ from the exact ones where that rounding reorders documents.

Seismic (`pyseismic-lsr`) is approximate by design (its lists pruned to their largest
weights and clustered, blocks skipped by their summaries): it takes the SPLADE-like
shapes, its index built with its defaults and searched with SEISMIC_SEARCH; its row
says how often its top k is the exact one, and its recall.

These engines need packages sparsebench does not: run them with a Python that has them
(bench_retrieval.py --engines-python).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
import scipy.sparse as sp

PISA_ALGORITHMS = {  # column name: PISA's query algorithm
    "pisa-maxscore": "maxscore",
    "pisa-bmw": "block_max_wand",
    "pisa-taat": "ranked_or_taat",
}
BMP_BLOCK = 32  # BMP's documents a block (its pyterrier indexer's default)
BMP_COMPRESS_RANGE = True  # its block maxima kept as the nonzero ones alone (its -c)
SEISMIC_SEARCH = {"query_cut": 20, "heap_factor": 0.9}  # terms of a query kept, block test


def copy_bandwidth(megabytes: int = 1024, repeat: int = 5) -> float:
    """Bytes per second that one thread reads while copying a large array (the best of
    `repeat` copies): the rate at which postings can stream from memory."""
    source = np.ones(megabytes << 17, np.float64)  # `megabytes` MiB
    target = np.empty_like(source)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        np.copyto(target, source)
        best = min(best, time.perf_counter() - start)
    return source.nbytes / best


def write_pisa_collection(folder: Path, corpus: sp.csr_matrix) -> None:
    """PISA's binary collection (inv.docs, inv.freqs, inv.sizes) and lexicons of the
    integer weights in `corpus` (documents x terms); terms named by their column,
    listed in the byte order PISA's lexicon needs."""
    from pyterrier_pisa import _pisathon

    folder.mkdir(parents=True, exist_ok=True)
    postings = sp.csr_matrix(corpus.T)
    postings.sort_indices()
    frequencies = np.diff(postings.indptr)
    names = np.array([str(t) for t in np.flatnonzero(frequencies)])
    order = np.flatnonzero(frequencies)[np.argsort(names, kind="stable")]
    listed = postings[order]
    headers = np.diff(listed.indptr)

    def sequences(values: np.ndarray) -> np.ndarray:
        out = np.empty(len(values) + len(headers), np.uint32)
        starts = listed.indptr[:-1] + np.arange(len(headers))
        is_header = np.zeros(len(out), bool)
        is_header[starts] = True
        out[is_header], out[~is_header] = headers, values
        return out

    documents = corpus.shape[0]
    weights = np.rint(listed.data).astype(np.uint32)
    with open(folder / "inv.docs", "wb") as handle:
        handle.write(np.array([1, documents], np.uint32).tobytes())
        handle.write(sequences(listed.indices.astype(np.uint32)).tobytes())
    (folder / "inv.freqs").write_bytes(sequences(weights).tobytes())
    lengths = np.asarray(np.rint(corpus.data).astype(np.int64))
    sizes = np.add.reduceat(lengths, corpus.indptr[:-1]) * (np.diff(corpus.indptr) > 0)
    (folder / "inv.sizes").write_bytes(
        np.concatenate([[documents], sizes]).astype(np.uint32).tobytes()
    )
    (folder / "fwd.documents").write_text("".join(f"{d}\n" for d in range(documents)))
    (folder / "fwd.terms").write_text("".join(f"{n}\n" for n in np.sort(names)))
    _pisathon.build_binlex(str(folder / "fwd.documents"), str(folder / "fwd.doclex"))
    _pisathon.build_binlex(str(folder / "fwd.terms"), str(folder / "fwd.termlex"))
    (folder / "pt_meta.json").write_text(
        json.dumps(
            {
                "type": "sparse_index",
                "format": "pisa",
                "package_hint": "pyterrier-pisa",
                "stemmer": "none",
            }
        )
    )


Engine = tuple[Callable[[], object], Callable[[object], np.ndarray]]


def pisa_search(folder: Path, k: int, algorithm: str) -> Engine:
    """A prepared PISA search of bench_retrieval's queries (`folder`/queries.npz) over its
    corpus, one thread, and what turns its results into top-k document rows per query
    (outside the timing)."""
    from pyterrier_pisa import PisaIndex, _pisathon

    corpus = sp.load_npz(folder / "corpus.npz").tocsr()
    queries = sp.load_npz(folder / "queries.npz").tocsr()
    index = folder / "pisa"
    if not (index / "pt_meta.json").exists():
        write_pisa_collection(index, corpus)
    retriever = PisaIndex(str(index), stops="none").quantized(
        num_results=k, threads=1, query_weighted=True, toks_scale=1.0
    )
    inputs = [
        (i, {str(t): float(w) for t, w in zip(row.indices, row.data, strict=True)})
        for i, row in enumerate(queries)
    ]
    size = len(inputs) * k
    buffers = {
        "result_qidxs": np.empty(size, np.int32),
        "result_docnos": np.empty(size, object),
        "result_ranks": np.empty(size, np.int32),
        "result_scores": np.empty(size, np.float32),
    }

    def search() -> int:
        return _pisathon.retrieve(
            retriever._ctxt,
            algorithm,
            inputs,
            k=k,
            threads=1,
            query_weighted=1,
            pretokenised=True,
            **buffers,
        )

    def top(found: object) -> np.ndarray:
        rows = np.full((len(inputs), k), -1, np.int64)
        docs = buffers["result_docnos"][: int(found)].astype(np.int64)
        rows[buffers["result_qidxs"][: int(found)], buffers["result_ranks"][: int(found)]] = docs
        return rows

    search()  # first use reads the index's pages in
    return search, top


def pisa_index_bytes(folder: Path) -> tuple[int, int]:
    """The sizes of PISA's compressed inverted index (its codec's file: document ids and
    quantized scores) and of that with its block-max data (the file kept beside it, named
    as the index less its codec's suffix)."""
    (index,) = (folder / "pisa").glob("*.block_simdbp")
    lists = index.stat().st_size
    return lists, lists + index.with_suffix("").stat().st_size


def write_bmp_index(path: Path, corpus: sp.csr_matrix) -> None:
    """A BMP index of the integer weights in `corpus` (documents x terms, at most 255,
    fewer than 65,536 terms used): the documents' vectors for its block forward index,
    the terms' lists for its block maxima; terms named by their column, documents by
    their row."""
    if corpus.nnz and corpus.data.max() > 255:
        raise ValueError("BMP keeps 8-bit scores: quantise the corpus to at most 255")
    corpus = corpus.copy()
    corpus.data = np.rint(corpus.data).astype(np.int64)  # as its lists hold them
    lists = sp.csc_matrix(corpus)
    lists.sort_indices()
    used = np.flatnonzero(np.diff(lists.indptr))
    if len(used) > 1 << 16:
        raise ValueError("BMP's block forward index numbers terms in 16 bits")
    rank = np.full(corpus.shape[1], -1, np.int64)
    rank[used] = np.arange(len(used))
    terms = rank[corpus.indices]
    from bmp import InvertedIndexer  # after the checks: they need no BMP

    path.parent.mkdir(parents=True, exist_ok=True)
    indexer = InvertedIndexer(str(path), BMP_BLOCK, BMP_COMPRESS_RANGE)
    for row, (a, b) in enumerate(zip(corpus.indptr[:-1], corpus.indptr[1:], strict=True)):
        vector = zip(terms[a:b].tolist(), corpus.data[a:b].tolist(), strict=True)
        indexer.add_document(str(row), list(vector))
    for term in used:
        a, b = lists.indptr[term], lists.indptr[term + 1]
        postings = zip(lists.indices[a:b].tolist(), lists.data[a:b].tolist(), strict=True)
        indexer.add_term(str(term), list(postings))
    indexer.finish()


def bmp_search(folder: Path, k: int) -> Engine:
    """A BMP search (exact: alpha and beta 1) of the queries over the corpus's 8-bit
    weights, one query a call, and what turns its results into top-k rows."""
    from bmp import Searcher

    corpus = sp.load_npz(folder / "corpus.npz").tocsr()
    queries = sp.load_npz(folder / "queries.npz").tocsr()
    index = folder / "bmp-index" / "index.bmp"
    if not index.exists():
        write_bmp_index(index, corpus)
    searcher = Searcher(str(index))
    inputs = [
        {str(t): float(w) for t, w in zip(row.indices, row.data, strict=True)} for row in queries
    ]

    def search() -> list:
        return [searcher.search(query, k, 1.0, 1.0) for query in inputs]

    def top(found: object) -> np.ndarray:
        rows = np.full((len(inputs), k), -1, np.int64)
        for i, (docnos, _) in enumerate(found):
            rows[i, : len(docnos)] = np.array(docnos, np.int64)
        return rows

    search()
    return search, top


def seismic_search(folder: Path, k: int) -> Engine:
    """A Seismic search (approximate: SEISMIC_SEARCH) of the queries over the corpus's
    weights, one thread, built with Seismic's defaults; and what turns its results into
    top-k rows. The index is saved beside the corpus, for its size."""
    import seismic

    corpus = sp.load_npz(folder / "corpus.npz").tocsr()
    queries = sp.load_npz(folder / "queries.npz").tocsr()
    corpus.sort_indices()
    dataset = seismic.SeismicDataset()
    dataset.add_documents_by_id(
        [str(row) for row in range(corpus.shape[0])],
        corpus.indices.astype(np.int64),
        corpus.data.astype(np.float32),
        corpus.indptr.astype(np.int64),
    )
    index = seismic.SeismicIndex.build_from_dataset(dataset)
    saved = folder / "seismic-index"
    saved.mkdir(exist_ok=True)
    index.save(str(saved / "index"))
    text = seismic.get_seismic_string()
    ids = np.array([str(i) for i in range(queries.shape[0])], dtype=text)
    components = [np.array([str(t) for t in row.indices], dtype=text) for row in queries]
    values = [row.data.astype(np.float32) for row in queries]

    def search() -> list:
        return index.batch_search(ids, components, values, k, num_threads=1, **SEISMIC_SEARCH)

    def top(found: object) -> np.ndarray:  # a query's hits name it: the lists come unordered
        rows = np.full((len(components), k), -1, np.int64)
        for hits in found:
            if hits:
                rows[int(hits[0][0]), : len(hits)] = [int(doc) for _, _, doc in hits]
        return rows

    search()
    return search, top


def tantivy_search(folder: Path, k: int) -> Engine:
    """A tantivy search (its BM25, block-max WAND, one thread) of the queries over the
    corpus's term counts, and what turns its hits into top-k rows."""
    import tantivy

    counts = sp.load_npz(folder / "counts.npz").tocsr()
    queries = sp.load_npz(folder / "queries.npz").tocsr()
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", tokenizer_name="whitespace", index_option="freq")
    builder.add_integer_field("row", stored=True, fast=True)
    schema = builder.build()
    path = tempfile.mkdtemp(dir=folder, prefix="tantivy-")
    index = tantivy.Index(schema, path=path)
    writer = index.writer(heap_size=1 << 30, num_threads=1)
    for row, (a, b) in enumerate(zip(counts.indptr[:-1], counts.indptr[1:], strict=True)):
        terms = np.repeat(counts.indices[a:b], counts.data[a:b].astype(np.int64))
        writer.add_document(tantivy.Document(body=" ".join(f"t{t}" for t in terms), row=row))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    searcher = index.searcher()
    compiled = [
        tantivy.Query.boolean_query(
            [
                (
                    tantivy.Occur.Should,
                    tantivy.Query.boost_query(
                        tantivy.Query.term_query(schema, "body", f"t{t}"), float(w)
                    ),
                )
                for t, w in zip(row.indices, row.data, strict=True)
            ]
        )
        for row in queries
    ]

    def search() -> list:
        return [searcher.search(query, limit=k, count=False).hits for query in compiled]

    def top(found: object) -> np.ndarray:
        rows = np.full((len(compiled), k), -1, np.int64)
        for i, hits in enumerate(found):
            rows[i, : len(hits)] = [searcher.doc(address)["row"][0] for _, address in hits]
        return rows

    search()
    return search, top


# the bench_retrieval shapes each engine takes: PISA integer weights, tantivy the term
# counts, BMP 8-bit weights of at most 65,536 terms, Seismic a learned sparse vocabulary
SHAPES: dict[str, tuple[str, ...]] = {
    **{name: ("bm25-8bit", "impacts", "impacts-8bit") for name in PISA_ALGORITHMS},
    "tantivy": ("bm25", "bm25-8bit"),
    "bmp": ("impacts-8bit",),
    "seismic": ("splade", "impacts", "impacts-8bit"),
}
SEARCHES: dict[str, Callable[[Path, int], Engine]] = {
    **{
        name: partial(pisa_search, algorithm=algorithm)
        for name, algorithm in PISA_ALGORITHMS.items()
    },
    "tantivy": tantivy_search,
    "bmp": bmp_search,
    "seismic": seismic_search,
}


def index_bytes(engine: str, folder: Path) -> tuple[int | None, int] | None:
    """An engine's index on disk: (its lists alone, where it keeps them apart, and the
    whole), None where it is not measured (tantivy's, of other weights)."""
    if engine in PISA_ALGORITHMS:
        return pisa_index_bytes(folder)
    if engine in ("bmp", "seismic"):
        files = (folder / f"{engine}-index").iterdir()
        return None, sum(f.stat().st_size for f in files)
    return None
