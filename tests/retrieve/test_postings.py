"""Compact, memory-mapped postings (sparsebench.retrieve.postings): the narrowest exact
type, no copy on load, and retrieval over them equal to retrieval over float64."""

from __future__ import annotations

import io
import os

import numpy as np
import pytest
import scipy.sparse as sp

from sparsebench.errors import DataError
from sparsebench.retrieve.postings import compact_weights, load_postings, save_postings
from sparsebench.retrieve.runfile import write_retrieved
from sparsebench.retrieve.scipy_backend import retrieve, touched_product


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
@pytest.mark.parametrize(
    ("n_docs", "id_bytes"), [(3000, 2), ((1 << 16) + 1, 3), ((1 << 24) + 1, 4)]
)
def test_weights_and_ids_take_the_narrowest_exact_type_and_load_mapped(
    tmp_path, scale, dtype, weight_bytes, n_docs, id_bytes
):
    # the same postings in a corpus of n_docs: the documents spread over every id range
    matrix = _spread(documents(1, scale), n_docs)
    path = tmp_path / "postings.npz"
    save_postings(path, matrix)
    postings = load_postings(path)
    assert postings.data.dtype == dtype and postings.shape == (400, n_docs)
    stored = postings.ids.itemsize + (0 if postings.ids_high is None else 1)
    assert stored == id_bytes
    for array in (postings.data, postings.ids, postings.indptr):
        assert type(mapped_root(array)).__name__ == "mmap"  # no copy of the index
    assert (postings.lists() != matrix.T).nnz == 0
    assert postings.lists().dtype == np.float64 and postings.lists().indices.dtype == np.int32
    overhead = 3_000 + 4 * (postings.shape[0] + 1)  # the zip's headers and indptr
    assert os.path.getsize(path) <= (weight_bytes + id_bytes) * matrix.nnz + overhead
    terms = np.array([3, 17, 399])
    assert (postings.lists(terms) != sp.csr_matrix(matrix.T)[terms]).nnz == 0
    pairs = matrix.tocoo()
    assert np.array_equal(postings.weights_at(pairs.col, pairs.row), pairs.data)
    absent = np.flatnonzero(matrix[:, 0].toarray().ravel() == 0)[-1]
    assert postings.weights_at(np.array([0]), np.array([absent])).tolist() == [0.0]


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


def test_weights_that_are_not_float32_values_are_refused():
    with pytest.raises(DataError, match="not float32 values"):
        compact_weights(np.array([0.1, 0.2], dtype=np.float64))
    assert compact_weights(np.array([1.0, 300.0])).dtype == np.uint16
    assert compact_weights(np.array([-1.0, 2.0])).dtype == np.float32


@pytest.mark.parametrize("scale", [200, None])
def test_retrieval_over_compact_postings_writes_the_float64_run(tmp_path, scale):
    """The same run file, byte for byte, from the stored (narrow, mapped) postings as
    from float64 ones, with a budget small enough to widen the touched postings in many
    groups."""
    matrix = documents(2, scale)
    queries = documents(3, scale)[:60]
    path = tmp_path / "postings.npz"
    save_postings(path, matrix)
    doc_ids = np.array([f"d{i}" for i in range(matrix.shape[0])], dtype=object)
    query_ids = np.array([f"q{i:03d}" for i in range(queries.shape[0])], dtype=object)
    runs = []
    for postings, budget in (
        (sp.csr_matrix(matrix.T, dtype=np.float64), 1024),
        (load_postings(path), 1024),
        (load_postings(path), 0.01),
    ):
        out = io.StringIO()
        for start, batch in retrieve(
            queries, postings, np.ones(400), 10, doc_ids, query_ids, max_block_mb=budget
        ):
            write_retrieved(out, start, batch, query_ids, doc_ids, "m")
        runs.append(out.getvalue())
    assert runs[0] and runs[1] == runs[0] and runs[2] == runs[0]
    product = touched_product(queries, load_postings(path), budget_bytes=500)
    assert product.dtype == np.float64
    assert abs(product - queries @ sp.csr_matrix(matrix.T, dtype=np.float64)).max() < 1e-9
