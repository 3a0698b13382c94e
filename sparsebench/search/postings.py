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

Plain postings keep a row dense when a vector of its block's width takes no more bytes
than its postings (sparsebench.search.dense_rows: from a third of the block's documents
on for uint8 weights, a half for uint16, two thirds for float32): a weight a document,
no ids, added as a vector by the exhaustive search and read at a document's position by
MaxScore. Packed postings
(postings_build.save_postings(packed=True), integer weights of at most 16 bits) keep the
long rows apart, bit-packed in chunks (sparsebench.search.packed_rows): about half the
bytes of those rows, at the cost of unpacking them as they are read; a long row that
holds half its block or more, and whose bit vector (a weight's bits a document) takes at
most twice its chunks' bytes, is kept as that vector instead
(sparsebench.search.dense_rows), which the block scan unpacks a stretch of documents at
a time.
Postings are built and written by sparsebench.search.postings_build.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from sparsebench.core.arrays import span_indices
from sparsebench.core.errors import DataError
from sparsebench.core.npzmembers import mapped_members
from sparsebench.search.dense_rows import DenseRows, bit_positions, dense_positions
from sparsebench.search.packed_rows import CHUNK, CHUNK_ARRAYS, PACKED_FROM, PackedRows
from sparsebench.search.row_directory import DIRECTORY_ARRAYS, RowDirectory

LAYOUT = "sparsebench-postings-9"  # the `layout` member of a postings file
BLOCK_DOCS = 1 << 16  # documents per block: their ids within it fit a uint16
_NARROW = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.uint16))
_MEMBERS = (
    "shape",
    "packed",
    *DIRECTORY_ARRAYS,
    "ids",
    "data",
    "row_max",
    "stream",
    *CHUNK_ARRAYS,
    "dense",
    "dense_bits",
)


@dataclass(frozen=True)
class Postings:
    """Posting lists of `shape` (terms, documents) in blocks of BLOCK_DOCS documents.

    Block b holds documents b * BLOCK_DOCS onwards; its lists are its rows, one per term
    that occurs in the block, in term order, found through `directory` (where each row's
    postings lie: sparsebench.search.row_directory). A row's postings are consecutive
    entries of `ids` (local to the block, ascending) and `data` (the weights, narrow:
    see postings_build.compact_weights), or, in packed postings, for rows of PACKED_FROM
    postings or more, chunks of `packed` (sparsebench.search.packed_rows) or a bit
    vector of `dense`, or, in plain postings, for rows whose vector takes no more bytes
    than their postings, a vector of `dense` (sparsebench.search.dense_rows); row_max[r]
    is the largest of them (in the weights' type), the bound that dynamic pruning
    (sparsebench.search.compiled_search) puts on what the row adds to a score.
    tie_keys: each document's tie key (uint32; docids.tie_break_keys) when the postings
    were saved with their documents' ids, else None."""

    shape: tuple[int, int]
    directory: RowDirectory
    ids: np.ndarray
    data: np.ndarray
    row_max: np.ndarray
    tie_keys: np.ndarray | None = None
    packed: PackedRows | None = None
    dense: DenseRows | None = None

    @cached_property
    def nnz(self) -> int:
        apart = self.directory.apart
        if apart is None:
            return len(self.data)
        long = self.directory.long_lengths[apart]
        return len(self.data) + int(long.sum(dtype=np.int64)) + len(long)

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

    def block_lengths(self, block: int, rows: np.ndarray | None = None) -> np.ndarray:
        """The list lengths of `rows` (positions in block_terms(block); all by default)."""
        first, stop = (int(r) for r in self.directory.block_rows[block : block + 2])
        if rows is None:
            return self.directory.range_lengths(first, stop)
        return self.directory.lengths(first + np.asarray(rows, dtype=np.int64))

    def block_nnz(self, block: int) -> int:
        return int(self.block_lengths(block).sum())

    def block_postings(
        self, block: int, rows: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(lengths, ids, weights) of `rows` (positions in block_terms(block); all by
        default), their postings one row after another: ids local to the block (uint16),
        weights as stored (packed rows unpacked, dense rows' documents that hold the
        term)."""
        first = int(self.directory.block_rows[block])
        if rows is None:
            rows = np.arange(int(self.directory.block_rows[block + 1]) - first)
        rows = first + np.asarray(rows, dtype=np.int64)
        lengths = self.directory.lengths(rows)
        ends = np.cumsum(lengths)
        ids = np.empty(int(ends[-1]) if len(ends) else 0, dtype=np.uint16)
        data = np.empty(len(ids), dtype=self.data.dtype)
        packed, dense_at = self.rows_apart(rows, lengths)
        dense = dense_at >= 0
        raw = ~(packed | dense)
        starts, stops = self.directory.row_spans(rows[raw])
        positions = span_indices(starts, stops)
        into = span_indices(ends[raw] - lengths[raw], ends[raw])
        ids[into], data[into] = self.ids[positions], self.data[positions]
        if packed.any():
            into = span_indices(ends[packed] - lengths[packed], ends[packed])
            ids[into], data[into] = _unpacked_rows(
                self.packed, self.directory.long_ranks(rows[packed]), lengths[packed]
            )
        if dense.any():
            into = span_indices(ends[dense] - lengths[dense], ends[dense])
            ids[into], data[into] = self.dense.postings(dense_at[dense], self.block_width(block))
        return lengths, ids, data

    def rows_apart(self, rows: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which `rows` (of `lengths`) are packed, and where each starts in the dense
        vectors (-1 where it is not dense)."""
        long = np.asarray(lengths) >= PACKED_FROM
        dense_at = np.full(len(rows), -1, dtype=np.int64)
        if self.dense is not None and long.any():
            dense_at[long] = self.dense.positions[self.directory.long_ranks(rows[long])]
        return (long & (dense_at < 0) if self.packed is not None else long & False), dense_at

    def block_lists(
        self, block: int, rows: np.ndarray | None = None, widen: bool = True
    ) -> sp.csr_matrix:
        """The lists of `rows` (positions in block_terms(block); all by default) as a CSR
        matrix (rows x the block's documents) of float64 weights (the stored ones if not
        `widen`) and int32 ids local to the block."""
        lengths, ids, data = self.block_postings(block, rows)
        data = data.astype(np.float64 if widen else self.data.dtype)
        matrix = sp.csr_matrix((len(lengths), self.block_width(block)), dtype=data.dtype)
        matrix.data, matrix.indices = data, ids.astype(np.int32)
        matrix.indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
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
            counts[self.block_terms(block)] += self.block_lengths(block)
        return counts

    @cached_property
    def bound_tightness(self) -> float:
        """What a posting adds against its list's bound (row_max), on average over the
        first block's postings (a sample whose cost is bounded by the block, paid once per
        index: benchmarks/RESULTS.md, "Measurements behind the code"): near 1 for
        term-frequency weights, which saturate (BM25), low for learned weights with a long
        tail (SPLADE), whose bounds pass most documents on to MaxScore's lookups; 1 for a
        block without postings."""
        if self.n_blocks == 0:
            return 1.0
        lengths, _, data = self.block_postings(0)
        if not len(data):
            return 1.0
        # a block's rows are its terms that occur in it: no list is empty
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        sums = np.add.reduceat(data, starts, dtype=np.float64)
        first = int(self.directory.block_rows[0])
        bounds = self.row_max[first : first + len(sums)].astype(np.float64) * lengths
        return float(sums.sum() / bounds.sum())

    def row_weights(self, rows: np.ndarray, local: np.ndarray) -> np.ndarray:
        """The weight (float64) of each local document id in the row beside it (0 where
        the row does not hold it), found by bisecting every row's span at once (a packed
        row's postings unpacked first, each distinct row once; a dense row's weight read
        at the document)."""
        rows, local = np.asarray(rows, np.int64), np.asarray(local, np.int64)
        packed, dense_at = self.rows_apart(rows, self.directory.lengths(rows))
        dense = dense_at >= 0
        weights = np.zeros(len(rows), dtype=np.float64)
        raw = ~(packed | dense)
        spans = self.directory.row_spans(rows[raw])
        weights[raw] = _weights_in(self.ids, self.data, *spans, local[raw])
        if packed.any():
            distinct, which = np.unique(rows[packed], return_inverse=True)
            lengths = self.directory.lengths(distinct)
            ids, data = _unpacked_rows(self.packed, self.directory.long_ranks(distinct), lengths)
            starts = (np.cumsum(lengths) - lengths)[which]
            spans = (starts, starts + lengths[which])
            weights[packed] = _weights_in(ids, data, *spans, local[packed])
        if dense.any():
            weights[dense] = self.dense.weights(dense_at[dense], local[dense])
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


def _unpacked_rows(
    packed: PackedRows, ranks: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The ids (uint16) and weights (the weights' type) of packed rows (their ranks among
    the packed rows) of `lengths`, one after another."""
    from sparsebench.search.packed_loop import read_rows  # compiled: imported when used

    lengths = np.asarray(lengths, dtype=np.int64)
    ids = np.empty(int(lengths.sum()) + CHUNK, dtype=np.uint16)
    weights = np.empty(len(ids), dtype=packed.base.dtype)
    read_rows(
        packed.arrays(), packed.row_chunks[np.asarray(ranks, np.int64)], lengths, ids, weights
    )
    return ids[: len(ids) - CHUNK], weights[: len(ids) - CHUNK]


def _weights_in(
    ids: np.ndarray, data: np.ndarray, starts: np.ndarray, ends: np.ndarray, local: np.ndarray
) -> np.ndarray:
    """The weight (float64) of each id in its span of ids (0 where it is absent)."""
    found = search_sorted_spans(ids, starts, ends, local)
    present = found < ends
    present[present] = ids[found[present]] == local[present]
    weights = np.zeros(len(local), dtype=np.float64)
    weights[present] = data[found[present]]
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


def packed_rows_of(
    directory: RowDirectory, chunks: list[np.ndarray], dense: DenseRows
) -> PackedRows:
    """The packed rows of postings with this directory and dense rows: the chunks'
    arrays (stream, then CHUNK_ARRAYS), located by the lengths of the rows coded LONG
    (a dense row has no chunk)."""
    lengths = directory.long_lengths.astype(np.int64) + 1
    return PackedRows.locate(*chunks, np.where(dense.positions >= 0, 0, lengths))


def laid_out(
    directory: RowDirectory,
    n_docs: int,
    packed: bool,
    dense_values: np.ndarray,
    weight_type: np.dtype,
    dense_bits: np.ndarray,
) -> tuple[RowDirectory, DenseRows | None]:
    """The row directory of postings of n_docs documents, weights of `weight_type`, with
    the rows it keeps apart marked (every row coded LONG in packed postings, the dense
    ones in plain postings), and their dense rows, `dense_values` located: in packed
    postings always, bit vectors where `dense_bits` (one a LONG row) says; in plain ones
    where the rows' lengths say (None where no row is dense)."""
    n_long = len(directory.long_lengths)
    if packed:
        if len(dense_bits) != n_long:
            dense_bits = np.zeros(n_long, np.uint8)  # a damaged file's: its vectors will not fit
        positions, size = bit_positions(directory, n_docs, BLOCK_DOCS, dense_bits)
        dense = DenseRows(dense_values, positions, size, bit_packed=True)
        return replace(directory, apart=np.ones(n_long, dtype=bool)), dense
    positions, size = dense_positions(directory, n_docs, BLOCK_DOCS, weight_type)
    if not size and not len(dense_values):
        return directory, None
    return replace(directory, apart=positions >= 0), DenseRows(dense_values, positions, size)


def load_postings(path: str | Path) -> Postings:
    """Postings as postings_build.save_postings wrote them, their arrays mapped from the
    file (copied only if the file's members are compressed)."""
    arrays = mapped_members(path)
    if "layout" not in arrays or str(arrays["layout"][()]) != LAYOUT:
        raise DataError(
            f"{path}: not a postings file of this version ({LAYOUT}): run the term_weights "
            "stage again"
        )
    if any(name not in arrays for name in _MEMBERS):
        raise DataError(f"{path}: members are missing (a damaged file?)")
    damaged = DataError(f"{path}: its arrays do not fit together (a damaged file?)")
    n_terms, n_docs = (int(n) for n in arrays["shape"])
    packed = bool(arrays["packed"][()])
    directory = RowDirectory(n_terms, *(arrays[name] for name in DIRECTORY_ARRAYS))
    ids, data, row_max = arrays["ids"], arrays["data"], arrays["row_max"]
    if len(ids) != len(data) or not directory.check(-(-n_docs // BLOCK_DOCS), len(data)):
        raise damaged
    dense_bits = arrays["dense_bits"]
    directory, dense = laid_out(directory, n_docs, packed, arrays["dense"], data.dtype, dense_bits)
    chunks = [arrays["stream"], *(arrays[name] for name in CHUNK_ARRAYS)]
    packed_rows = packed_rows_of(directory, chunks, dense) if packed else None
    fits = (
        len(row_max) == directory.n_rows
        and row_max.dtype == data.dtype == chunks[-1].dtype
        and (packed or arrays["dense"].dtype == data.dtype)
        and len(dense_bits) == (len(directory.long_lengths) if packed else 0)
        and (packed_rows is None or packed_rows.fits())
        and (dense is None or dense.fits())
    )
    tie_keys = arrays.get("tie_keys")
    if not fits or (tie_keys is not None and len(tie_keys) != n_docs):
        raise damaged
    return Postings((n_terms, n_docs), directory, ids, data, row_max, tie_keys, packed_rows, dense)
