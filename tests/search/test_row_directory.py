"""The row directory of the blocked postings (sparsebench.search.row_directory): every
row found where a plain list of (block, term, first posting, length) puts it, by the
numpy lookups and by the compiled searches' query_lists alike."""

from __future__ import annotations

import numpy as np
import pytest

from sparsebench.core.arrays import read_only_views
from sparsebench.core.errors import DataError
from sparsebench.search.candidates_loop import DENSE, query_lists
from sparsebench.search.row_directory import (
    DIRECTORY_ARRAYS,
    GROUP_RECORD,
    LONG,
    ROW_GROUP,
    RowDirectory,
    build_directory,
)

N_TERMS = 200  # not a multiple of 64: the last word of a bitmap is partly unused


def _blocks(seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Blocks' held terms and list lengths: one block empty, one holding every term,
    lengths from 1 to 65,536 (short and long codes mixed in every group), row counts
    that are not multiples of ROW_GROUP."""
    rng = np.random.default_rng(seed)
    held = [
        np.sort(rng.choice(N_TERMS, 77, replace=False)),
        np.zeros(0, np.int64),
        np.arange(N_TERMS),
        np.array([0, 63, 64, 127, 199]),
        np.sort(rng.choice(N_TERMS, 3, replace=False)),
    ]
    lengths = [rng.integers(1, 2 * LONG, len(terms)) for terms in held]
    lengths[3] = np.array([1, 65_536, 2, 65_535, 7])
    return held, lengths


# which rows coded LONG are kept apart: none, all (packed, or packed and dense), some
MODES = ("plain", "packed", "packed-dense", "dense")


def _kept_apart(mode: str, sizes: np.ndarray) -> np.ndarray:
    """Which rows of `sizes` are kept apart: every row coded LONG in packed postings;
    in "dense", a stand-in for dense rows, those of an odd length among them."""
    long = np.asarray(sizes) > LONG
    odd = long & (np.asarray(sizes) % 2 == 1)
    return {"plain": long & False, "packed": long, "packed-dense": long, "dense": odd}[mode]


def _dense_stand_in(mode: str, size: int) -> bool:
    """Whether a row kept apart is dense: in "dense" all; in "packed-dense", a stand-in
    for bit vectors among packed rows, those of an odd length."""
    return mode == "dense" or (mode == "packed-dense" and size % 2 == 1)


def _reference(held, lengths, mode="plain") -> dict[tuple[int, int], tuple[int, int]]:
    """(block, term) -> (first posting, length), the rows laid out in order; a row kept
    apart: (its rank among the rows coded LONG, length)."""
    rows, at, rank = {}, 0, 0
    for block, (terms, sizes) in enumerate(zip(held, lengths, strict=True)):
        apart = _kept_apart(mode, sizes)
        for term, size, away in zip(terms, sizes, apart, strict=True):
            if away:
                rows[block, int(term)] = rank, int(size)
            else:
                rows[block, int(term)] = at, int(size)
                at += int(size)
            rank += int(size > LONG)
    return rows


def _directory(held, lengths, mode: str) -> RowDirectory:
    """The directory of these blocks, their rows kept apart as `mode` says."""
    apart = [_kept_apart(mode, sizes) for sizes in lengths]
    arrays = build_directory(N_TERMS, held, lengths, apart)
    sizes = np.concatenate(lengths)
    long = _kept_apart(mode, sizes)[sizes > LONG]
    return RowDirectory(N_TERMS, **arrays, apart=None if mode == "plain" else long)


@pytest.mark.parametrize("mode", MODES)
def test_rows_are_found_where_their_lists_lie(mode):
    held, lengths = _blocks(0)
    directory = _directory(held, lengths, mode)
    reference = _reference(held, lengths, mode)
    kept = [np.where(_kept_apart(mode, s), 0, s) for s in lengths]
    total = sum(int(s.sum()) for s in kept)
    assert directory.n_rows == len(reference) and directory.n_rows % ROW_GROUP
    assert directory.check(len(held), total)
    assert not directory.check(len(held), total + 1)
    blocks, terms = np.divmod(np.arange(len(held) * N_TERMS), N_TERMS)
    rows = directory.rows_of(blocks, terms)
    held_here = rows >= 0
    assert held_here.sum() == len(reference)
    assert 0 < len(directory.long_lengths) < directory.n_rows  # both kinds of length code
    starts, ends = directory.row_spans(rows[held_here])
    lengths_found = directory.lengths(rows[held_here])
    apart = _kept_apart(mode, lengths_found)
    starts[apart] = directory.long_ranks(rows[held_here][apart])
    found = dict(
        zip(
            zip(blocks[held_here].tolist(), terms[held_here].tolist(), strict=True),
            zip(starts.tolist(), lengths_found.tolist(), strict=True),
            strict=True,
        )
    )
    assert found == reference
    assert np.array_equal(ends[~apart] - starts[~apart], lengths_found[~apart])
    assert directory.row_starts(np.array([directory.n_rows])).tolist() == [total]
    for block, terms_held in enumerate(held):
        assert np.array_equal(directory.block_terms(block), terms_held)
        first, stop = directory.block_rows[block : block + 2]
        assert np.array_equal(directory.range_lengths(int(first), int(stop)), lengths[block])


@pytest.mark.parametrize("mode", MODES)
def test_the_compiled_searches_find_the_same_lists(mode):
    held, lengths = _blocks(1)
    directory = _directory(held, lengths, mode)
    row_max = np.arange(directory.n_rows, dtype=np.uint16) % 251 + 1
    reference = _reference(held, lengths, mode)
    n_long = len(directory.long_lengths)
    # a packed row's first chunk, a dense row's position: any ascending numbers
    packed = mode.startswith("packed")
    row_chunks = 5 + 3 * np.arange(n_long + 1) if packed else np.zeros(0)
    dense_at = np.zeros(0)
    if mode != "plain" and mode != "packed":
        dense = [_dense_stand_in(mode, n) for n in directory.long_lengths.astype(int) + 1]
        dense_at = np.where(directory.apart & dense, 7 + 100 * np.arange(n_long), -1)
    rows = {key: row for row, key in enumerate(reference)}  # rows in block, then term order
    query = np.array([0, 5, 63, 64, 127, 128, 199], dtype=np.int64)
    arrays = read_only_views(*(getattr(directory, name) for name in DIRECTORY_ARRAYS), row_max)
    apart_of = read_only_views(row_chunks.astype(np.int64), dense_at.astype(np.int64))
    # written into arrays of more rows than terms, holding what an earlier query left
    shape = (len(query) + 2, len(held))
    lists = tuple(np.full(shape, 777, dtype=kind) for kind in (np.int64, np.int64, float, np.int64))
    found = query_lists(query, (*arrays, directory.words, *apart_of), lists)
    starts, ends, maxima, chunks = found
    assert all(array.shape == (len(query), len(held)) for array in found)
    kinds = set()
    for entry, term in enumerate(query.tolist()):
        for block in range(len(held)):
            if (block, term) in reference:
                start, size = reference[block, term]
                bound = float(row_max[rows[block, term]])
                expected = (start, start + size, bound, -1)
                dense = False
                if _kept_apart(mode, size):
                    dense = _dense_stand_in(mode, size)
                    chunk = DENSE - dense_at[start] if dense else row_chunks[start]
                    expected = (0, size, bound, int(chunk))
                kinds.add((bool(_kept_apart(mode, size)), size > LONG, dense))
            else:
                expected = (-1, -1, 0.0, -1)
            got = (starts[entry, block], ends[entry, block], maxima[entry, block])
            assert (*got, chunks[entry, block]) == expected, (block, term)
    apart_kinds = {
        "plain": set(),
        "packed": {(True, True, False)},
        "packed-dense": {(True, True, False), (True, True, True)},
        "dense": {(True, True, True), (False, True, False)},
    }
    assert kinds >= {(False, False, False)} | apart_kinds[mode]  # every kind was looked for


@pytest.mark.parametrize("sizes", [[0, 3], [65_537]])
def test_a_list_outside_a_blocks_range_is_refused(sizes):
    with pytest.raises(DataError, match="1 to 65536 postings"):
        build_directory(10, [np.arange(len(sizes))], [np.array(sizes)])


@pytest.mark.parametrize(
    ("name", "damage"),
    [("term_words", np.uint64(1 << 63)), ("word_rows", np.uint32(1))],
)
def test_a_bitmap_that_disagrees_with_the_row_counts_is_damaged(name, damage):
    held, lengths = _blocks(2)
    arrays = build_directory(N_TERMS, held, lengths)
    total = sum(int(s.sum()) for s in lengths)
    assert RowDirectory(N_TERMS, **arrays).check(len(held), total)
    arrays[name] = arrays[name].copy()
    arrays[name][1] ^= damage
    assert not RowDirectory(N_TERMS, **arrays).check(len(held), total)


@pytest.mark.parametrize("field", ["code", "long rows before"])
def test_length_codes_that_disagree_with_the_long_lengths_are_damaged(field):
    held, lengths = _blocks(3)
    arrays = build_directory(N_TERMS, held, lengths)
    total = sum(int(s.sum()) for s in lengths)
    assert RowDirectory(N_TERMS, **arrays).check(len(held), total)
    arrays["groups"] = records = arrays["groups"].copy()
    if field == "code":  # the second group's first row coded long if short, short if long
        first = GROUP_RECORD + 2
        records[first] = (records[first] & ~np.uint64(15)) | np.uint64(
            0 if records[first] & np.uint64(15) == LONG else LONG
        )
    else:  # the second group's count of long rows before it moved
        records[GROUP_RECORD + 1] += np.uint64(1)
    assert not RowDirectory(N_TERMS, **arrays).check(len(held), total)
