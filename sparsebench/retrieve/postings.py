"""The postings retrieval searches: a term-major CSR matrix (terms x documents) of the
document weights, stored compactly and read by memory mapping.

Weights are stored in the narrowest type that holds them exactly: uint8 or uint16 for
integer impacts (quantised SPLADE, pre-encoded vectors, raw term counts), float32
otherwise (every weight here is a float32 value); document ids as int32 (int64 past 2^31
postings). The file is scipy's uncompressed .npz layout (scipy.sparse.load_npz reads
it), whose members load_postings maps in place: a retrieval job's memory is the pages
of the index it touches plus its batch budget, never a float64 copy of the index.
Retrieval widens the postings a batch touches to float64, where products of float32
values are exact (sparsebench.retrieve.exactscores).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from sparsebench.errors import DataError
from sparsebench.fileio import atomic_path

_INT32_MAX = np.iinfo(np.int32).max


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


def save_postings(path: str | Path, documents: sp.csr_matrix) -> None:
    """The term-major copy of document-major weights (documents x terms), compactly."""
    inverted = sp.csr_matrix(documents.T)
    inverted.sort_indices()
    index_type = np.int32 if inverted.nnz <= _INT32_MAX else np.int64
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez(
            handle,
            indices=inverted.indices.astype(index_type),
            indptr=inverted.indptr.astype(index_type),
            format=np.array(b"csr"),
            shape=np.array(inverted.shape),
            data=compact_weights(inverted.data),
        )


def load_postings(path: str | Path) -> sp.csr_matrix:
    """Postings as save_postings wrote them (terms x documents), their arrays mapped from
    the file (copied only if the file's members are compressed)."""
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
            if int(np.prod(shape)) == 0:
                arrays[name] = np.zeros(shape, dtype)
            else:
                arrays[name] = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape)
    kind = arrays.get("format", np.array(b"")).item()
    if (kind.decode("ascii") if isinstance(kind, bytes) else kind) != "csr":
        raise DataError(f"{path}: not a CSR matrix of postings")
    shape = tuple(int(n) for n in arrays["shape"])
    return sp.csr_matrix((arrays["data"], arrays["indices"], arrays["indptr"]), shape=shape)
