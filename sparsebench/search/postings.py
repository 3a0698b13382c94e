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
plus a row (term id and offset) per term and block it occurs in. The file is an
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

LAYOUT = "sparsebench-postings-3"  # the `layout` member of a postings file
BLOCK_DOCS = 1 << 16  # documents per block: their ids within it fit a uint16
_INT32_MAX = np.iinfo(np.int32).max
_NARROW = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.uint16))
_MEMBERS = ("shape", "block_rows", "terms", "indptr", "ids", "data", "row_max")


@dataclass(frozen=True)
class Postings:
    """Posting lists of `shape` (terms, documents) in blocks of BLOCK_DOCS documents.

    Block b holds documents b * BLOCK_DOCS onwards; its lists are rows
    block_rows[b]:block_rows[b + 1], one per term that occurs in the block (`terms`,
    ascending). Row r's postings are entries indptr[r]:indptr[r + 1] of `ids` (local to
    the block, ascending) and `data` (the weights, narrow: see compact_weights);
    row_max[r] is the largest of them (float32, exact), the bound that dynamic pruning
    (sparsebench.search.compiled_search) puts on what the row adds to a score.
    tie_keys: each document's tie key (uint32; docids.tie_break_keys) when the postings
    were saved with their documents' ids, else None."""

    shape: tuple[int, int]
    block_rows: np.ndarray
    terms: np.ndarray
    indptr: np.ndarray
    ids: np.ndarray
    data: np.ndarray
    row_max: np.ndarray
    tie_keys: np.ndarray | None = None

    @property
    def nnz(self) -> int:
        return len(self.data)

    @property
    def n_blocks(self) -> int:
        return len(self.block_rows) - 1

    def block_width(self, block: int) -> int:
        return min(BLOCK_DOCS, self.shape[1] - block * BLOCK_DOCS)

    def block_terms(self, block: int) -> np.ndarray:
        """The terms that occur in `block`, ascending (its rows in order)."""
        return self.terms[self.block_rows[block] : self.block_rows[block + 1]]

    def block_lengths(self, block: int, rows: np.ndarray) -> np.ndarray:
        """The list lengths of `rows` (positions in block_terms(block))."""
        first = int(self.block_rows[block])
        return (self.indptr[first + rows + 1] - self.indptr[first + rows]).astype(np.int64)

    def block_nnz(self, block: int) -> int:
        start, stop = self.block_rows[block], self.block_rows[block + 1]
        return int(self.indptr[stop]) - int(self.indptr[start])

    def block_lists(
        self, block: int, rows: np.ndarray | None = None, widen: bool = True
    ) -> sp.csr_matrix:
        """The lists of `rows` (positions in block_terms(block); all by default) as a CSR
        matrix (rows x the block's documents) of float64 weights (the stored ones if not
        `widen`) and int32 ids local to the block."""
        first = int(self.block_rows[block])
        if rows is None:
            lo, hi = int(self.indptr[first]), int(self.indptr[int(self.block_rows[block + 1])])
            positions = slice(lo, hi)
            indptr = self.indptr[first : int(self.block_rows[block + 1]) + 1].astype(np.int64) - lo
        else:
            starts = self.indptr[first + rows].astype(np.int64)
            ends = self.indptr[first + rows + 1].astype(np.int64)
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
        lengths = np.diff(self.indptr).astype(np.float64)
        counts = np.bincount(self.terms, weights=lengths, minlength=self.shape[0])
        return counts.astype(np.int64)

    @cached_property
    def bound_tightness(self) -> float:
        """What a posting adds against its list's bound (row_max), on average over the
        first block's postings (a sample whose cost is bounded by the block, paid once per
        index: benchmarks/RESULTS.md, "Measurements behind the code"): near 1 for
        term-frequency weights, which saturate (BM25), low for learned weights with a long
        tail (SPLADE), whose bounds pass most documents on to MaxScore's lookups; 1 for a
        block without postings."""
        first, stop = int(self.block_rows[0]), int(self.block_rows[1])
        starts = self.indptr[first:stop].astype(np.int64)
        ends = self.indptr[first + 1 : stop + 1].astype(np.int64)
        if first == stop or ends[-1] == starts[0]:
            return 1.0
        # a block's rows are its terms that occur in it: no list is empty
        sums = np.add.reduceat(
            self.data[starts[0] : ends[-1]], starts - starts[0], dtype=np.float64
        )
        bounds = self.row_max[first:stop].astype(np.float64) * (ends - starts)
        return float(sums.sum() / bounds.sum())

    def row_weights(self, rows: np.ndarray, local: np.ndarray) -> np.ndarray:
        """The weight (float64) of each local document id in the row beside it (0 where
        the row does not hold it), found by bisecting every row's span at once."""
        starts = self.indptr[rows].astype(np.int64)
        ends = self.indptr[rows + 1].astype(np.int64)
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
        terms, docs = np.asarray(terms, np.int64), np.asarray(docs, np.int64)
        blocks = docs // BLOCK_DOCS
        lo, hi = self.block_rows[blocks].astype(np.int64), self.block_rows[blocks + 1]
        rows = search_sorted_spans(self.terms, lo, hi.astype(np.int64), terms)
        held = rows < hi
        held[held] = self.terms[rows[held]] == terms[held]
        weights = np.zeros(len(terms), dtype=np.float64)
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


def _rows(
    shape: tuple[int, int], held: list[np.ndarray], lengths: list[np.ndarray]
) -> dict[str, np.ndarray]:
    """The row arrays (block_rows, terms, indptr) of blocks' held terms and lengths."""
    counts = np.concatenate([np.zeros(0, np.int64), *lengths])
    nnz = int(counts.sum())
    return {
        "shape": np.array(shape, dtype=np.int64),
        "block_rows": np.concatenate([[0], np.cumsum([len(h) for h in held], dtype=np.int64)]),
        "terms": np.concatenate([np.zeros(0, np.int32), *held]),
        "indptr": np.concatenate([[0], np.cumsum(counts)]).astype(
            np.int32 if nnz <= _INT32_MAX else np.int64
        ),
    }


def build_postings(documents: sp.spmatrix | sp.sparray) -> Postings:
    """Postings of document-major weights (documents x terms), in memory."""
    blocks = list(_blocks(documents, None))
    held, lengths, ids, data, largest = ([block[i] for block in blocks] for i in range(5))
    rows = _rows(documents.shape[::-1], held, lengths)
    return Postings(
        tuple(int(n) for n in rows["shape"]),
        rows["block_rows"],
        rows["terms"],
        rows["indptr"],
        np.concatenate([np.zeros(0, np.uint16), *ids]),
        compact_weights(np.concatenate([np.zeros(0), *data])),
        np.concatenate([np.zeros(0, np.float32), *largest]),
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
        members = _rows((documents.shape[1], documents.shape[0]), held, lengths)
        members["row_max"] = np.concatenate([np.zeros(0, np.float32), *largest])
        weight_type = kinds.narrowest()
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
    block_rows, terms, indptr = arrays["block_rows"], arrays["terms"], arrays["indptr"]
    ids, data, row_max = arrays["ids"], arrays["data"], arrays["row_max"]
    fits = (
        len(block_rows) == -(-n_docs // BLOCK_DOCS) + 1
        and int(block_rows[-1]) == len(terms)
        and len(indptr) == len(terms) + 1 == len(row_max) + 1
        and len(ids) == len(data) == int(indptr[-1])
    )
    tie_keys = arrays.get("tie_keys")
    if not fits or (tie_keys is not None and len(tie_keys) != n_docs):
        raise DataError(f"{path}: its arrays do not fit together (a damaged file?)")
    return Postings((n_terms, n_docs), block_rows, terms, indptr, ids, data, row_max, tie_keys)
