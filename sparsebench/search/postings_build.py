"""Postings built (sparsebench.search.postings's layout): in memory (build_postings,
as_postings) or written to a file a block of documents at a time (save_postings), the
weights in the narrowest type that holds each exactly (compact_weights), the rows that
hold most of their block dense (sparsebench.search.dense_rows) or, if asked, the long
rows packed (sparsebench.search.packed_rows)."""

from __future__ import annotations

import contextlib
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.core.arrays import span_indices
from sparsebench.core.bitpack import SLACK
from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path
from sparsebench.core.npzmembers import aligned_member, copy_member
from sparsebench.search.dense_rows import (
    LANES,
    WORD,
    WORD_BYTES,
    bit_vector_rows,
    bit_vector_words,
    dense_rows,
)
from sparsebench.search.docids import tie_break_keys
from sparsebench.search.packed_rows import CHUNK, CHUNK_ARRAYS, PACKED_FROM, PackedRows
from sparsebench.search.postings import (
    _NARROW,
    BLOCK_DOCS,
    LAYOUT,
    Postings,
    laid_out,
    packed_rows_of,
)
from sparsebench.search.row_directory import RowDirectory, build_directory


def compact_weights(data: np.ndarray) -> np.ndarray:
    """The weights in the narrowest type that holds each exactly."""
    kinds = _WeightKinds()
    return kinds.add(data).astype(kinds.narrowest())


Weigh = Callable[[sp.csr_matrix], sp.csr_matrix]


def _weighed_blocks(
    documents: sp.spmatrix | sp.sparray, weigh: Weigh | None
) -> Iterator[sp.csr_matrix]:
    """The documents' rows a block at a time, weighed by `weigh` if given, one entry per
    (document, term)."""
    documents = sp.csr_matrix(documents)
    for start in range(0, documents.shape[0], BLOCK_DOCS):
        part = documents[start : start + BLOCK_DOCS]
        weighed = sp.csr_matrix(weigh(part) if weigh is not None else part)
        weighed.sum_duplicates()
        yield weighed


def _weight_type(
    documents: sp.spmatrix | sp.sparray, weigh: Weigh | None, packed: bool
) -> np.dtype:
    """The narrowest type that holds every weight _blocks will give exactly (an error if
    one is not a float32 value, or, if `packed`, not an integer of at most 16 bits): a
    pass of its own ahead of the build, as which rows are dense depends on it."""
    kinds = _WeightKinds()
    for weighed in _weighed_blocks(documents, weigh):
        kinds.add(weighed.data, packed)
    return kinds.narrowest()


def _blocks(
    documents: sp.spmatrix | sp.sparray, weigh: Weigh | None
) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Per block of documents: (its documents, terms held, their list lengths, ids,
    weights (float32), each list's largest weight), the block's rows weighed by `weigh`
    first if given. A weight of zero is no posting (it adds nothing to a score, and a
    dense row could not tell it from an absent one)."""
    for weighed in _weighed_blocks(documents, weigh):
        inverted = sp.csr_matrix(weighed.T)  # sorted ids, one entry per (term, document)
        inverted.eliminate_zeros()
        counts = np.diff(inverted.indptr)
        held = np.flatnonzero(counts)
        data = inverted.data.astype(np.float32)
        largest = np.maximum.reduceat(data, inverted.indptr[held]) if len(held) else data[:0]
        yield (
            weighed.shape[0],
            held.astype(np.int32),
            counts[held],
            inverted.indices.astype(np.uint16),
            data,
            largest,
        )


class _Kept(NamedTuple):
    """A block's postings as stored: the ids and weights kept in the postings' arrays,
    the chunks of its packed rows (stream bytes, first ids, id widths, weight widths,
    bases), its dense rows' vectors one after another, which of its rows are kept apart,
    and, in packed postings, each long row's bits a document if it is dense (0 if it is
    packed; empty in plain postings)."""

    ids: np.ndarray
    data: np.ndarray
    chunks: tuple[np.ndarray, ...]
    dense: np.ndarray
    apart: np.ndarray
    dense_bits: np.ndarray


def _kept_apart(
    counts: np.ndarray,
    ids: np.ndarray,
    data: np.ndarray,
    width: int,
    packed: bool,
    weight_type: np.dtype,
) -> _Kept:
    """A block's postings (its rows' lengths, ids, weights as _blocks gives them,
    integers if `packed`; the block's documents) as stored, the weights and vectors in
    `weight_type` (_weight_type's: exact, and what decides which rows are dense)."""
    apart = counts >= PACKED_FROM if packed else dense_rows(counts, width, weight_type)
    narrow = data.astype(weight_type)
    if not apart.any():
        return _Kept(ids, narrow, _NO_CHUNKS, _no_vectors(packed, weight_type), apart, _NO_BITS)
    starts = np.cumsum(counts) - counts
    kept = span_indices(starts[~apart], starts[~apart] + counts[~apart])
    if packed:
        chunks, dense, dense_bits = _packed_rows(
            ids, data, narrow, starts[apart], counts[apart].astype(np.int64), width
        )
        return _Kept(ids[kept], narrow[kept], chunks, dense, apart, dense_bits)
    dense = np.zeros(int(apart.sum()) * width, weight_type)
    spans = span_indices(starts[apart], starts[apart] + counts[apart])
    vector = np.repeat(np.arange(int(apart.sum()), dtype=np.int64), counts[apart])
    dense[vector * width + ids[spans]] = narrow[spans]
    return _Kept(ids[kept], narrow[kept], _NO_CHUNKS, dense, apart, _NO_BITS)


def _packed_rows(
    ids: np.ndarray,
    data: np.ndarray,
    narrow: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    width: int,
) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """A block's long rows (their first postings and lengths) in packed postings: the
    chunks of those packed (packed_loop.pack_rows), the bit vectors of those kept dense
    (dense_rows.bit_vector_rows; dense_loop.pack_bit_vectors), and each
    row's bits a document if it is dense, else 0."""
    from sparsebench.search.dense_loop import pack_bit_vectors  # compiled: imported when used
    from sparsebench.search.packed_loop import pack_rows

    n_chunks = int((-(-lengths // CHUNK)).sum())
    stream = np.zeros(4 * int(lengths.sum()) + 2 * n_chunks, np.uint8)
    chunks = (
        np.zeros(n_chunks, np.uint16),
        np.zeros(n_chunks, np.uint8),
        np.zeros(n_chunks, np.uint8),
        np.zeros(n_chunks, np.uint16),
    )
    used, _ = pack_rows(ids, data, starts.astype(np.int64), lengths, stream, *chunks)
    rows = PackedRows.locate(stream[:used], *chunks, lengths)
    header = sum(array.itemsize for array in chunks[:3]) + narrow.itemsize
    row_bytes = np.add.reduceat(np.diff(rows.chunk_at) + header, rows.row_chunks[:-1])
    bits = np.frexp(np.maximum.reduceat(data, starts).astype(np.float64))[1]
    dense = bit_vector_rows(row_bytes, lengths, width, bits)
    kept = np.repeat(~dense, np.diff(rows.row_chunks))
    stream = stream[span_indices(rows.chunk_at[:-1][kept], rows.chunk_at[1:][kept])]
    words = np.zeros(int(bit_vector_words(width, bits[dense]).sum()) + LANES, WORD)
    written = pack_bit_vectors(
        ids, narrow, starts[dense], lengths[dense], bits[dense], width, words
    )
    dense_bits = np.where(dense, bits, 0).astype(np.uint8)
    # copies: the stream's bound (4 bytes a posting) is not held while the blocks add up
    return (stream, *(array[kept] for array in chunks)), words[:written], dense_bits


_NO_CHUNKS = (
    np.zeros(0, np.uint8),
    np.zeros(0, np.uint16),
    np.zeros(0, np.uint8),
    np.zeros(0, np.uint8),
    np.zeros(0, np.uint16),
)
_NO_BITS = np.zeros(0, np.uint8)


def _no_vectors(packed: bool, weight_type: np.dtype) -> np.ndarray:
    """No dense vector: of weights (plain postings) or of bit vectors' words (packed)."""
    return np.zeros(0, WORD if packed else weight_type)


# the stored types of the chunks' arrays (stream, then CHUNK_ARRAYS; the bases' kept as
# the weights')
_CHUNK_TYPES = tuple(array.dtype for array in _NO_CHUNKS)


def build_postings(documents: sp.spmatrix | sp.sparray, packed: bool = False) -> Postings:
    """Postings of document-major weights (documents x terms), in memory; `packed`: the
    long rows' postings bit-packed (integer weights of at most 16 bits only)."""
    held, lengths, largest, parts = [], [], [], []
    weight_type = _weight_type(documents, None, packed)
    for width, terms, counts, block_ids, block_data, maxima in _blocks(documents, None):
        held.append(terms)
        lengths.append(counts)
        largest.append(maxima)
        parts.append(_kept_apart(counts, block_ids, block_data, width, packed, weight_type))
    n_terms = documents.shape[1]
    apart = [part.apart for part in parts]
    vectors = [_no_vectors(packed, weight_type), *(part.dense for part in parts)]
    if packed:
        vectors.append(np.zeros(LANES, WORD))
    directory, dense = laid_out(
        RowDirectory(n_terms, **build_directory(n_terms, held, lengths, apart)),
        documents.shape[0],
        packed,
        np.concatenate(vectors),
        weight_type,
        np.concatenate([_NO_BITS, *(part.dense_bits for part in parts)]),
    )
    joined = [
        np.concatenate([empty, *(part.chunks[i] for part in parts)])
        for i, empty in enumerate(_NO_CHUNKS)
    ]
    joined[0] = np.concatenate([joined[0], np.zeros(SLACK, np.uint8)])
    joined[-1] = joined[-1].astype(weight_type)
    return Postings(
        (n_terms, documents.shape[0]),
        directory,
        np.concatenate([np.zeros(0, np.uint16), *(part.ids for part in parts)]),
        np.concatenate([np.zeros(0, weight_type), *(part.data for part in parts)]),
        np.concatenate([np.zeros(0, np.float32), *largest]).astype(weight_type),
        packed=packed_rows_of(directory, joined, dense) if packed else None,
        dense=dense,
    )


def as_postings(matrix: sp.spmatrix | sp.sparray | Postings) -> Postings:
    """Term-major weights (terms x documents) as Postings, in memory: weights rounded once
    to float32 unless they are integer impacts or float32 already (as retrieval sums
    them)."""
    if isinstance(matrix, Postings):
        return matrix
    matrix = sp.csr_matrix(matrix)
    if matrix.dtype not in _NARROW:
        matrix = matrix.astype(np.float32)
    return build_postings(matrix.T)


def save_postings(
    path: str | Path,
    documents: sp.csr_matrix,
    weigh: Weigh | None = None,
    doc_ids: pa.Array | None = None,
    packed: bool = False,
) -> None:
    """The postings of document-major weights (documents x terms), compactly; with
    `weigh`, of weigh(rows) (a function of a block of rows: BM25 saturation, say); with
    the documents' ids, their tie keys (ranked once here rather than at every search);
    `packed`: the long rows' postings bit-packed (sparsebench.search.packed_rows;
    integer weights of at most 16 bits only).

    Built a block of documents at a time and written as it is built: ids, weights,
    chunks and dense rows (sparsebench.search.dense_rows) go to scratch files beside
    `path` (weights in their narrowest type, which a pass of its own finds first:
    _weight_type), then into the .npz. Memory is a block's, never the index's."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    keyed = {}
    if doc_ids is not None:
        if len(doc_ids) != documents.shape[0]:
            raise DataError(f"{len(doc_ids)} document ids for {documents.shape[0]} documents")
        keyed["tie_keys"] = tie_break_keys(doc_ids).astype(np.uint32)
    held, lengths, largest = [], [], []
    weight_type = _weight_type(documents, weigh, packed)
    stored = ("ids", "data", "stream", *CHUNK_ARRAYS, "dense", "dense_bits")
    apart = []
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".postings-") as scratch:
        files = {name: Path(scratch) / name for name in stored}
        with contextlib.ExitStack() as stack:
            outs = {name: stack.enter_context(open(file, "wb")) for name, file in files.items()}
            for width, terms, counts, ids, data, maxima in _blocks(documents, weigh):
                held.append(terms)
                lengths.append(counts)
                largest.append(maxima)
                part = _kept_apart(counts, ids, data, width, packed, weight_type)
                apart.append(part.apart)
                arrays = (part.ids, part.data, *part.chunks, part.dense, part.dense_bits)
                for name, array in zip(stored, arrays, strict=True):
                    outs[name].write(array.tobytes())
            outs["stream"].write(bytes(SLACK))
            if packed:  # the bit vectors' words to spare
                outs["dense"].write(bytes(LANES * WORD_BYTES))
        members = {
            "shape": np.array((documents.shape[1], documents.shape[0]), dtype=np.int64),
            "packed": np.array(packed),
            **build_directory(documents.shape[1], held, lengths, apart),
            "row_max": np.concatenate([np.zeros(0, np.float32), *largest]).astype(weight_type),
        }
        vectors = _no_vectors(packed, weight_type).dtype
        kept_types = (np.uint16, weight_type, *_CHUNK_TYPES[:-1], weight_type, vectors, np.uint8)
        stored_types = (np.uint16, weight_type, *_CHUNK_TYPES, vectors, np.uint8)
        with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as archive:
            for name, array in {"layout": np.array(LAYOUT), **members, **keyed}.items():
                with aligned_member(archive, name) as member:
                    np.lib.format.write_array(member, array)
            for name, stored_type, kept_type in zip(stored, stored_types, kept_types, strict=True):
                copy_member(archive, name, files[name], np.dtype(stored_type), np.dtype(kept_type))


class _WeightKinds:
    """What the weights seen so far allow: every one a float32 value (else an error),
    and whether all are integers in uint8 or uint16 range."""

    def __init__(self) -> None:
        self.low, self.high, self.integral = np.inf, -np.inf, True

    def add(self, data: np.ndarray, packed: bool = False) -> np.ndarray:
        """data as float32 (every weight a float32 value, else an error; if `packed`,
        integers of at most 16 bits, which bit-packing needs)."""
        narrow = data.astype(np.float32)
        if data.dtype not in _NARROW and not np.array_equal(narrow.astype(data.dtype), data):
            raise DataError("postings hold weights that are not float32 values")
        if len(narrow):
            self.low = min(self.low, float(narrow.min()))
            self.high = max(self.high, float(narrow.max()))
            self.integral = self.integral and bool(np.array_equal(narrow, np.rint(narrow)))
        if packed and self.narrowest() == np.float32:
            raise DataError(
                "packed postings need integer weights from 0 to 65535 (impacts, or weights "
                "quantised to 8 or 16 bits): these are not"
            )
        return narrow

    def narrowest(self) -> np.dtype:
        if self.low == np.inf:
            return np.dtype(np.uint8)
        if self.integral and self.low >= 0 and self.high <= np.iinfo(np.uint16).max:
            return np.dtype(np.uint8 if self.high <= np.iinfo(np.uint8).max else np.uint16)
        return np.dtype(np.float32)
