"""Compact, memory-mapped postings (sparsebench.search.postings): the narrowest exact
type, no copy on load, and retrieval over them equal to retrieval over float64."""

from __future__ import annotations

import os
import zipfile

import numpy as np
import pytest
import scipy.sparse as sp

from sparsebench.core.errors import DataError
from sparsebench.runs.runfile import RunLines
from sparsebench.search import dense_rows as dense_rows_module
from sparsebench.search.dense_loop import dense_weight, pack_bit_vectors
from sparsebench.search.dense_rows import GROUP, LANES, DenseRows, dense_rows
from sparsebench.search.postings import BLOCK_DOCS, load_postings
from sparsebench.search.postings_build import compact_weights, save_postings
from sparsebench.search.products import block_product
from sparsebench.search.row_directory import DIRECTORY_ARRAYS, LONG
from sparsebench.search.scipy_backend import retrieve


def documents(seed: int, scale: float | None) -> sp.csr_matrix:
    matrix = sp.random(3000, 400, density=0.03, format="csr", random_state=seed, dtype=np.float64)
    if scale is not None:  # integer impacts
        matrix.data = np.rint(matrix.data * scale)
    else:
        matrix.data = matrix.data.astype(np.float32).astype(np.float64)
    matrix.eliminate_zeros()
    return matrix


def mapped_root(array: np.ndarray) -> object:
    while getattr(array, "base", None) is not None:
        array = array.base
    return array


@pytest.mark.parametrize(
    ("scale", "dtype", "weight_bytes"),
    [(200, np.uint8, 1), (3000, np.uint16, 2), (None, np.float32, 4)],
)
@pytest.mark.parametrize("n_docs", [3000, BLOCK_DOCS + 1, 5 * BLOCK_DOCS + 17])
def test_weights_and_ids_take_the_narrowest_exact_type_and_load_mapped(
    tmp_path, scale, dtype, weight_bytes, n_docs
):
    # the same postings in a corpus of n_docs: the documents spread over every block
    matrix = _spread(documents(1, scale), n_docs)
    path = tmp_path / "postings.npz"
    save_postings(path, matrix)
    postings = load_postings(path)
    assert postings.data.dtype == dtype and postings.shape == (400, n_docs)
    assert postings.ids.dtype == np.uint16 and postings.n_blocks == -(-n_docs // BLOCK_DOCS)
    directory = postings.directory
    for array in (postings.data, postings.ids, postings.row_max, directory.groups):
        assert type(mapped_root(array)).__name__ == "mmap"  # no copy of the index
        assert array.ctypes.data % 64 == 0  # each member's data start 64-byte aligned
    with zipfile.ZipFile(path) as archive:  # the padded headers: still a valid archive
        assert archive.testzip() is None
    with np.load(path) as stored:
        assert np.array_equal(stored["ids"], postings.ids)
    widened = postings.documents()
    assert widened.dtype == np.float64 and (widened != matrix).nnz == 0
    # per term and block: a length code (half a byte, 2 more bytes for a long list), a
    # largest weight and a share of its group's record (16 bytes beside the codes); per
    # block a bit and a word's share of a row count per term; and the zip's headers (a
    # few hundred bytes for each of its 16 members)
    rows, words = directory.n_rows, -(-400 // 64)
    overhead = 6_000 + (0.5 + weight_bytes) * rows + 2 * len(directory.long_lengths)
    overhead += 32 * (rows // 32 + 2)
    overhead += postings.n_blocks * (12 * words + 8)
    assert postings.row_max.dtype == dtype
    for block in range(postings.n_blocks):  # row_max: each list's largest weight, exactly
        lists = postings.block_lists(block, widen=False)
        first = int(directory.block_rows[block])
        largest = postings.row_max[first : first + lists.shape[0]]
        assert np.array_equal(largest, lists.max(axis=1).toarray().ravel())
    assert os.path.getsize(path) <= (weight_bytes + 2) * matrix.nnz + overhead
    last = postings.n_blocks - 1
    lists = postings.block_lists(last, np.array([0, 2]))
    held = postings.block_terms(last)[[0, 2]]
    expected = sp.csr_matrix(matrix[last * BLOCK_DOCS :].T)[held]
    assert lists.indices.dtype == np.int32 and (lists != expected).nnz == 0
    pairs = matrix.tocoo()
    assert np.array_equal(postings.weights_at(pairs.col, pairs.row), pairs.data)
    absent = np.flatnonzero(matrix[:, 0].toarray().ravel() == 0)[[0, -1]]
    assert postings.weights_at(np.zeros(2, int), absent).tolist() == [0.0, 0.0]
    unused = np.setdiff1d(np.arange(400), matrix.indices)[:1]
    if len(unused):
        assert postings.weights_at(unused, np.array([n_docs - 1])).tolist() == [0.0]


def _spread(matrix: sp.csr_matrix, n_docs: int) -> sp.csr_matrix:
    """The rows of `matrix` as documents spread over n_docs (the others empty)."""
    rows = np.linspace(0, n_docs - 1, matrix.shape[0]).astype(np.int64)
    coo = matrix.tocoo()
    return sp.csr_matrix((coo.data, (rows[coo.row], coo.col)), shape=(n_docs, matrix.shape[1]))


def test_a_postings_file_of_another_layout_is_refused(tmp_path):
    path = tmp_path / "postings.npz"
    sp.save_npz(path, sp.csr_matrix(documents(1, None).T), compressed=False)
    with pytest.raises(DataError, match="not a postings file of this version"):
        load_postings(path)
    matrix = sp.csr_matrix(documents(1, None).T)  # the layout before blocks
    np.savez(path, layout=np.array("sparsebench-postings-1"), indptr=matrix.indptr)
    with pytest.raises(DataError, match="not a postings file of this version"):
        load_postings(path)


def test_a_damaged_postings_file_is_refused(tmp_path):
    path = tmp_path / "postings.npz"
    save_postings(path, documents(1, None))
    with np.load(path) as stored:
        members = dict(stored)
    for name, damaged in (
        ("groups", members["groups"][:-1]),
        ("long_lengths", members["long_lengths"][:-1]),
        ("term_words", members["term_words"] ^ np.uint64(1 << 5)),  # a term's bit flipped
        ("groups", members["groups"] + np.uint64(1)),
        ("row_max", members["row_max"].astype(np.float64)),
        ("ids", members["ids"][:-1]),
    ):
        np.savez(path, **{**members, name: damaged})
        with pytest.raises(DataError, match="do not fit together"):
            load_postings(path)


def packed_documents(n_docs: int, seed: int) -> sp.csr_matrix:
    """Integer weights over n_docs: frequent terms (long lists, packed), rare ones (short
    lists, kept), weights up to 3000 (uint16), some lists of one repeated weight."""
    rng = np.random.default_rng(seed)
    terms = np.minimum(rng.zipf(1.3, 60 * n_docs // 10), 500) - 1
    docs = rng.integers(0, n_docs, len(terms))
    weights = rng.integers(1, 3001, len(terms)).astype(np.float64)
    weights[terms == 3] = 17  # a list of one weight: its chunks' weights take no bits
    matrix = sp.csr_matrix((weights, (docs, terms)), shape=(n_docs, 500))
    matrix.sum_duplicates()
    matrix.data = np.minimum(matrix.data, 3000)
    return matrix


@pytest.mark.parametrize("n_docs", [2000, 2 * BLOCK_DOCS + 300])
def test_packed_postings_hold_the_same_lists_in_fewer_bytes(tmp_path, n_docs):
    matrix = packed_documents(n_docs, seed=n_docs)
    plain_path, packed_path = tmp_path / "plain.npz", tmp_path / "packed.npz"
    save_postings(plain_path, matrix)
    save_postings(packed_path, matrix, packed=True)
    plain, packed = load_postings(plain_path), load_postings(packed_path)
    assert plain.packed is None and packed.packed.n_chunks > 0
    assert packed.nnz == plain.nnz == matrix.nnz and len(packed.data) < matrix.nnz
    assert (packed.documents() != matrix).nnz == 0
    assert packed.data.dtype == packed.row_max.dtype == packed.packed.base.dtype == np.uint16
    for block in range(packed.n_blocks):
        assert (packed.block_lists(block) != plain.block_lists(block)).nnz == 0
        rows = np.array([0, 3, 1])
        assert np.array_equal(packed.block_lengths(block, rows), plain.block_lengths(block, rows))
    assert np.array_equal(packed.document_frequencies(), plain.document_frequencies())
    assert packed.bound_tightness == plain.bound_tightness
    rng = np.random.default_rng(2)
    coo = matrix.tocoo()
    terms = np.concatenate([coo.col[:500], rng.integers(0, 500, 500)])
    docs = np.concatenate([coo.row[:500], rng.integers(0, n_docs, 500)])
    assert np.array_equal(packed.weights_at(terms, docs), plain.weights_at(terms, docs))
    assert np.array_equal(packed.weights_at(terms, docs), np.asarray(matrix[docs, terms]).ravel())
    # ids delta-coded and weights bit-packed: about half the bytes of 2 + 2 a posting
    lists = packed.packed.stream.nbytes + packed.ids.nbytes + packed.data.nbytes
    assert lists < 0.7 * 4 * matrix.nnz
    mapped = packed.packed.stream
    assert type(mapped_root(mapped)).__name__ == "mmap" and mapped.ctypes.data % 64 == 0


def test_packed_postings_need_integer_weights(tmp_path):
    with pytest.raises(DataError, match="packed postings need integer weights from 0 to 65535"):
        save_postings(tmp_path / "postings.npz", documents(1, None), packed=True)
    too_large = documents(1, 70_000)
    with pytest.raises(DataError, match="packed postings need integer weights"):
        save_postings(tmp_path / "postings.npz", too_large, packed=True)
    assert not (tmp_path / "postings.npz").exists()


def test_damaged_packed_rows_are_refused(tmp_path):
    path = tmp_path / "postings.npz"
    save_postings(path, packed_documents(3000, seed=4), packed=True)
    with np.load(path) as stored:
        members = dict(stored)
    for name, damaged in (
        ("stream", members["stream"][:-1]),
        ("chunk_id_bits", members["chunk_id_bits"][:-1]),
        ("chunk_weight_bits", np.full_like(members["chunk_weight_bits"], 17)),
        ("chunk_base", members["chunk_base"].astype(np.uint8)),
    ):
        np.savez(path, **{**members, name: damaged})
        with pytest.raises(DataError, match="do not fit together"):
            load_postings(path)


# terms 0-4's shares of the documents: dense rows for every weight type (0.9, 0.75),
# for uint8 and uint16 weights only (0.6, under float32's two thirds), for uint8 only
# (0.4, under uint16's half) and for none (0.25, under uint8's third)
DENSE_TERM_SHARES = (0.9, 0.75, 0.6, 0.4, 0.25)
DENSE_TERMS = {200: 4, 3000: 3, None: 2}  # how many of those terms are dense, by scale


def dense_documents(n_docs: int, seed: int, scale: float | None) -> sp.csr_matrix:
    """Terms 0-4 in DENSE_TERM_SHARES of the documents, the rest in a few; integer
    weights up to `scale` or float32 ones, explicit zeros among them."""
    rng = np.random.default_rng(seed)
    parts = []
    for term, share in enumerate(DENSE_TERM_SHARES):
        docs = np.flatnonzero(rng.random(n_docs) < share)
        parts.append((docs, np.full(len(docs), term)))
    terms = rng.integers(len(DENSE_TERM_SHARES), 304, 10 * n_docs)
    parts.append((rng.integers(0, n_docs, len(terms)), terms))
    docs, terms = (np.concatenate(column) for column in zip(*parts, strict=True))
    weights = rng.random(len(docs)) + 0.01
    weights = np.rint(weights * scale) if scale else weights.astype(np.float32)
    matrix = sp.csr_matrix((weights.astype(np.float64), (docs, terms)), shape=(n_docs, 304))
    matrix.sum_duplicates()
    matrix.data = np.minimum(matrix.data, scale) if scale else matrix.data.astype(np.float32)
    matrix.data[::97] = 0.0  # explicit zeros: no postings
    return matrix


@pytest.mark.parametrize("scale", [200, 3000, None], ids=["uint8", "uint16", "float32"])
@pytest.mark.parametrize("n_docs", [2000, 2 * BLOCK_DOCS + 300])
def test_dense_rows_hold_the_same_lists_in_fewer_bytes(tmp_path, n_docs, scale):
    matrix = dense_documents(n_docs, n_docs, scale)
    path = tmp_path / "postings.npz"
    save_postings(path, matrix)
    postings = load_postings(path)
    nonzero = sp.csr_matrix(matrix)
    nonzero.eliminate_zeros()
    n_blocks = -(-n_docs // BLOCK_DOCS)
    n_dense = DENSE_TERMS[scale]  # the first n_dense terms dense in every block
    frequencies = np.bincount(nonzero.indices, minlength=nonzero.shape[1])
    assert len(postings.dense.values) == n_dense * n_docs
    assert postings.nnz == nonzero.nnz
    assert len(postings.data) == nonzero.nnz - frequencies[:n_dense].sum()
    assert (postings.documents(widen=False) != nonzero).nnz == 0
    assert np.array_equal(postings.document_frequencies(), frequencies)
    for block in range(n_blocks):
        expected = sp.csr_matrix(nonzero[block * BLOCK_DOCS : (block + 1) * BLOCK_DOCS].T)
        lists = postings.block_lists(block, widen=False)
        assert (lists != expected[postings.block_terms(block)]).nnz == 0
        rows = np.array([0, 4, 2, 3, 1])  # the plain row among dense ones (some types)
        assert np.array_equal(postings.block_lengths(block, rows), frequencies_in(expected, rows))
    rng = np.random.default_rng(3)
    coo = nonzero.tocoo()
    terms = np.concatenate([coo.col[:500], rng.integers(0, 304, 500), [0, 3, 0, 3]])
    docs = np.concatenate([coo.row[:500], rng.integers(0, n_docs, 500), [0, 0] + [n_docs - 1] * 2])
    expected = np.asarray(matrix[docs, terms]).ravel()
    assert np.array_equal(postings.weights_at(terms, docs), expected)
    # a dense row: a weight a document; its postings would take 2 bytes more each
    weight_bytes = postings.data.itemsize
    dense_bytes = postings.dense.values.nbytes
    assert dense_bytes <= (2 + weight_bytes) * int(frequencies[:n_dense].sum())


def frequencies_in(term_major: sp.csr_matrix, rows: np.ndarray) -> np.ndarray:
    return np.diff(term_major.indptr)[rows]


@pytest.mark.parametrize(
    ("weight_type", "edge", "block_edge"),
    [(np.uint8, 20, 21_846), (np.uint16, 30, 32_768), (np.float32, 40, 43_691)],
)
def test_a_row_is_dense_from_where_its_vector_takes_no_more_bytes(weight_type, edge, block_edge):
    """A third of the block for uint8 weights, a half for uint16, two thirds for
    float32; and only rows coded LONG (16 postings or more)."""
    widths = np.array([60, 60, 60, 65_536, 65_536, 16, 15])
    lengths = np.array([edge, edge - 1, 60, block_edge, block_edge - 1, 16, 15])
    dense = dense_rows(lengths, widths, np.dtype(weight_type)).tolist()
    assert dense == [True, False, True, True, False, True, False]


def test_damaged_dense_rows_are_refused(tmp_path):
    path = tmp_path / "postings.npz"
    save_postings(path, dense_documents(3000, 5, 200))
    with np.load(path) as stored:
        members = dict(stored)
    assert len(members["dense"]) == DENSE_TERMS[200] * 3000
    for damaged in (members["dense"][:-1], members["dense"].astype(np.uint16)):
        np.savez(path, **{**members, "dense": damaged})
        with pytest.raises(DataError, match="do not fit together"):
            load_postings(path)


def test_a_bit_vector_holds_each_weight_where_its_layout_says():
    """dense_rows' layout, by hand: document d of a group of GROUP is value d // LANES
    of lane d % LANES, each lane's values `bits` wide from the low bits of its words on,
    a group `bits` words a lane; a block of 9,000 documents takes two groups."""
    width, bits = 9000, 5
    rng = np.random.default_rng(8)
    ids = np.sort(rng.choice(width, 4000, replace=False)).astype(np.uint16)
    weights = rng.integers(1, 1 << bits, len(ids)).astype(np.uint8)
    weights[[0, -1]] = (1 << bits) - 1  # the widest value at both ends
    groups = -(-width // GROUP)
    expected = np.zeros(groups * bits * LANES + LANES, dtype=np.uint32)
    for doc, weight in zip(ids.tolist(), weights.tolist(), strict=True):
        group, value, lane = doc // GROUP, doc // LANES % (GROUP // LANES), doc % LANES
        for bit in range(bits):  # one bit at a time: bit b of the lane's stream
            if weight >> bit & 1:
                at = value * bits + bit
                expected[(group * bits + at // 32) * LANES + lane] |= np.uint32(1 << at % 32)
    words = np.zeros_like(expected)
    lengths = np.array([len(ids)])
    written = pack_bit_vectors(
        ids, weights, np.zeros(1, int), lengths, np.array([bits]), width, words
    )
    assert written == groups * bits * LANES and np.array_equal(words, expected)
    positions, size = np.array([bits, -1]), len(words)  # the row at word 0, then a packed one
    dense = DenseRows(words, positions, size, bit_packed=True)
    assert dense.fits()
    found_ids, found = dense.postings(np.array([bits]), width)
    assert np.array_equal(found_ids, ids) and np.array_equal(found, weights)
    local = np.array([0, 1, 255, 256, 8191, 8192, 8999])
    held = np.zeros(width, dtype=np.int64)
    held[ids] = weights
    assert np.array_equal(dense.weights(np.full(len(local), bits), local), held[local])
    as_packed = (0,)  # the compiled read of packed postings (any `packed` but None)
    compiled = [int(dense_weight(words, as_packed, bits, d)) for d in local.tolist()]
    assert compiled == held[local].tolist()
    wider = DenseRows(words, np.array([17]), size, bit_packed=True)
    assert not wider.fits()  # more bits a document than a weight of packed postings has


@pytest.mark.parametrize("scale", [200, 3000], ids=["uint8", "uint16"])
@pytest.mark.parametrize("n_docs", [9000, 2 * BLOCK_DOCS + 300])
def test_packed_postings_keep_full_rows_as_bit_vectors(tmp_path, monkeypatch, n_docs, scale):
    """A packed row is a bit vector where that takes at most twice its chunks' bytes
    (the chunks measured in postings built without bit vectors) and the row holds half
    its block or more: the term in 90% of the documents in every block of a group or
    more (not in the last block of 300 documents, whose vector would be a whole group),
    not the one in 40%; the lists, frequencies and weights those of plain postings."""
    matrix = dense_documents(n_docs, n_docs, scale)
    plain_path, packed_path = tmp_path / "plain.npz", tmp_path / "packed.npz"
    save_postings(plain_path, matrix)
    save_postings(packed_path, matrix, packed=True)
    plain, packed = load_postings(plain_path), load_postings(packed_path)
    monkeypatch.setattr(dense_rows_module, "BIT_VECTOR_SHARE", 0)
    save_postings(tmp_path / "chunks.npz", matrix, packed=True)
    chunked = load_postings(tmp_path / "chunks.npz")
    assert (chunked.dense.positions < 0).all()
    chunks = chunked.packed
    header = 4 + packed.data.itemsize  # first id (2), two widths (1 each), base
    per_chunk = np.diff(chunks.chunk_at) + header
    row_bytes = np.add.reduceat(per_chunk, chunks.row_chunks[:-1])
    n_long = len(packed.directory.long_lengths)
    codes = packed.directory.codes(np.arange(packed.directory.n_rows))
    long_rows = np.flatnonzero(codes == LONG)
    blocks = np.searchsorted(packed.directory.block_rows, long_rows, side="right") - 1
    widths = np.minimum(BLOCK_DOCS, n_docs - blocks * BLOCK_DOCS)
    bits = np.array([int(packed.row_max[r]).bit_length() for r in long_rows])
    vector_bytes = -(-widths // GROUP) * bits * LANES * 4
    lengths = packed.directory.long_lengths.astype(np.int64) + 1
    expected = (vector_bytes <= 2 * row_bytes) & (2 * lengths >= widths)
    places = packed.dense.positions
    assert len(long_rows) == n_long and np.array_equal(places >= 0, expected)
    assert np.array_equal(places[expected] & 31, bits[expected])
    terms = np.concatenate([packed.block_terms(b) for b in range(packed.n_blocks)])
    dense_terms = terms[long_rows[expected]]
    full_groups = n_docs // GROUP if n_docs < BLOCK_DOCS else n_docs // BLOCK_DOCS
    assert np.count_nonzero(dense_terms == 0) == full_groups and 3 not in dense_terms
    assert len(packed.dense.values) == int(vector_bytes[expected].sum()) // 4 + LANES
    assert packed.packed.n_chunks < chunks.n_chunks
    assert (packed.documents() != plain.documents()).nnz == 0
    for block in range(packed.n_blocks):
        assert (packed.block_lists(block) != plain.block_lists(block)).nnz == 0
        rows = np.array([0, 4, 2, 3, 1])
        assert np.array_equal(packed.block_lengths(block, rows), plain.block_lengths(block, rows))
    assert np.array_equal(packed.document_frequencies(), plain.document_frequencies())
    rng = np.random.default_rng(3)
    coo = matrix.tocoo()
    terms = np.concatenate([coo.col[:500], rng.integers(0, 304, 500), [0, 0, 4]])
    docs = np.concatenate([coo.row[:500], rng.integers(0, n_docs, 500), [0, n_docs - 1, 0]])
    assert np.array_equal(packed.weights_at(terms, docs), np.asarray(matrix[docs, terms]).ravel())


def test_damaged_bit_vectors_are_refused(tmp_path):
    path = tmp_path / "postings.npz"
    save_postings(path, dense_documents(9000, 5, 200), packed=True)
    with np.load(path) as stored:
        members = dict(stored)
    assert (members["dense_bits"] > 0).sum() >= 2
    for name, damaged in (
        ("dense", members["dense"][:-1]),
        ("dense", members["dense"].astype(np.uint16)),
        ("dense_bits", members["dense_bits"][:-1]),
        ("dense_bits", np.where(members["dense_bits"] > 0, 17, 0).astype(np.uint8)),
    ):
        np.savez(path, **{**members, name: damaged})
        with pytest.raises(DataError, match="do not fit together"):
            load_postings(path)


def test_weights_that_are_not_float32_values_are_refused():
    with pytest.raises(DataError, match="not float32 values"):
        compact_weights(np.array([0.1, 0.2], dtype=np.float64))
    assert compact_weights(np.array([1.0, 300.0])).dtype == np.uint16
    assert compact_weights(np.array([-1.0, 2.0])).dtype == np.float32


@pytest.mark.parametrize("scale", [200, None, "signed"])
def test_retrieval_over_blocks_writes_the_run_of_one_block(tmp_path, scale):
    """The same documents, alone in one block or spread over four among empty ones,
    give the same run file byte for byte: whether each block's touched lists are widened
    whole, in groups (a tiny budget) or once for all, on one thread or two, with a query
    whose own id is a document to skip."""
    matrix = documents(2, 200 if scale == 200 else None)
    if scale == "signed":
        matrix.data *= np.random.default_rng(0).choice([-1.0, 1.0], matrix.nnz)
    queries = documents(3, 200 if scale == 200 else None)[:60]
    doc_ids = np.array([f"d{i:04d}" for i in range(matrix.shape[0])], dtype=object)
    query_ids = np.array([f"q{i:03d}" for i in range(queries.shape[0])], dtype=object)
    spread = _spread(matrix, 3 * BLOCK_DOCS + 5)
    spread_ids = np.array([f"e{i:06d}" for i in range(spread.shape[0])], dtype=object)
    spread_ids[np.linspace(0, spread.shape[0] - 1, matrix.shape[0]).astype(np.int64)] = doc_ids
    save_postings(tmp_path / "one.npz", matrix)
    save_postings(tmp_path / "spread.npz", spread)

    def run(path, ids, **options) -> str:
        lines = RunLines(query_ids, ids, "m")
        return b"".join(
            lines.retrieved(start, batch)
            for start, batch in retrieve(
                queries, load_postings(path), np.ones(400), 10, ids, query_ids, **options
            )
        ).decode()

    query_ids[7] = run(tmp_path / "one.npz", doc_ids).split("q007 Q0 ")[1].split()[0]
    expected = run(tmp_path / "one.npz", doc_ids, ignore_identical_ids=True)
    assert expected.count("\n") == 600
    assert f"{query_ids[7]} Q0 {query_ids[7]} " not in expected  # its top document
    for options in (
        {"max_block_mb": 1024},
        {"max_block_mb": 8},  # widened a block at a time
        {"max_block_mb": 0.01},  # in groups
        {"max_block_mb": 1024, "threads": 2, "query_batch_size": 7},
    ):
        got = run(tmp_path / "spread.npz", spread_ids, ignore_identical_ids=True, **options)
        assert got == expected, options


@pytest.mark.parametrize("kernel", ["scipy's own", "the public product"])
def test_a_block_product_equals_the_float64_product(tmp_path, monkeypatch, kernel):
    if kernel == "the public product":  # a scipy without the private kernel
        monkeypatch.setattr("sparsebench.search.products._csr_matmat", None)
    matrix = _spread(documents(2, 3000), 2 * BLOCK_DOCS)
    queries = sp.csr_matrix(documents(3, 3000)[:60], dtype=np.float64)
    save_postings(tmp_path / "postings.npz", matrix)
    postings = load_postings(tmp_path / "postings.npz")
    expected = queries @ sp.csr_matrix(matrix.T, dtype=np.float64)
    for budget in (2**30, 500):  # whole, in groups
        for block in range(postings.n_blocks):
            product, _ = block_product(queries, postings, block, budget)
            assert product.dtype == np.float64
            part = expected[:, block * BLOCK_DOCS : (block + 1) * BLOCK_DOCS]
            assert abs(product - part).max() == 0


def test_postings_weighed_a_block_at_a_time_equal_the_weighed_matrix(tmp_path):
    """save_postings(weigh=...) weighs each block of rows on its own: the file equals the
    one of the whole matrix weighed at once, and no scratch file stays behind."""
    counts = _spread(documents(4, 9), 2 * BLOCK_DOCS + 3)

    def weigh(rows: sp.csr_matrix) -> sp.csr_matrix:  # row-local, like BM25's saturation
        weighed = rows.astype(np.float32)
        weighed.data = weighed.data / (weighed.data + np.float32(1.5))
        return weighed

    save_postings(tmp_path / "blocks.npz", counts, weigh)
    save_postings(tmp_path / "whole.npz", weigh(counts))
    blocks, whole = load_postings(tmp_path / "blocks.npz"), load_postings(tmp_path / "whole.npz")
    assert blocks.data.dtype == np.float32 and blocks.n_blocks == 3
    for name in DIRECTORY_ARRAYS:
        assert np.array_equal(getattr(blocks.directory, name), getattr(whole.directory, name))
    for name in ("ids", "data", "row_max"):
        assert np.array_equal(getattr(blocks, name), getattr(whole, name)), name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocks.npz", "whole.npz"]
    with pytest.raises(DataError, match="not float32 values"):
        save_postings(tmp_path / "bad.npz", counts, lambda rows: rows.astype(np.float64) / 3)
    assert not (tmp_path / "bad.npz").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocks.npz", "whole.npz"]
