"""Sparse matrices (corpus and query encodings, term weights) on disk in scipy's .npz
layout, written atomically. Apart from fileio so that what only reads text files (the
metric command line) does not import scipy.sparse."""

from __future__ import annotations

import os

import numpy as np
import scipy.sparse as sp

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path
from sparsebench.core.npzmembers import mapped_members


def save_csr(path: str | os.PathLike, matrix: sp.csr_matrix | sp.csr_array) -> None:
    """Save a CSR matrix in scipy's .npz layout (readable by scipy.sparse.load_npz)."""
    with atomic_path(path) as tmp:
        sp.save_npz(tmp, sp.csr_matrix(matrix), compressed=False)


def load_csr(path: str | os.PathLike) -> sp.csr_matrix:
    matrix = sp.load_npz(path)
    return sp.csr_matrix(matrix)


def map_csr(path: str | os.PathLike) -> sp.csr_matrix:
    """A CSR matrix of save_csr's over a memory map of its file: its pages are read as
    rows are used and none is copied, so a reader of a few rows of a corpus (feedback's
    documents) holds those rows, not the corpus, in memory."""
    members = mapped_members(path, aligned=False)
    if members.get("format", np.array(b"")).item() != b"csr":
        raise DataError(f"{path}: not a CSR matrix as save_csr writes one")
    matrix = sp.csr_matrix(tuple(int(n) for n in members["shape"]))
    matrix.data, matrix.indices, matrix.indptr = (
        members["data"],
        members["indices"],
        members["indptr"],
    )
    return matrix
