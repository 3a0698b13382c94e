"""Where each posting list of the blocked postings lies (sparsebench.search.postings),
in a few bytes a list rather than twelve.

A block's lists are its rows: one per term that occurs in its documents, in term order.
A corpus with a large vocabulary has many rows of one or a few postings (a rare term
makes a row in every block it occurs in), so what a row costs beside its postings
counts. Here a row costs its length in four bits (most rows hold a few postings: the
length less one, or LONG where it is LONG or more, the length then in `long_lengths`,
uint16, in row order) and a share of two offsets every ROW_GROUP rows: its first posting
and the long rows before it. Which terms a block holds is a bitmap over the vocabulary
(a bit per term and block), with the rows before each 64-bit word beside it, so that a
term's row is its word's count plus the set bits below it (no search). A row's first
posting is its group's offset plus the lengths of the rows before it in the group. The
compiled searches find their lists the same way
(sparsebench.search.candidates_loop.query_lists).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sparsebench.core.arrays import bits_set
from sparsebench.core.errors import DataError

ROW_GROUP = 32  # rows per stored offset: a row's start adds at most ROW_GROUP - 1 lengths
LONG = 15  # a length code: the row's length less one is in long_lengths (and at least LONG)
_GROUP_BYTES = ROW_GROUP // 2  # a group's length codes: two 64-bit words
_MOST_POSTINGS = np.iinfo(np.uint16).max + 1  # a row's length less one fits a uint16
# the directory's arrays (RowDirectory's fields after n_terms), as files and searches name them
DIRECTORY_ARRAYS = (
    "block_rows",
    "term_words",
    "word_rows",
    "length_codes",
    "long_lengths",
    "group_starts",
    "group_longs",
)
_ROWS_AT_ONCE = 1 << 16  # rows whose starts are computed together (memory: 8 bytes x 32 each)


def words_for(n_terms: int) -> int:
    """64-bit words of a block's term bitmap."""
    return -(-n_terms // 64)


@dataclass(frozen=True)
class RowDirectory:
    """The rows of `n_terms` terms' lists in blocks of documents.

    block_rows: each block's first row (and the total last, int64); term_words: per
    block, words_for(n_terms) uint64 words whose bit t (little-endian) says that term t
    has a row there; word_rows: per block and word, the block's rows in the words before
    it (uint32); length_codes: each row's length code, two a byte (row 2i in the low
    four bits of byte i; zero past the last row, up to a whole group): its postings less
    one, or LONG; long_lengths: the postings
    less one of the rows coded LONG, in row order (uint16); group_starts: the first
    posting of rows 0, ROW_GROUP, 2 ROW_GROUP, ... and the postings' total last (int64);
    group_longs: the rows coded LONG before each of those rows, and their total last
    (uint32)."""

    n_terms: int
    block_rows: np.ndarray
    term_words: np.ndarray
    word_rows: np.ndarray
    length_codes: np.ndarray
    long_lengths: np.ndarray
    group_starts: np.ndarray
    group_longs: np.ndarray

    @property
    def words(self) -> int:
        return words_for(self.n_terms)

    @property
    def n_rows(self) -> int:
        return int(self.block_rows[-1])

    def search_arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays as the compiled searches take them (candidates_loop.query_lists):
        DIRECTORY_ARRAYS' order, the length codes as 64-bit words (a group's two)."""
        arrays = {name: np.asarray(getattr(self, name)) for name in DIRECTORY_ARRAYS}
        arrays["length_codes"] = arrays["length_codes"].view(np.uint64)
        return tuple(arrays.values())

    def codes(self, rows: np.ndarray) -> np.ndarray:
        """Each row's length code (int64)."""
        rows = np.asarray(rows, dtype=np.int64)
        shift = ((rows & 1) << 2).astype(np.uint8)
        return ((self.length_codes[rows >> 1] >> shift) & 15).astype(np.int64)

    def rows_of(self, blocks: np.ndarray | int, terms: np.ndarray) -> np.ndarray:
        """The row of each term in the block beside it (or all in one block): -1 where
        the block lacks the term."""
        terms = np.asarray(terms, dtype=np.int64)
        blocks = np.broadcast_to(np.asarray(blocks, dtype=np.int64), terms.shape)
        at = blocks * self.words + (terms >> 6)
        word = self.term_words[at]
        bit = (terms & 63).astype(np.uint64)
        held = ((word >> bit) & np.uint64(1)).astype(bool)
        below = bits_set(word & ((np.uint64(1) << bit) - np.uint64(1))).astype(np.int64)
        rows = self.block_rows[blocks] + self.word_rows[at].astype(np.int64) + below
        return np.where(held, rows, -1)

    def _group_lengths(self, groups: np.ndarray) -> np.ndarray:
        """The lengths of the rows of each group (groups x ROW_GROUP, int64; 0 past the
        last row)."""
        rows = groups[:, None] * ROW_GROUP + np.arange(ROW_GROUP)
        real = rows < self.n_rows
        codes = self.codes(np.minimum(rows, max(self.n_rows - 1, 0)))
        long = real & (codes == LONG)
        rank = self.group_longs[groups].astype(np.int64)[:, None] + np.cumsum(long, axis=1) - long
        lengths = codes + 1
        lengths[long] = self.long_lengths[rank[long]].astype(np.int64) + 1
        lengths[~real] = 0
        return lengths

    def lengths(self, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        lengths = self.codes(rows) + 1
        long = np.flatnonzero(lengths == LONG + 1)
        for lo in range(0, len(long), _ROWS_AT_ONCE):
            part = long[lo : lo + _ROWS_AT_ONCE]
            group = rows[part] // ROW_GROUP
            lengths[part] = self._group_lengths(group)[np.arange(len(part)), rows[part] % ROW_GROUP]
        return lengths

    def range_lengths(self, first: int, stop: int) -> np.ndarray:
        """The lengths of rows first..stop-1 (int64)."""
        if stop <= first:
            return np.zeros(0, np.int64)
        lengths = self.codes(np.arange(first, stop)) + 1
        long = lengths == LONG + 1
        group = first // ROW_GROUP
        before = self.codes(np.arange(group * ROW_GROUP, first)) == LONG
        rank = int(self.group_longs[group]) + int(before.sum())
        lengths[long] = self.long_lengths[rank : rank + int(long.sum())].astype(np.int64) + 1
        return lengths

    def row_starts(self, rows: np.ndarray) -> np.ndarray:
        """The first posting of each row (n_rows: the postings' total), a group of rows
        at a time."""
        rows = np.asarray(rows, dtype=np.int64)
        starts = np.empty(len(rows), dtype=np.int64)
        lanes = np.arange(ROW_GROUP)
        for lo in range(0, len(rows), _ROWS_AT_ONCE):
            part = rows[lo : lo + _ROWS_AT_ONCE]
            group = part // ROW_GROUP
            starts[lo : lo + len(part)] = self.group_starts[group]
            if not self.n_rows:
                continue
            sizes = self._group_lengths(group)
            sizes[lanes >= (part % ROW_GROUP)[:, None]] = 0
            starts[lo : lo + len(part)] += sizes.sum(axis=1)
        return starts

    def row_spans(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(first posting, past the last) of each row."""
        starts = self.row_starts(rows)
        return starts, starts + self.lengths(rows)

    def block_indptr(self, block: int) -> np.ndarray:
        """The block's row boundaries in the postings (its rows + 1, int64)."""
        first, stop = int(self.block_rows[block]), int(self.block_rows[block + 1])
        start = self.row_starts(np.array([first]))
        return np.concatenate([start, start[0] + np.cumsum(self.range_lengths(first, stop))])

    def block_span(self, block: int) -> tuple[int, int]:
        """(first posting, past the last) of the block."""
        edges = self.row_starts(self.block_rows[block : block + 2])
        return int(edges[0]), int(edges[1])

    def block_terms(self, block: int) -> np.ndarray:
        """The terms that have a row in the block, ascending (its rows in order)."""
        words = self.term_words[block * self.words : (block + 1) * self.words]
        bits = np.unpackbits(words.astype("<u8", copy=False).view(np.uint8), bitorder="little")
        return np.flatnonzero(bits[: self.n_terms])

    def check(self, n_blocks: int, n_postings: int) -> bool:
        """Whether the arrays fit each other, the blocks and the postings (a damaged file
        does not)."""
        words = n_blocks * self.words
        if not (
            len(self.block_rows) == n_blocks + 1
            and int(self.block_rows[0]) == 0
            and len(self.term_words) == len(self.word_rows) == words
            and len(self.length_codes) == _GROUP_BYTES * (len(self.group_starts) - 1)
            and len(self.group_starts) == len(self.group_longs) == -(-self.n_rows // ROW_GROUP) + 1
            and int(self.group_starts[-1]) == n_postings
            and int(self.group_longs[-1]) == len(self.long_lengths)
            and np.array_equal(self._longs_before_groups(), self.group_longs)
        ):
            return False
        held = bits_set(self.term_words).reshape(n_blocks, self.words).astype(np.int64)
        before = np.cumsum(held, axis=1) - held
        return bool(
            np.array_equal(held.sum(axis=1), np.diff(self.block_rows))
            and np.array_equal(before.reshape(-1), self.word_rows)
        )

    def _longs_before_groups(self) -> np.ndarray:
        """The rows coded LONG before each group and in all (as group_longs should be),
        counted from the codes a slice at a time (memory bounded by the slice)."""
        counts = []
        step = _GROUP_BYTES * _ROWS_AT_ONCE
        for lo in range(0, len(self.length_codes), step):
            part = np.asarray(self.length_codes[lo : lo + step])
            long = ((part & 15) == LONG).astype(np.int64) + ((part >> 4) == LONG)
            counts.append(long.reshape(-1, _GROUP_BYTES).sum(axis=1))
        per = np.concatenate([np.zeros(0, np.int64), *counts])
        return np.concatenate([[0], np.cumsum(per)])


def build_directory(
    n_terms: int, held: list[np.ndarray], lengths: list[np.ndarray]
) -> dict[str, np.ndarray]:
    """The directory's arrays (as RowDirectory's fields, by name) of blocks' held terms
    (ascending) and their lists' lengths."""
    words = words_for(n_terms)
    bits = np.zeros(words * 64, dtype=bool)  # one block's at a time: memory a block's
    packed = np.zeros((len(held), words), dtype=np.uint64)
    for block, terms in enumerate(held):
        bits[terms] = True
        packed[block] = np.packbits(bits, bitorder="little").view("<u8")
        bits[terms] = False
    counts = bits_set(packed).astype(np.int64)
    word_rows = np.cumsum(counts, axis=1) - counts
    sizes = np.concatenate([np.zeros(0, np.int64), *lengths])
    if len(sizes) and (sizes.min() < 1 or sizes.max() > _MOST_POSTINGS):
        raise DataError(f"a block's list holds 1 to {_MOST_POSTINGS} postings")
    starts = np.concatenate([[0], np.cumsum(sizes)])
    codes = np.minimum(sizes - 1, LONG).astype(np.uint8)
    long = codes == LONG
    longs_before = np.concatenate([[0], np.cumsum(long)])
    paired = np.zeros(-(-len(codes) // ROW_GROUP) * ROW_GROUP, np.uint8)  # whole groups
    paired[: len(codes)] = codes
    return {
        "block_rows": np.concatenate([[0], np.cumsum([len(h) for h in held], dtype=np.int64)]),
        "term_words": packed.reshape(-1),
        "word_rows": word_rows.reshape(-1).astype(np.uint32),
        "length_codes": paired[0::2] | (paired[1::2] << 4),
        "long_lengths": (sizes[long] - 1).astype(np.uint16),
        "group_starts": np.append(starts[:-1][::ROW_GROUP], starts[-1]).astype(np.int64),
        "group_longs": np.append(longs_before[:-1][::ROW_GROUP], longs_before[-1]).astype(
            np.uint32
        ),
    }
