"""The postings retrieval searches: term-major posting lists (terms x documents) of the
document weights, stored compactly and read by memory mapping.

Weights are stored in the narrowest type that holds them exactly: uint8 or uint16 for
integer impacts (quantised SPLADE, pre-encoded vectors, raw term counts), float32
otherwise (every weight here is a float32 value). Document ids take the bytes the corpus
needs: 2 (uint16) up to 65,536 documents, 3 (a uint16 low part and a uint8 high part) up
to 16,777,216 (MS MARCO passage's 8.8M), else 4 (int32). Integer impacts thus take 3 to
5 bytes a posting and float weights 6 or 7, not the 12 of float64 weights with int32
ids. The file is an uncompressed .npz whose members load_postings maps in place: a
retrieval job's memory is the pages of the index it touches plus its batch budget,
never a widened copy of the index. Retrieval widens the lists a batch touches
(`Postings.lists`) to float64 weights, in which products of float32 values are exact
(sparsebench.retrieve.exactscores), and int32 ids.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from sparsebench.arrays import span_indices
from sparsebench.errors import DataError
from sparsebench.fileio import atomic_path

LAYOUT = "sparsebench-postings-1"  # the `layout` member of a postings file
_INT32_MAX = np.iinfo(np.int32).max
_LOW_BITS = 16
_SPLIT_IDS_UP_TO = 1 << 24  # documents whose ids fit a uint16 and a uint8
_NARROW = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.uint16))


@dataclass(frozen=True)
class Postings:
    """Posting lists of `shape` (terms, documents): term t's postings are entries
    indptr[t]:indptr[t + 1] of `ids` (document ids ascending; with `ids_high`, their low
    16 bits) and `data` (the weights, narrow: see compact_weights)."""

    shape: tuple[int, int]
    indptr: np.ndarray
    ids: np.ndarray
    ids_high: np.ndarray | None
    data: np.ndarray

    @property
    def nnz(self) -> int:
        return len(self.data)

    def list_lengths(self, terms: np.ndarray) -> np.ndarray:
        return (self.indptr[terms + 1] - self.indptr[terms]).astype(np.int64)

    def lists(self, terms: np.ndarray | None = None, widen: bool = True) -> sp.csr_matrix:
        """The posting lists of `terms` (every term by default), widened: a CSR matrix
        (terms x documents) of float64 weights (the stored ones if not `widen`) and int32
        (int64) ids."""
        if terms is None:
            positions, indptr = slice(None), self.indptr.astype(np.int64)
            n_rows = self.shape[0]
        else:
            starts = self.indptr[terms].astype(np.int64)
            ends = self.indptr[terms + 1].astype(np.int64)
            positions = span_indices(starts, ends)
            indptr = np.concatenate([[0], np.cumsum(ends - starts)])
            n_rows = len(terms)
        id_type = np.int32 if self.shape[1] <= _INT32_MAX else np.int64
        ids = self.ids[positions].astype(id_type)
        if self.ids_high is not None:
            ids |= self.ids_high[positions].astype(id_type) << _LOW_BITS
        data = self.data[positions].astype(np.float64 if widen else self.data.dtype)
        matrix = sp.csr_matrix((n_rows, self.shape[1]), dtype=data.dtype)
        matrix.data, matrix.indices, matrix.indptr = data, ids, indptr.astype(id_type)
        return matrix

    def weights_at(self, terms: np.ndarray, docs: np.ndarray) -> np.ndarray:
        """The weight of each (term, document) pair (0 where the term is absent): a few
        pairs, whose terms' lists are widened."""
        distinct, row = np.unique(terms, return_inverse=True)
        return np.asarray(self.lists(distinct)[row, docs], dtype=np.float64).ravel()

    def absolute(self) -> Postings:
        """The same lists with the weights' magnitudes."""
        return self if self.data.dtype.kind == "u" else replace(self, data=np.abs(self.data))


def compact_weights(data: np.ndarray) -> np.ndarray:
    """The weights in the narrowest type that holds each exactly."""
    if data.size == 0:
        return data.astype(np.uint8)
    low, high = float(data.min()), float(data.max())
    if low >= 0 and high <= np.iinfo(np.uint16).max and np.array_equal(data, np.rint(data)):
        return data.astype(np.uint8 if high <= np.iinfo(np.uint8).max else np.uint16)
    narrow = data.astype(np.float32)
    if not np.array_equal(narrow.astype(data.dtype), data):
        raise DataError("postings hold weights that are not float32 values")
    return narrow


def compact_ids(ids: np.ndarray, n_docs: int) -> tuple[np.ndarray, np.ndarray | None]:
    """Document ids in the bytes `n_docs` documents need: (ids or their low 16 bits,
    their high 8 bits or None)."""
    if n_docs <= 1 << _LOW_BITS:
        return ids.astype(np.uint16), None
    if n_docs <= _SPLIT_IDS_UP_TO:
        return ids.astype(np.uint16), (ids >> _LOW_BITS).astype(np.uint8)
    return ids.astype(np.int32 if n_docs <= _INT32_MAX else np.int64), None


def as_postings(matrix: sp.spmatrix | sp.sparray | Postings) -> Postings:
    """Term-major weights (terms x documents) as Postings, in memory: weights rounded once
    to float32 unless they are integer impacts or float32 already (as retrieval sums
    them), ids as they are."""
    if isinstance(matrix, Postings):
        return matrix
    matrix = sp.csr_matrix(matrix)
    if not matrix.has_sorted_indices:
        matrix = matrix.sorted_indices()  # a copy: the caller's matrix stays as it is
    data = matrix.data if matrix.data.dtype in _NARROW else matrix.data.astype(np.float32)
    return Postings(matrix.shape, matrix.indptr, matrix.indices, None, data)


def save_postings(path: str | Path, documents: sp.csr_matrix) -> None:
    """The term-major lists of document-major weights (documents x terms), compactly."""
    inverted = sp.csr_matrix(documents.T)
    inverted.sort_indices()
    n_terms, n_docs = inverted.shape
    ids, ids_high = compact_ids(inverted.indices, n_docs)
    members = {
        "layout": np.array(LAYOUT),
        "shape": np.array([n_terms, n_docs], dtype=np.int64),
        "indptr": inverted.indptr.astype(np.int32 if inverted.nnz <= _INT32_MAX else np.int64),
        "ids": ids,
        "data": compact_weights(inverted.data),
    }
    if ids_high is not None:
        members["ids_high"] = ids_high
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez(handle, **members)


def load_postings(path: str | Path) -> Postings:
    """Postings as save_postings wrote them, their arrays mapped from the file (copied
    only if the file's members are compressed)."""
    arrays = _mapped_members(path)
    if "layout" not in arrays or str(arrays["layout"][()]) != LAYOUT:
        raise DataError(
            f"{path}: not a postings file of this version ({LAYOUT}): run the term_weights "
            "stage again"
        )
    n_terms, n_docs = (int(n) for n in arrays["shape"])
    indptr, ids, data = arrays["indptr"], arrays["ids"], arrays["data"]
    ids_high = arrays.get("ids_high")
    if len(indptr) != n_terms + 1 or not len(ids) == len(data) == int(indptr[-1]):
        raise DataError(f"{path}: its arrays do not fit together (a damaged file?)")
    if ids_high is not None and len(ids_high) != len(ids):
        raise DataError(f"{path}: its arrays do not fit together (a damaged file?)")
    return Postings((n_terms, n_docs), indptr, ids, ids_high, data)


def _mapped_members(path: str | Path) -> dict[str, np.ndarray]:
    """The arrays of an .npz file: stored arrays mapped in place, others (compressed
    members, scalars) read."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            name = info.filename.removesuffix(".npy")
            if info.compress_type != zipfile.ZIP_STORED:
                with archive.open(info) as member:
                    arrays[name] = np.lib.format.read_array(member)
                continue
            with open(path, "rb") as handle:
                handle.seek(info.header_offset)
                local = handle.read(30)
                start = info.header_offset + 30 + int.from_bytes(local[26:28], "little")
                start += int.from_bytes(local[28:30], "little")
                handle.seek(start)
                version = np.lib.format.read_magic(handle)
                read_header = (
                    np.lib.format.read_array_header_1_0
                    if version == (1, 0)
                    else np.lib.format.read_array_header_2_0
                )
                shape, fortran, dtype = read_header(handle)
                offset = handle.tell()
            if dtype.hasobject or fortran:
                raise DataError(f"{path}: member {name} is not a plain array")
            if shape == ():
                with archive.open(info) as member:
                    arrays[name] = np.lib.format.read_array(member)
            elif int(np.prod(shape)) == 0:
                arrays[name] = np.zeros(shape, dtype)
            else:
                arrays[name] = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape)
    return arrays
