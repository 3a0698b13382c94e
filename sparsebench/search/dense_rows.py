"""Dense rows of plain postings (sparsebench.search.postings): a list that holds most of
its block's documents kept as a vector of the block's width, a weight per document
(zero where the document lacks the term), instead of ids and weights.

A learned sparse model puts its most frequent terms in most documents: on SPLADE-like
impacts three quarters of a long query's postings lie in lists that hold more than half
of their block. Term at a time, each posting of a plain list is a read-modify-write of
the block's accumulator at its id, one at a time; a dense row is added to the
accumulator as a vector, many documents an instruction, and the block scan adds every
dense row of a query to one stretch of the accumulator while it is in the core's cache
(sparsebench.search.blockscan_loop). MaxScore finds a document's weight in a dense row
by its position, without a search (sparsebench.search.maxscore_loop).

A row is dense when its vector takes no more bytes than its postings would: a posting
is a 2-byte id and a weight, a document of the vector the weight alone, so a row is
dense from a third of its block's documents on for uint8 weights, a half for uint16 and
two thirds for float32 (and when it is long enough to be coded LONG:
sparsebench.search.row_directory). Which rows are dense thus follows from the rows'
lengths, the blocks' widths and the weights' type, so the file stores only the vectors,
one after another in row order (the `dense` member), and where each lies is computed
when the postings are loaded (dense_positions). Packed postings
(sparsebench.search.packed_rows) keep no dense row: their long rows are bit-packed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sparsebench.core.arrays import span_indices
from sparsebench.search.row_directory import LONG, RowDirectory

ID_BYTES = np.dtype(np.uint16).itemsize  # a plain posting's id (local to its block)


def dense_rows(lengths: np.ndarray, width: np.ndarray | int, weight_type: np.dtype) -> np.ndarray:
    """Which rows of `lengths` (in blocks of `width` documents, one or one a row) are
    dense for weights of `weight_type`: those whose vector takes no more bytes than their
    postings."""
    lengths = np.asarray(lengths, dtype=np.int64)
    size = np.dtype(weight_type).itemsize
    vector_bytes = size * np.asarray(width, dtype=np.int64)
    return (lengths > LONG) & ((ID_BYTES + size) * lengths >= vector_bytes)


def long_row_blocks(directory: RowDirectory) -> np.ndarray:
    """The block of each row coded LONG (int64, in row order)."""
    first_rows = directory.block_rows[:-1].astype(np.int64)
    n_long = len(directory.long_lengths)
    before = np.full(len(first_rows), n_long, dtype=np.int64)
    inside = first_rows < directory.n_rows
    before[inside] = directory.long_ranks(first_rows[inside])
    return np.searchsorted(before, np.arange(n_long), side="right") - 1


def dense_positions(
    directory: RowDirectory, n_docs: int, block_docs: int, weight_type: np.dtype
) -> tuple[np.ndarray, int]:
    """Where each row coded LONG starts in the dense vectors of weights of `weight_type`
    (int64, -1 where the row is not dense), the vectors one after another in row order,
    each its block's width; and their total length (what the `dense` member must hold)."""
    blocks = long_row_blocks(directory)
    widths = np.minimum(block_docs, n_docs - blocks * block_docs)
    dense = dense_rows(directory.long_lengths.astype(np.int64) + 1, widths, weight_type)
    sizes = np.where(dense, widths, 0)
    ends = np.cumsum(sizes)
    return np.where(dense, ends - sizes, -1), int(ends[-1]) if len(ends) else 0


@dataclass(frozen=True)
class DenseRows:
    """The dense rows of postings: values, their vectors one after another in row order
    (the weights' type); positions, where each row coded LONG starts among them (-1
    where it is not dense); size, the vectors' total length as the rows give it (a
    damaged file's values have another)."""

    values: np.ndarray
    positions: np.ndarray
    size: int

    def fits(self) -> bool:
        return len(self.values) == self.size

    def postings(self, starts: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
        """The ids (uint16) and weights of dense rows (where each starts among the
        vectors) of a block of `width` documents, one row after another: the documents
        whose weight is not zero."""
        starts = np.asarray(starts, dtype=np.int64)
        values = self.values[span_indices(starts, starts + width)]
        held = values != 0
        ids = np.tile(np.arange(width, dtype=np.uint16), len(starts))
        return ids[held], values[held]
