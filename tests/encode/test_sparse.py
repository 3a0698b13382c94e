"""Stacking shards: equal to scipy's vstack over the union vocabulary, one file at a time."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
import scipy.sparse as sp

from sparsebench.core.csrfiles import save_csr
from sparsebench.core.errors import DataError
from sparsebench.encode.sparse import stack_npz_files


def test_union_vocabulary_stack_equals_a_dense_reference(tmp_path):
    rng = np.random.default_rng(0)
    vocabularies = [
        sorted(rng.choice(list("abcdefghij"), size=n, replace=False)) for n in (4, 6, 3)
    ]
    union = sorted(set().union(*vocabularies))
    paths, terms, dense_rows = [], [], []
    for i, vocabulary in enumerate(vocabularies):
        matrix = sp.random(
            5, len(vocabulary), density=0.5, random_state=i, format="csr", dtype=np.float32
        )
        save_csr(tmp_path / f"{i}.npz", matrix)
        paths.append(str(tmp_path / f"{i}.npz"))
        terms.append(pa.array(vocabulary, type=pa.string()))
        wide = np.zeros((5, len(union)), np.float32)
        wide[:, [union.index(t) for t in vocabulary]] = matrix.toarray()
        dense_rows.append(wide)
    stacked = stack_npz_files(paths, terms)
    assert stacked.terms.to_pylist() == union
    np.testing.assert_array_equal(stacked.matrix.toarray(), np.vstack(dense_rows))
    assert stacked.matrix.has_sorted_indices or stacked.matrix.copy().has_sorted_indices


def test_shared_vocabulary_is_stacked_as_is(tmp_path):
    terms = pa.array(["[PAD]", "z", "a"], type=pa.string())  # a tokenizer's order, unsorted
    matrices = [
        sp.random(3, 3, density=0.6, random_state=i, format="csr", dtype=np.float32)
        for i in range(2)
    ]
    for i, matrix in enumerate(matrices):
        save_csr(tmp_path / f"{i}.npz", matrix)
    stacked = stack_npz_files([str(tmp_path / "0.npz"), str(tmp_path / "1.npz")], [terms, terms])
    np.testing.assert_array_equal(stacked.matrix.toarray(), sp.vstack(matrices).toarray())
    assert stacked.terms.equals(terms)


def test_unsorted_different_vocabularies_are_refused(tmp_path):
    for i in range(2):
        save_csr(tmp_path / f"{i}.npz", sp.csr_matrix(np.ones((1, 2), np.float32)))
    with pytest.raises(DataError, match="sorted"):
        stack_npz_files(
            [str(tmp_path / "0.npz"), str(tmp_path / "1.npz")],
            [pa.array(["b", "a"]), pa.array(["a", "c"])],
        )
