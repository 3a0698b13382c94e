"""Where each posting list of the blocked postings lies (sparsebench.search.postings),
in a few bytes a list rather than twelve.

A block's lists are its rows: one per term that occurs in its documents, in term order.
A corpus with a large vocabulary has many rows of one or a few postings (a rare term
makes a row in every block it occurs in), so what a row costs beside its postings
counts. Here a row costs its length in four bits (most rows hold a few postings: the
length less one, or LONG where it is LONG or more, the length then in `long_lengths`,
uint16, in row order) and a share of its group's record: every ROW_GROUP rows, the
first posting, the long rows before it and the group's 32 codes, 32 bytes that one
cache line holds (a search's lookup reads one line for all three). Which terms a block
holds is a bitmap over the vocabulary (a bit per term and block), with the rows before
each 64-bit word beside it, so that a term's row is its word's count plus the set bits
below it (no search). A row's first posting is its group's plus the lengths of the rows
before it in the group, its codes summed a word at a time. The compiled searches find
their lists the same way (sparsebench.search.candidates_loop.query_lists).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sparsebench.core.arrays import bits_set
from sparsebench.core.errors import DataError

ROW_GROUP = 32  # rows per stored offset: a row's start adds at most ROW_GROUP - 1 lengths
LONG = 15  # a length code: the row's length less one is in long_lengths (and at least LONG)
GROUP_RECORD = 4  # a group's record, uint64: first posting, long rows before, two words of codes
_MOST_POSTINGS = np.iinfo(np.uint16).max + 1  # a row's length less one fits a uint16
# the directory's arrays (RowDirectory's fields after n_terms), as files and searches name them
DIRECTORY_ARRAYS = ("block_rows", "term_words", "word_rows", "groups", "long_lengths")
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
    it (uint32); groups: per ROW_GROUP rows a record of GROUP_RECORD uint64: the first
    posting of its first row, the rows coded LONG before it, and its rows' length codes
    (row i's in bits 4i.. of word i // 16; zero past the last row), then a last record
    of the totals (postings, long rows; no codes); a row's code is its postings less
    one, or LONG; long_lengths: the postings less one of the rows coded LONG, in row
    order (uint16). apart: for each row coded LONG, whether it is kept apart from the
    postings' arrays (bit-packed, sparsebench.search.packed_rows, or dense,
    sparsebench.search.dense_rows), the first postings counting only the others; None:
    none is."""

    n_terms: int
    block_rows: np.ndarray
    term_words: np.ndarray
    word_rows: np.ndarray
    groups: np.ndarray
    long_lengths: np.ndarray
    apart: np.ndarray | None = None

    @property
    def words(self) -> int:
        return words_for(self.n_terms)

    @property
    def n_rows(self) -> int:
        return int(self.block_rows[-1])

    @property
    def _records(self) -> np.ndarray:
        return self.groups.reshape(-1, GROUP_RECORD)

    def codes(self, rows: np.ndarray) -> np.ndarray:
        """Each row's length code (int64)."""
        rows = np.asarray(rows, dtype=np.int64)
        words = self._records[rows // ROW_GROUP, 2 + (rows % ROW_GROUP) // 16]
        return ((words >> (4 * (rows % 16)).astype(np.uint64)) & np.uint64(15)).astype(np.int64)

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

    def _group_lengths(self, groups: np.ndarray, kept: bool = False) -> np.ndarray:
        """The lengths of the rows of each group (groups x ROW_GROUP, int64; 0 past the
        last row), or if `kept` the postings each keeps in the postings' arrays (0 for a
        row kept apart)."""
        rows = groups[:, None] * ROW_GROUP + np.arange(ROW_GROUP)
        real = rows < self.n_rows
        codes = self.codes(rows)  # zero past the last row, up to the totals' record
        long = codes == LONG
        first_long = self._records[groups, 1].astype(np.int64)[:, None]
        rank = first_long + np.cumsum(long, axis=1) - long
        lengths = codes + 1
        lengths[long] = self.long_lengths[rank[long]].astype(np.int64) + 1
        lengths[~real] = 0
        if kept and self.apart is not None:
            lengths[long] *= ~self.apart[rank[long]]
        return lengths

    def long_ranks(self, rows: np.ndarray) -> np.ndarray:
        """Each row's rank among the rows coded LONG (for rows coded LONG: where its
        length is in long_lengths, and whether it is kept apart in `apart`)."""
        rows = np.asarray(rows, dtype=np.int64)
        group = rows // ROW_GROUP
        codes = self.codes(group[:, None] * ROW_GROUP + np.arange(ROW_GROUP))
        before = np.arange(ROW_GROUP) < (rows % ROW_GROUP)[:, None]
        return self._records[group, 1].astype(np.int64) + ((codes == LONG) & before).sum(axis=1)

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
        rank = int(self._records[group, 1]) + int(before.sum())
        lengths[long] = self.long_lengths[rank : rank + int(long.sum())].astype(np.int64) + 1
        return lengths

    def row_starts(self, rows: np.ndarray) -> np.ndarray:
        """The first posting of each row in the postings' arrays (n_rows: the postings'
        total there; a row kept apart's is where it would be), a group of rows at a time."""
        rows = np.asarray(rows, dtype=np.int64)
        starts = np.empty(len(rows), dtype=np.int64)
        lanes = np.arange(ROW_GROUP)
        for lo in range(0, len(rows), _ROWS_AT_ONCE):
            part = rows[lo : lo + _ROWS_AT_ONCE]
            group = part // ROW_GROUP
            starts[lo : lo + len(part)] = self._records[group, 0]
            if not self.n_rows:
                continue
            sizes = self._group_lengths(group, kept=True)
            sizes[lanes >= (part % ROW_GROUP)[:, None]] = 0
            starts[lo : lo + len(part)] += sizes.sum(axis=1)
        return starts

    def row_spans(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(first posting, past the last) of each row kept in the postings' arrays (not
        apart)."""
        starts = self.row_starts(rows)
        return starts, starts + self.lengths(rows)

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
            and len(self.groups) == GROUP_RECORD * (-(-self.n_rows // ROW_GROUP) + 1)
            and int(self._records[-1, 0]) == n_postings
            and int(self._records[-1, 1]) == len(self.long_lengths)
            and not self._records[-1, 2:].any()
            and np.array_equal(self._longs_before_groups(), self._records[:, 1])
        ):
            return False
        held = bits_set(self.term_words).reshape(n_blocks, self.words).astype(np.int64)
        before = np.cumsum(held, axis=1) - held
        return bool(
            np.array_equal(held.sum(axis=1), np.diff(self.block_rows))
            and np.array_equal(before.reshape(-1), self.word_rows)
        )

    def _longs_before_groups(self) -> np.ndarray:
        """The rows coded LONG before each group and in all (as the records should
        hold them), counted on the code words' bytes, a slice of groups at a time
        (memory: the slice's)."""
        per = np.zeros(len(self._records) - 1, np.int64)
        for lo in range(0, len(per), _ROWS_AT_ONCE):
            part = self._records[lo : min(lo + _ROWS_AT_ONCE, len(per)), 2:]
            codes = np.ascontiguousarray(part).view(np.uint8)
            long = ((codes & 15) == LONG).view(np.uint8) + ((codes >> 4) == LONG)
            per[lo : lo + len(part)] = long.sum(axis=1, dtype=np.int64)
        return np.concatenate([[0], np.cumsum(per)])


def build_directory(
    n_terms: int,
    held: list[np.ndarray],
    lengths: list[np.ndarray],
    apart: list[np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """The directory's arrays (as RowDirectory's fields, by name) of blocks' held terms
    (ascending) and their lists' lengths; `apart`: per block, which of its rows are kept
    apart from the postings' arrays (rows coded LONG only; no first posting counts
    theirs)."""
    words = words_for(n_terms)
    bits = np.zeros(words * 64, dtype=bool)  # one block's at a time: memory a block's
    bitmaps = np.zeros((len(held), words), dtype=np.uint64)
    for block, terms in enumerate(held):
        bits[terms] = True
        bitmaps[block] = np.packbits(bits, bitorder="little").view("<u8")
        bits[terms] = False
    counts = bits_set(bitmaps).astype(np.int64)
    word_rows = np.cumsum(counts, axis=1) - counts
    sizes = np.concatenate([np.zeros(0, np.int64), *lengths])
    if len(sizes) and (sizes.min() < 1 or sizes.max() > _MOST_POSTINGS):
        raise DataError(f"a block's list holds 1 to {_MOST_POSTINGS} postings")
    kept = sizes
    if apart is not None:
        kept = np.where(np.concatenate([np.zeros(0, bool), *apart]), 0, sizes)
    starts = np.concatenate([[0], np.cumsum(kept)])
    n_groups = -(-len(sizes) // ROW_GROUP)
    codes = np.zeros(n_groups * ROW_GROUP, np.uint8)  # past the last row: zero
    codes[: len(sizes)] = np.minimum(sizes, LONG + 1)
    codes[: len(sizes)] -= 1  # in place: one row-sized int64 scratch, not two
    long = codes == LONG
    records = np.zeros((n_groups + 1, GROUP_RECORD), np.uint64)
    records[:, 0] = np.append(starts[:-1][::ROW_GROUP], starts[-1])
    records[1:, 1] = np.cumsum(long.reshape(n_groups, ROW_GROUP).sum(axis=1))
    paired = codes[0::2] | (codes[1::2] << 4)  # byte i: rows 2i (low four bits), 2i + 1
    records[:n_groups, 2:] = paired.view("<u8").reshape(n_groups, 2)
    return {
        "block_rows": np.concatenate([[0], np.cumsum([len(h) for h in held], dtype=np.int64)]),
        "term_words": bitmaps.reshape(-1),
        "word_rows": word_rows.reshape(-1).astype(np.uint32),
        "groups": records.reshape(-1),
        "long_lengths": (sizes[long[: len(sizes)]] - 1).astype(np.uint16),
    }
