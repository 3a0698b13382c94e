"""Sparse matrices (corpus and query encodings, term weights) on disk in scipy's .npz
layout, written atomically. Apart from fileio so that what only reads text files (the
metric command line) does not import scipy.sparse."""

from __future__ import annotations

import os

import scipy.sparse as sp

from sparsebench.core.fileio import atomic_path


def save_csr(path: str | os.PathLike, matrix: sp.csr_matrix | sp.csr_array) -> None:
    """Save a CSR matrix in scipy's .npz layout (readable by scipy.sparse.load_npz)."""
    with atomic_path(path) as tmp:
        sp.save_npz(tmp, sp.csr_matrix(matrix), compressed=False)


def load_csr(path: str | os.PathLike) -> sp.csr_matrix:
    matrix = sp.load_npz(path)
    return sp.csr_matrix(matrix)
