"""The postings retrieval searches: the document weights as posting lists in blocks of
65,536 documents, stored compactly and read by memory mapping.

Each block is a term-major CSR matrix of its documents: the lists of the terms that
occur in it, ids local to the block (uint16, whatever the corpus size), the block's own
postings contiguous. Blocking serves two ends. Ids take 2 bytes in any corpus (MS MARCO
passage's 8.8M documents included). And a query batch's product over one block sums
into 65,536 accumulators, which stay in the CPU's cache, where a product over millions of
documents misses it at every posting and is slower (benchmarks/RESULTS.md,
"Measurements behind the code").

Weights are stored in the narrowest type that holds them exactly: uint8 or uint16 for
integer impacts (quantised SPLADE, pre-encoded vectors, raw term counts), float32
otherwise (every weight here is a float32 value). A posting thus takes 3 or 4 bytes for
integer impacts and 6 for float weights, against 12 for float64 weights with int32 ids,
plus a row per term and block it occurs in: its length and its largest weight, a few
bytes (sparsebench.search.row_directory). The file is an
uncompressed .npz whose members load_postings maps in place: a retrieval job's memory is
the pages of the index it touches plus its batch budget. Retrieval widens the lists a
batch touches in one block at a time (`Postings.block_lists`) to float64 weights, in
which products of float32 values are exact (sparsebench.search.exactscores), and
int32 ids.
"""

from __future__ import annotations

import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.core.arrays import span_indices
from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path
from sparsebench.core.npzmembers import aligned_member, copy_member, mapped_members
from sparsebench.search.docids import tie_break_keys
from sparsebench.search.row_directory import DIRECTORY_ARRAYS, RowDirectory, build_directory

LAYOUT = "sparsebench-postings-5"  # the `layout` member of a postings file
BLOCK_DOCS = 1 << 16  # documents per block: their ids within it fit a uint16
_NARROW = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.uint16))
_MEMBERS = ("shape", *DIRECTORY_ARRAYS, "ids", "data", "row_max")


@dataclass(frozen=True)
class Postings:
    """Posting lists of `shape` (terms, documents) in blocks of BLOCK_DOCS documents.

    Block b holds documents b * BLOCK_DOCS onwards; its lists are its rows, one per term
    that occurs in the block, in term order, found through `directory` (where each row's
    postings lie: sparsebench.search.row_directory). A row's postings are consecutive
    entries of `ids` (local to the block, ascending) and `data` (the weights, narrow: see
    compact_weights); row_max[r] is the largest of them (in the weights' type), the bound
    that dynamic pruning (sparsebench.search.compiled_search) puts on what the row adds to
    a score. tie_keys: each document's tie key (uint32; docids.tie_break_keys) when the
    postings were saved with their documents' ids, else None."""

    shape: tuple[int, int]
    directory: RowDirectory
    ids: np.ndarray
    data: np.ndarray
    row_max: np.ndarray
    tie_keys: np.ndarray | None = None

    @property
    def nnz(self) -> int:
        return len(self.data)

    @property
    def n_blocks(self) -> int:
        return len(self.directory.block_rows) - 1

    def block_width(self, block: int) -> int:
        return min(BLOCK_DOCS, self.shape[1] - block * BLOCK_DOCS)

    def block_terms(self, block: int) -> np.ndarray:
        """The terms that occur in `block`, ascending (its rows in order)."""
        return self.directory.block_terms(block)

    def block_rows_of(self, block: int, terms: np.ndarray) -> np.ndarray:
        """The row of each term in `block` (a position in block_terms(block)), -1 where
        the block lacks it."""
        rows = self.directory.rows_of(block, terms)
        return np.where(rows >= 0, rows - self.directory.block_rows[block], -1)

    def block_lengths(self, block: int, rows: np.ndarray) -> np.ndarray:
        """The list lengths of `rows` (positions in block_terms(block))."""
        return self.directory.lengths(int(self.directory.block_rows[block]) + rows)

    def block_span(self, block: int) -> tuple[int, int]:
        """(first posting, past the last) of the block's lists."""
        return self.directory.block_span(block)

    def block_nnz(self, block: int) -> int:
        start, stop = self.block_span(block)
        return stop - start

    def block_lists(
        self, block: int, rows: np.ndarray | None = None, widen: bool = True
    ) -> sp.csr_matrix:
        """The lists of `rows` (positions in block_terms(block); all by default) as a CSR
        matrix (rows x the block's documents) of float64 weights (the stored ones if not
        `widen`) and int32 ids local to the block."""
        if rows is None:
            indptr = self.directory.block_indptr(block)
            positions = slice(int(indptr[0]), int(indptr[-1]))
            indptr = indptr - indptr[0]
        else:
            first = int(self.directory.block_rows[block])
            starts, ends = self.directory.row_spans(first + np.asarray(rows, dtype=np.int64))
            positions = span_indices(starts, ends)
            indptr = np.concatenate([[0], np.cumsum(ends - starts)])
        data = self.data[positions].astype(np.float64 if widen else self.data.dtype)
        matrix = sp.csr_matrix((len(indptr) - 1, self.block_width(block)), dtype=data.dtype)
        matrix.data, matrix.indices = data, self.ids[positions].astype(np.int32)
        matrix.indptr = indptr.astype(np.int32)
        return matrix

    def documents(self, widen: bool = True) -> sp.csr_matrix:
        """Every document's weights, document-major (documents x terms): float64 weights
        (the stored ones if not `widen`)."""
        parts = []
        for block in range(self.n_blocks):
            lists = self.block_lists(block, widen=widen)
            lengths = np.diff(lists.indptr)
            counts = np.zeros(self.shape[0], dtype=np.int64)
            counts[self.block_terms(block)] = lengths
            indptr = np.concatenate([[0], np.cumsum(counts)])
            term_major = sp.csr_matrix(
                (lists.data, lists.indices, indptr), shape=(self.shape[0], lists.shape[1])
            )
            parts.append(sp.csr_matrix(term_major.T))
        if not parts:
            return sp.csr_matrix(self.shape[::-1], dtype=np.float64 if widen else self.data.dtype)
        return sp.csr_matrix(sp.vstack(parts, format="csr"))

    def document_frequencies(self) -> np.ndarray:
        """Postings per term over the whole index (int64, one per vocabulary term)."""
        counts = np.zeros(self.shape[0], dtype=np.int64)
        for block in range(self.n_blocks):
            counts[self.block_terms(block)] += np.diff(self.directory.block_indptr(block))
        return counts

    @cached_property
    def bound_tightness(self) -> float:
        """What a posting adds against its list's bound (row_max), on average over the
        first block's postings (a sample whose cost is bounded by the block, paid once per
        index: benchmarks/RESULTS.md, "Measurements behind the code"): near 1 for
        term-frequency weights, which saturate (BM25), low for learned weights with a long
        tail (SPLADE), whose bounds pass most documents on to MaxScore's lookups; 1 for a
        block without postings."""
        indptr = self.directory.block_indptr(0)
        if len(indptr) == 1 or indptr[-1] == indptr[0]:
            return 1.0
        # a block's rows are its terms that occur in it: no list is empty
        sums = np.add.reduceat(
            self.data[indptr[0] : indptr[-1]], indptr[:-1] - indptr[0], dtype=np.float64
        )
        first = int(self.directory.block_rows[0])
        bounds = self.row_max[first : first + len(sums)].astype(np.float64) * np.diff(indptr)
        return float(sums.sum() / bounds.sum())

    def row_weights(self, rows: np.ndarray, local: np.ndarray) -> np.ndarray:
        """The weight (float64) of each local document id in the row beside it (0 where
        the row does not hold it), found by bisecting every row's span at once."""
        starts, ends = self.directory.row_spans(rows)
        local = np.asarray(local, np.int64)
        found = search_sorted_spans(self.ids, starts, ends, local)
        present = found < ends
        present[present] = self.ids[found[present]] == local[present]
        weights = np.zeros(len(rows), dtype=np.float64)
        weights[present] = self.data[found[present]]
        return weights

    def weights_at(self, terms: np.ndarray, docs: np.ndarray) -> np.ndarray:
        """The weight of each (term, document) pair (0 where the term is absent), found by
        binary search: a few pairs, nothing widened."""
        docs = np.asarray(docs, np.int64)
        rows = self.directory.rows_of(docs // BLOCK_DOCS, terms)
        held = rows >= 0
        weights = np.zeros(len(rows), dtype=np.float64)
        weights[held] = self.row_weights(rows[held], docs[held] % BLOCK_DOCS)
        return weights


def search_sorted_spans(
    array: np.ndarray, lo: np.ndarray, hi: np.ndarray, values: np.ndarray
) -> np.ndarray:
    """Per value, the first position in array[lo:hi] (ascending) holding a value at
    least as large (hi if none): bisection of every span at once."""
    lo, hi = lo.copy(), hi.copy()
    while True:
        open_ = np.flatnonzero(lo < hi)
        if not len(open_):
            return lo
        middle = (lo[open_] + hi[open_]) // 2
        below = array[middle] < values[open_]
        lo[open_[below]] = middle[below] + 1
        hi[open_[~below]] = middle[~below]


def compact_weights(data: np.ndarray) -> np.ndarray:
    """The weights in the narrowest type that holds each exactly."""
    kinds = _WeightKinds()
    return kinds.add(data).astype(kinds.narrowest())


Weigh = Callable[[sp.csr_matrix], sp.csr_matrix]


def _blocks(
    documents: sp.spmatrix | sp.sparray, weigh: Weigh | None
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Per block of documents: (terms held, their list lengths, ids, weights as given,
    each list's largest weight), the block's rows weighed by `weigh` first if given."""
    documents = sp.csr_matrix(documents)
    for start in range(0, documents.shape[0], BLOCK_DOCS):
        part = documents[start : start + BLOCK_DOCS]
        inverted = sp.csr_matrix((weigh(part) if weigh is not None else part).T)
        inverted.sum_duplicates()  # sorted ids, one entry per (term, document)
        counts = np.diff(inverted.indptr)
        held = np.flatnonzero(counts)
        data = inverted.data
        largest = np.maximum.reduceat(data, inverted.indptr[held]) if len(held) else data[:0]
        yield (
            held.astype(np.int32),
            counts[held],
            inverted.indices.astype(np.uint16),
            data,
            largest.astype(np.float32),
        )


def build_postings(documents: sp.spmatrix | sp.sparray) -> Postings:
    """Postings of document-major weights (documents x terms), in memory."""
    blocks = list(_blocks(documents, None))
    held, lengths, ids, data, largest = ([block[i] for block in blocks] for i in range(5))
    n_terms = documents.shape[1]
    data = compact_weights(np.concatenate([np.zeros(0), *data]))
    return Postings(
        (n_terms, documents.shape[0]),
        RowDirectory(n_terms, **build_directory(n_terms, held, lengths)),
        np.concatenate([np.zeros(0, np.uint16), *ids]),
        data,
        np.concatenate([np.zeros(0, np.float32), *largest]).astype(data.dtype),
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
) -> None:
    """The postings of document-major weights (documents x terms), compactly; with
    `weigh`, of weigh(rows) (a function of a block of rows: BM25 saturation, say); with
    the documents' ids, their tie keys (ranked once here rather than at every search).

    Built a block of documents at a time and written as it is built: ids and weights go
    to scratch files beside `path` (weights as float32 until their narrowest type is
    known), then into the .npz. Memory is a block's, never the index's."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    keyed = {}
    if doc_ids is not None:
        if len(doc_ids) != documents.shape[0]:
            raise DataError(f"{len(doc_ids)} document ids for {documents.shape[0]} documents")
        keyed["tie_keys"] = tie_break_keys(doc_ids).astype(np.uint32)
    held, lengths, largest = [], [], []
    kinds = _WeightKinds()
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".postings-") as scratch:
        ids_file, data_file = Path(scratch) / "ids", Path(scratch) / "data"
        with open(ids_file, "wb") as ids_out, open(data_file, "wb") as data_out:
            for terms, counts, ids, data, maxima in _blocks(documents, weigh):
                held.append(terms)
                lengths.append(counts)
                largest.append(maxima)
                ids_out.write(ids.tobytes())
                data_out.write(kinds.add(data).tobytes())
        weight_type = kinds.narrowest()
        members = {
            "shape": np.array((documents.shape[1], documents.shape[0]), dtype=np.int64),
            **build_directory(documents.shape[1], held, lengths),
            "row_max": np.concatenate([np.zeros(0, np.float32), *largest]).astype(weight_type),
        }
        with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as archive:
            for name, array in {"layout": np.array(LAYOUT), **members, **keyed}.items():
                with aligned_member(archive, name) as member:
                    np.lib.format.write_array(member, array)
            for name, scratch_file, stored, kept in (
                ("ids", ids_file, np.uint16, np.uint16),
                ("data", data_file, np.float32, weight_type),
            ):
                copy_member(archive, name, scratch_file, np.dtype(stored), np.dtype(kept))


class _WeightKinds:
    """What the weights seen so far allow: every one a float32 value (else an error),
    and whether all are integers in uint8 or uint16 range."""

    def __init__(self) -> None:
        self.low, self.high, self.integral = np.inf, -np.inf, True

    def add(self, data: np.ndarray) -> np.ndarray:
        narrow = data.astype(np.float32)
        if data.dtype not in _NARROW and not np.array_equal(narrow.astype(data.dtype), data):
            raise DataError("postings hold weights that are not float32 values")
        if len(narrow):
            self.low = min(self.low, float(narrow.min()))
            self.high = max(self.high, float(narrow.max()))
            self.integral = self.integral and bool(np.array_equal(narrow, np.rint(narrow)))
        return narrow

    def narrowest(self) -> np.dtype:
        if self.low == np.inf:
            return np.dtype(np.uint8)
        if self.integral and self.low >= 0 and self.high <= np.iinfo(np.uint16).max:
            return np.dtype(np.uint8 if self.high <= np.iinfo(np.uint8).max else np.uint16)
        return np.dtype(np.float32)


def load_postings(path: str | Path) -> Postings:
    """Postings as save_postings wrote them, their arrays mapped from the file (copied
    only if the file's members are compressed)."""
    arrays = mapped_members(path)
    if "layout" not in arrays or str(arrays["layout"][()]) != LAYOUT:
        raise DataError(
            f"{path}: not a postings file of this version ({LAYOUT}): run the term_weights "
            "stage again"
        )
    if any(name not in arrays for name in _MEMBERS):
        raise DataError(f"{path}: members are missing (a damaged file?)")
    n_terms, n_docs = (int(n) for n in arrays["shape"])
    directory = RowDirectory(n_terms, *(arrays[name] for name in DIRECTORY_ARRAYS))
    ids, data, row_max = arrays["ids"], arrays["data"], arrays["row_max"]
    fits = (
        len(ids) == len(data)
        and len(row_max) == directory.n_rows
        and row_max.dtype == data.dtype
        and directory.check(-(-n_docs // BLOCK_DOCS), len(data))
    )
    tie_keys = arrays.get("tie_keys")
    if not fits or (tie_keys is not None and len(tie_keys) != n_docs):
        raise DataError(f"{path}: its arrays do not fit together (a damaged file?)")
    return Postings((n_terms, n_docs), directory, ids, data, row_max, tie_keys)
