"""Static pruning of document vectors equals a row-by-row reference, ties included."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sparsebench.encode import pruning
from sparsebench.encode.pruning import prune_rows


def reference(matrix: sp.csr_matrix, top_k: int | None, threshold: float) -> np.ndarray:
    """Row by row: weights above the threshold, the k largest, ties to the lower term id."""
    dense = matrix.toarray()
    out = np.zeros_like(dense)
    for r, row in enumerate(dense):
        candidates = [(-w, c) for c, w in enumerate(row) if w > threshold]
        for _, c in sorted(candidates)[: top_k if top_k is not None else len(candidates)]:
            out[r, c] = row[c]
    return out


@pytest.fixture
def tied_matrix() -> sp.csr_matrix:
    rng = np.random.default_rng(7)
    # few distinct values, so that rows have many ties; some empty rows
    dense = rng.choice([0, 0, 0, 0.5, 1.0, 1.5, 2.0], size=(60, 40)).astype(np.float32)
    dense[::9] = 0
    return sp.csr_matrix(dense)


@pytest.mark.parametrize(("top_k", "threshold"), [(1, 0.0), (3, 0.0), (5, 0.75), (None, 1.0)])
def test_equals_the_row_by_row_reference(tied_matrix, top_k, threshold, monkeypatch):
    expected = reference(tied_matrix, top_k, threshold)
    assert np.array_equal(prune_rows(tied_matrix, top_k, threshold).toarray(), expected)
    monkeypatch.setattr(pruning, "ROWS_PER_BLOCK", 7)  # many blocks give the same matrix
    pruned = prune_rows(tied_matrix, top_k, threshold)
    assert np.array_equal(pruned.toarray(), expected)
    assert pruned.has_sorted_indices and pruned.shape == tied_matrix.shape


def test_no_pruning_keeps_the_matrix(tied_matrix):
    assert (prune_rows(tied_matrix) != tied_matrix).nnz == 0
    assert prune_rows(sp.csr_matrix((0, 5), dtype=np.float32), top_k=2).shape == (0, 5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"top_k": 0}, "top_k must be at least 1"), ({"threshold": -1.0}, "non-negative")],
)
def test_bad_settings_are_refused(tied_matrix, kwargs, message):
    with pytest.raises(ValueError, match=message):
        prune_rows(tied_matrix, **kwargs)
