"""Sparse matrices with labelled columns: building, stacking and aligning vocabularies.

An encoder returns a CSR matrix whose columns are named by a term list. Shards encoded
independently may name different terms; `stack_labelled` puts them into one matrix over
the sorted union of their terms, remapping column ids with one vectorised lookup per
shard, so no pass over the corpus is needed to agree on a vocabulary beforehand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from sparsebench.core.errors import DataError


@dataclass(frozen=True)
class LabelledCSR:
    """A CSR matrix and the term that names each of its columns."""

    matrix: sp.csr_matrix
    terms: pa.Array

    def __post_init__(self) -> None:
        if self.matrix.shape[1] != len(self.terms):
            raise DataError(
                f"matrix has {self.matrix.shape[1]} columns but {len(self.terms)} terms"
            )


def counts_matrix(
    rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int, weights: np.ndarray | None = None
) -> sp.csr_matrix:
    """CSR of summed (row, col) occurrences, canonical (sorted indices, no duplicates)."""
    data = np.ones(len(rows), dtype=np.float32) if weights is None else weights.astype(np.float32)
    matrix = sp.csr_matrix((data, (rows, cols)), shape=(n_rows, n_cols), dtype=np.float32)
    matrix.sum_duplicates()
    matrix.sort_indices()
    return matrix


def _is_sorted_unique(terms: pa.Array) -> bool:
    if len(terms) < 2:
        return True
    return bool(pc.all(pc.less(terms[:-1], terms[1:])).as_py())


def stack_labelled(parts: Sequence[LabelledCSR]) -> LabelledCSR:
    """Vertically stack matrices, merging their vocabularies.

    Parts with identical term lists (e.g. a tokenizer vocabulary) are stacked as is; parts
    with different lists must each be sorted and are moved onto the sorted union.
    """
    if not parts:
        raise DataError("nothing to stack")
    first = parts[0].terms
    if all(p.terms.equals(first) for p in parts[1:]):
        return LabelledCSR(
            _vstack([p.matrix for p in parts], [None] * len(parts), len(first)), first
        )
    for part in parts:
        if not _is_sorted_unique(part.terms):
            raise DataError("parts with different vocabularies must list their terms sorted")
    union = pc.unique(pa.chunked_array([p.terms for p in parts], type=pa.string()))
    union = pc.take(union, pc.array_sort_indices(union))
    remaps = [pc.index_in(p.terms, value_set=union).to_numpy().astype(np.int32) for p in parts]
    return LabelledCSR(_vstack([p.matrix for p in parts], remaps, len(union)), union)


def _vstack(
    matrices: Sequence[sp.csr_matrix], remaps: Sequence[np.ndarray | None], n_cols: int
) -> sp.csr_matrix:
    """vstack into preallocated arrays: one copy of the output, one part at a time."""
    n_rows = sum(m.shape[0] for m in matrices)
    nnz = sum(m.nnz for m in matrices)
    index_dtype = np.int64 if max(nnz, n_cols) > np.iinfo(np.int32).max else np.int32
    data = np.empty(nnz, dtype=np.float32)
    indices = np.empty(nnz, dtype=index_dtype)
    indptr = np.empty(n_rows + 1, dtype=index_dtype)
    indptr[0] = 0
    row, pos = 0, 0
    for matrix, remap in zip(matrices, remaps, strict=True):
        rows, count = matrix.shape[0], matrix.nnz
        data[pos : pos + count] = matrix.data
        indices[pos : pos + count] = matrix.indices if remap is None else remap[matrix.indices]
        indptr[row + 1 : row + rows + 1] = matrix.indptr[1:] + pos
        row, pos = row + rows, pos + count
    return sp.csr_matrix((data, indices, indptr), shape=(n_rows, n_cols))


def union_vocabulary(terms: Sequence[pa.Array]) -> pa.Array:
    """The vocabulary shards are stacked over: their common term list when they all have
    the same one, else the sorted union (each shard's terms then sorted)."""
    first = terms[0]
    if all(t.equals(first) for t in terms[1:]):
        return first
    for listed in terms:
        if not _is_sorted_unique(listed):
            raise DataError("shards with different vocabularies must list their terms sorted")
    union = pc.unique(pa.chunked_array(list(terms), type=pa.string()))
    return pc.take(union, pc.array_sort_indices(union))


def stack_npz_files(
    paths: Sequence[str], terms: Sequence[pa.Array], vocabulary: pa.Array | None = None
) -> LabelledCSR:
    """Stack CSR .npz files (scipy layout) over the union of their vocabularies (or over
    `vocabulary`, which must hold every term of theirs: a part of a corpus stacked over
    the whole corpus's vocabulary), reading one file at a time into preallocated output
    arrays: peak memory is about one copy of the output plus one shard."""
    if not paths:
        raise DataError("nothing to stack")
    shapes = []
    for path in paths:
        with np.load(path) as archive:
            indptr = archive["indptr"]
            shapes.append((len(indptr) - 1, int(indptr[-1])))
    union = union_vocabulary(terms) if vocabulary is None else vocabulary
    remaps: list[np.ndarray | None] = []
    for listed in terms:
        if listed.equals(union):
            remaps.append(None)
            continue
        remap = pc.index_in(listed, value_set=union)
        if remap.null_count:
            raise DataError("a shard has terms that are not in the vocabulary it is stacked over")
        remaps.append(remap.to_numpy().astype(np.int64))
    n_rows, nnz = sum(r for r, _ in shapes), sum(n for _, n in shapes)
    index_dtype = np.int64 if max(nnz, len(union)) > np.iinfo(np.int32).max else np.int32
    data = np.empty(nnz, dtype=np.float32)
    indices = np.empty(nnz, dtype=index_dtype)
    indptr = np.zeros(n_rows + 1, dtype=index_dtype)
    row = pos = 0
    for path, (rows, count), remap in zip(paths, shapes, remaps, strict=True):
        with np.load(path) as archive:
            data[pos : pos + count] = archive["data"]
            shard_indices = archive["indices"]
            indices[pos : pos + count] = shard_indices if remap is None else remap[shard_indices]
            indptr[row + 1 : row + rows + 1] = archive["indptr"][1:] + pos
        row, pos = row + rows, pos + count
    return LabelledCSR(sp.csr_matrix((data, indices, indptr), shape=(n_rows, len(union))), union)


def align_columns(matrix: sp.csr_matrix, terms: pa.Array, vocabulary: pa.Array) -> sp.csr_matrix:
    """Move a matrix onto another vocabulary; columns whose term is absent are dropped."""
    target = pc.index_in(terms, value_set=vocabulary).to_numpy(zero_copy_only=False)
    target = np.where(np.isnan(target.astype(float)), -1, target).astype(np.int64)
    coo = matrix.tocoo()
    keep = target[coo.col] >= 0
    return counts_matrix(
        coo.row[keep], target[coo.col[keep]], matrix.shape[0], len(vocabulary), coo.data[keep]
    )


def iter_row_blocks(n_rows: int, block: int) -> Iterable[tuple[int, int]]:
    for start in range(0, n_rows, block):
        yield start, min(start + block, n_rows)
