"""Dense rows of postings (sparsebench.search.postings): a list that holds most of its
block's documents kept as a vector of the block's width, a weight per document (zero
where the document lacks the term), instead of ids and weights.

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
when the postings are loaded (dense_positions).

Packed postings (sparsebench.search.packed_rows) keep a long row dense when a bit vector
of it takes at most BIT_VECTOR_SHARE times the bytes of its packed chunks and the row
holds at least one document in BIT_VECTOR_DOCS of its block. A bit vector
holds the row's weights at the width of its largest (`bits`, at most 16; zero where a
document lacks the term), laid out for the block scan's stretches of LANES documents:
a group of GROUP documents is `bits` words (uint32) for each of LANES lanes, document d
of the group lane d % LANES's value number d // LANES, each lane's values packed from
the low bits of its words on. A stretch of LANES documents is then one value of every
lane, all at the same word and shift, read as a vector (sparsebench.search.dense_loop).
A row's vector is as many groups as cover its block. Which rows are dense depends on
how well their chunks pack, so the file stores each long row's `bits` (the `dense_bits`
member: 0 where the row is packed) and the vectors one after another (the `dense`
member, LANES words to spare at its end: a value is read two words at a time).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sparsebench.search.row_directory import LONG, RowDirectory

ID_BYTES = np.dtype(np.uint16).itemsize  # a plain posting's id (local to its block)
LANES = 256  # a bit vector's documents side by side (a stretch of the block scan)
GROUP = 32 * LANES  # a bit vector's documents in `bits` words of each lane
WORD = np.dtype(np.uint32)  # a bit vector's words
WORD_BYTES = WORD.itemsize
PLACE_SHIFT = 5  # a bit vector's place: its first word shifted by this, with its bits
MAX_BITS = 16  # the widest weights packed postings hold
# a packed row's bit vector may take this many times its chunks' bytes, if its row holds
# at least one document in BIT_VECTOR_DOCS: a document of a bit vector is read in about
# a third of the time a posting is unpacked, but sparser rows of few bits (BM25's
# frequent terms) slowed MaxScore (benchmarks/RESULTS.md, "Bit vectors in packed
# postings")
BIT_VECTOR_SHARE = 2
BIT_VECTOR_DOCS = 2


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


def long_row_widths(directory: RowDirectory, n_docs: int, block_docs: int) -> np.ndarray:
    """The width of the block of each row coded LONG (int64, in row order)."""
    blocks = long_row_blocks(directory)
    return np.minimum(block_docs, n_docs - blocks * block_docs)


def dense_positions(
    directory: RowDirectory, n_docs: int, block_docs: int, weight_type: np.dtype
) -> tuple[np.ndarray, int]:
    """Where each row coded LONG starts in the dense vectors of weights of `weight_type`
    (int64, -1 where the row is not dense), the vectors one after another in row order,
    each its block's width; and their total length (what the `dense` member must hold)."""
    widths = long_row_widths(directory, n_docs, block_docs)
    dense = dense_rows(directory.long_lengths.astype(np.int64) + 1, widths, weight_type)
    return _placed(np.where(dense, widths, 0), dense)


def bit_vector_words(width: np.ndarray | int, bits: np.ndarray | int) -> np.ndarray:
    """The words (uint32) of bit vectors of `bits` a document over blocks of `width`
    documents: whole groups."""
    width = np.asarray(width, dtype=np.int64)
    return -(-width // GROUP) * np.asarray(bits, dtype=np.int64) * LANES


def bit_vector_rows(
    row_bytes: np.ndarray, lengths: np.ndarray, width: np.ndarray | int, bits: np.ndarray
) -> np.ndarray:
    """Which packed rows (each its chunks' bytes, its length, the bits of its largest
    weight) are dense: those whose bit vector over a block of `width` documents takes
    at most BIT_VECTOR_SHARE times their chunks' bytes, and that hold at least one
    document in BIT_VECTOR_DOCS."""
    vector_bytes = bit_vector_words(width, bits) * WORD_BYTES
    held = np.asarray(lengths, dtype=np.int64) * BIT_VECTOR_DOCS >= np.asarray(width)
    return held & (vector_bytes <= BIT_VECTOR_SHARE * np.asarray(row_bytes))


def bit_positions(
    directory: RowDirectory, n_docs: int, block_docs: int, bits: np.ndarray
) -> tuple[np.ndarray, int]:
    """Each row coded LONG's place among the bit vectors (its first word shifted left by
    PLACE_SHIFT, or-ed with its `bits`; -1 where the row is packed, bits 0), and the
    words the `dense` member must hold (LANES to spare included)."""
    bits = np.asarray(bits, dtype=np.int64)
    widths = long_row_widths(directory, n_docs, block_docs)
    places, size = _placed(bit_vector_words(widths, bits), bits > 0)
    return np.where(bits > 0, (places << PLACE_SHIFT) | bits, -1), size + LANES


def _placed(sizes: np.ndarray, dense: np.ndarray) -> tuple[np.ndarray, int]:
    """Where each of vectors of `sizes` (0 where a row is not dense) starts, one after
    another (-1 where not `dense`), and their total."""
    ends = np.cumsum(sizes)
    return np.where(dense, ends - sizes, -1), int(ends[-1]) if len(ends) else 0


@dataclass(frozen=True)
class DenseRows:
    """The dense rows of postings: values, their vectors one after another in row order
    (the weights' type; or, `bit_packed`, bit vectors' uint32 words); positions, where
    each row coded LONG starts among them (-1 where it is not dense; a bit vector's
    place: see bit_positions); size, the values' length as the rows give it (a damaged
    file's values have another)."""

    values: np.ndarray
    positions: np.ndarray
    size: int
    bit_packed: bool = False

    def fits(self) -> bool:
        if not self.bit_packed:
            return len(self.values) == self.size
        bits = self.positions[self.positions >= 0] & ((1 << PLACE_SHIFT) - 1)
        return (
            len(self.values) == self.size
            and self.values.dtype == WORD
            and bool(np.all(bits <= MAX_BITS))
        )

    def weights(self, starts: np.ndarray, local: np.ndarray) -> np.ndarray:
        """The weight of each document (local to its block) in the dense row beside it
        (where the row starts among the vectors), 0 where the row lacks it."""
        starts, local = np.asarray(starts, np.int64), np.asarray(local, np.int64)
        if not self.bit_packed:
            return self.values[starts + local]
        first, bits = starts >> PLACE_SHIFT, starts & ((1 << PLACE_SHIFT) - 1)
        value_bit = (local // LANES % 32) * bits
        word = first + (local // GROUP * bits + value_bit // 32) * LANES + local % LANES
        pair = self.values[word].astype(np.uint64)
        pair |= self.values[word + LANES].astype(np.uint64) << np.uint64(32)
        mask = (np.uint64(1) << bits.astype(np.uint64)) - np.uint64(1)
        return ((pair >> (value_bit % 32).astype(np.uint64)) & mask).astype(np.uint16)

    def postings(self, starts: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
        """The ids (uint16) and weights of dense rows (where each starts among the
        vectors) of a block of `width` documents, one row after another: the documents
        whose weight is not zero."""
        starts = np.asarray(starts, dtype=np.int64)
        local = np.tile(np.arange(width, dtype=np.int64), len(starts))
        values = self.weights(np.repeat(starts, width), local)
        held = values != 0
        return local[held].astype(np.uint16), values[held]
