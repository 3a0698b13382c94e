"""JapaneseTokenizer's Viterbi search for many pieces of text at once, with numpy.

The Java class reads a text left to right and commits to its best path so far at every
position where a single entry (word ending there) is left and no word crosses it. Where
that holds whatever the costs are, the text falls apart into pieces searched on their
own, each starting after one known word:

- a chunk is text between runs of whitespace (the unknown SPACE word is the only word
  over such a run, so the search commits right after it): it starts after BOS or
  after that SPACE word, and ends at EOS or before it;
- a chunk is cut further at every position where exactly one word ends and none
  crosses, counting all words that may be reached (`reached_superset`): that word's
  start is reached (the lattice always reaches the end of a text, and nothing crosses
  the position), so the Java search commits there too, and what follows depends only
  on that word's right id and the text after it.

The pieces of a batch are searched together, laid out in chunks a unit apart:

- `words`: every word the Java class may add at every position (a walk of the trie of
  surfaces, and the unknown word of the position's character class where the class
  adds one: no dictionary word starts there, or the class always invokes unknown
  words, over its run of characters), in its order (by start, shortest known words
  first, then unknown ones);
- `search`: for each word, the cheapest entry at its start plus the connection cost,
  the first on a tie. All pieces advance one position per numpy step, each step taking
  every (entry, word) pair at that offset of every piece at once;
- `best_paths`: the path back from each piece's cheapest end;
- `crowded_pieces`: pieces where two commit points of the Java search are
  MAX_BACKTRACE_GAP apart, where it may have committed early: japanese_viterbi runs
  those step for step.

SEARCH mode's decompounding (JapaneseTokenizer.backtrace with pruneAndRescore) of a
too-long word on a path is japanese_compounds' `second_best`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sparsebench.encode.lucene.japanese_dictionary import GROUP, INVOKE, Dictionary
from sparsebench.encode.lucene.japanese_trie import Trie
from sparsebench.encode.lucene.japanese_viterbi import (
    MAX_BACKTRACE_GAP,
    MAX_UNKNOWN_WORD_LENGTH,
    SEARCH_MODE_KANJI_LENGTH,
    SEARCH_MODE_KANJI_PENALTY,
    SEARCH_MODE_OTHER_LENGTH,
    SEARCH_MODE_OTHER_PENALTY,
)

_OFFSET = 1 << 38  # keeps costs positive in the packed (cost, slot) keys
_UNREACHED = 1 << 39  # the cost of a word whose start no path reaches
_SLOT_BITS = 23  # room for an entry's slot (position order) in a search
_SLOT_MASK = (1 << _SLOT_BITS) - 1


@dataclass(frozen=True)
class Words:
    """Words at positions of a chunk layout, by start (Java's order within a start)."""

    start: np.ndarray  # int64
    end: np.ndarray  # int64
    word: np.ndarray  # int32: dictionary row

    def take(self, index: np.ndarray) -> Words:
        return Words(self.start[index], self.end[index], self.word[index])

    def __getitem__(self, part: slice) -> Words:
        return Words(self.start[part], self.end[part], self.word[part])


@dataclass(frozen=True)
class Tokens:
    """Tokens of pieces: piece index, start, end, word, by piece then position."""

    piece: np.ndarray
    start: np.ndarray
    end: np.ndarray
    word: np.ndarray

    def columns(self) -> tuple[np.ndarray, ...]:
        return self.piece, self.start, self.end, self.word

    def take(self, index: np.ndarray) -> Tokens:
        return Tokens(*(column[index] for column in self.columns()))

    @staticmethod
    def concatenate(parts: list[Tokens]) -> Tokens:
        """Parts of tokens as one, in (piece, start) order."""
        columns = [np.concatenate(c) for c in zip(*(p.columns() for p in parts), strict=True)]
        order = np.lexsort((columns[1], columns[0]))
        return Tokens(*(column[order] for column in columns))


def chunk_layout(lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end positions of chunks laid out one unit apart."""
    starts = np.zeros(len(lengths), dtype=np.int64)
    np.cumsum(lengths[:-1] + 1, out=starts[1:])
    return starts, starts + lengths


def ranges(first: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """first[i], first[i] + 1, ..., first[i] + counts[i] - 1 for each i, concatenated."""
    return np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))


def words(
    units: np.ndarray, starts: np.ndarray, ends: np.ndarray, d: Dictionary, trie: Trie
) -> Words:
    """Every word the Java class may add at every position of the chunks."""
    n = len(units)
    lengths = ends - starts
    inside = np.zeros(n, dtype=bool)
    limit = np.zeros(n, dtype=np.int64)
    positions = ranges(starts, lengths)
    inside[positions] = True
    limit[positions] = np.repeat(ends, lengths)
    found_pos, found_len, found_surface = trie.matches(units, limit)
    keep = inside[found_pos]
    found_pos, found_len, found_surface = found_pos[keep], found_len[keep], found_surface[keep]
    first_word = d.surface_word_start[found_surface]
    counts = d.surface_word_start[found_surface + 1] - first_word
    known_start = np.repeat(found_pos, counts)
    known_end = known_start + np.repeat(found_len, counts)
    known_word = ranges(first_word, counts)

    any_match = np.zeros(n, dtype=bool)
    any_match[found_pos] = True
    classes = d.char_class[units]
    flags = d.class_flags[classes]
    punctuation = d.punctuation[units]
    # Runs of one class and punctuation-ness, cut at chunk ends.
    boundary = np.ones(n + 1, dtype=bool)
    boundary[1:n] = (classes[1:] != classes[:-1]) | (punctuation[1:] != punctuation[:-1])
    boundary[ends] = True
    run_ends = np.flatnonzero(boundary)
    fires = np.flatnonzero(inside & (~any_match | ((flags & INVOKE) > 0)))
    run_end = run_ends[np.searchsorted(run_ends, fires, side="right")]
    grouped = (flags[fires] & GROUP) > 0
    length = np.where(grouped, np.minimum(run_end - fires, MAX_UNKNOWN_WORD_LENGTH), 1)
    first_unknown = d.unknown_class_start[classes[fires]]
    unknown_counts = d.unknown_class_start[classes[fires] + 1] - first_unknown
    unknown_start = np.repeat(fires, unknown_counts)
    unknown_end = unknown_start + np.repeat(length, unknown_counts)
    unknown_word = ranges(first_unknown, unknown_counts)

    start = np.concatenate([known_start, unknown_start])
    order = np.argsort(start, kind="stable")  # by start; shortest known, then unknown
    end = np.concatenate([known_end, unknown_end])[order]
    word = np.concatenate([known_word, unknown_word])[order].astype(np.int32)
    return Words(start[order], end, word)


def reached_superset(found: Words, starts: np.ndarray, n: int, rounds: int = 2) -> np.ndarray:
    """Indices of the words that may be reached: a word whose start no other such word
    ends at (and that is not a chunk start) is dropped, for some rounds. Exact when it
    settles (words only lead forward); a superset of the reached words in any case."""
    chunk_start = np.zeros(n + 1, dtype=bool)
    chunk_start[starts] = True
    alive = np.arange(len(found.start))
    for _ in range(rounds):
        ending = np.bincount(found.end[alive], minlength=n + 1)
        start = found.start[alive]
        kept = alive[(ending[start] > 0) | chunk_start[start]]
        if len(kept) == len(alive):
            break
        alive = kept
    return alive


def commit_points(found: Words, n: int) -> np.ndarray:
    """Positions where exactly one of the words ends and none crosses."""
    ending = np.bincount(found.end, minlength=n + 1)
    furthest = np.zeros(n + 1, dtype=np.int64)
    np.maximum.at(furthest, found.start, found.end)
    np.maximum.accumulate(furthest, out=furthest)
    crossed = np.zeros(n + 1, dtype=bool)
    crossed[1:] = furthest[:-1] > np.arange(1, n + 1)
    return np.flatnonzero((ending == 1) & ~crossed)


@dataclass(frozen=True)
class Search:
    """The best path to every word of some pieces."""

    found: Words
    cost: np.ndarray  # int64 (lanes, words), _UNREACHED for a word no path reaches
    previous: np.ndarray  # int64 (lanes, words): the word before on the best path, -1 at
    # the piece start


def search(
    found: Words,
    starts: np.ndarray,
    ends: np.ndarray,
    start_right: np.ndarray,
    n: int,
    d: Dictionary,
) -> Search:
    """Best paths over the words of pieces [starts, ends) (no word crosses their ends).

    A piece starts after one entry of cost 0 with right id start_right (0 for BOS); a
    lane per row of start_right (lanes, pieces): the searches after other words before
    the pieces, sharing all the work but the additions and minima."""
    start_right = np.atleast_2d(start_right)
    lanes = len(start_right)
    words_ = len(found.start)
    left = d.word_left[found.word].astype(np.int32)
    # Entries: the words ending inside their piece, and one per piece for its start.
    piece_start = np.zeros(n + 1, dtype=bool)
    piece_start[starts] = True
    entry_word = np.flatnonzero(~piece_start[found.end])
    entry_end = np.concatenate([found.end[entry_word], starts])
    entry_right = np.concatenate([left[entry_word], start_right[0].astype(np.int32)])
    entry_of = np.concatenate([entry_word, np.full(len(starts), -1)])
    by_end = np.argsort(entry_end, kind="stable")  # a position's entries in Java's order
    in_ptr = np.zeros(n + 2, dtype=np.int64)
    np.cumsum(np.bincount(entry_end, minlength=n + 1), out=in_ptr[1:])

    # Words whose start has entries, by offset in their piece (the step that adds them).
    lengths = ends - starts
    steps = int(lengths.max()) if len(starts) else 0
    piece_start_of = np.zeros(n + 1, dtype=np.int64)
    piece_start_of[ranges(starts, lengths)] = np.repeat(starts, lengths)
    offset = found.start - piece_start_of[found.start]
    if steps < 1 << 15:
        offset = offset.astype(np.int16)  # numpy sorts 16-bit integers by radix
    first_entry = in_ptr[found.start]
    entries_at = in_ptr[found.start + 1] - first_entry
    stepped = np.flatnonzero(entries_at > 0)
    stepped = stepped[np.argsort(offset[stepped], kind="stable")]
    step_ptr = np.searchsorted(offset[stepped], np.arange(steps + 1))
    step_counts = entries_at[stepped]
    step_first = first_entry[stepped]
    step_left = left[stepped]
    word_key = d.word_cost[found.word[stepped]].astype(np.int64) << _SLOT_BITS
    connection = d.connection_costs
    row_by_end = entry_right[by_end].astype(np.int64) * connection.shape[1]
    connection = connection.ravel()

    # Each entry's (cost + _OFFSET) << _SLOT_BITS, in by_end order (its slot): a piece
    # starts at cost 0.
    packed = np.full((lanes, len(entry_end)), _UNREACHED << _SLOT_BITS, dtype=np.int64)
    slot_of_entry = np.empty(len(entry_end), dtype=np.int64)
    slot_of_entry[by_end] = np.arange(len(entry_end))
    packed[:, slot_of_entry[len(entry_word) :]] = _OFFSET << _SLOT_BITS
    slot = np.full(words_, -1, dtype=np.int64)  # a word's entry slot
    slot[entry_word] = slot_of_entry[: len(entry_word)]
    step_slot = slot[stepped]
    # (entry, word) pairs, by word in step order: the entry's slot, and the connection
    # cost << _SLOT_BITS | slot (the first cheapest entry wins the minimum).
    group = np.zeros(len(stepped) + 1, dtype=np.int64)
    np.cumsum(step_counts, out=group[1:])
    pair = np.repeat(step_first - group[:-1], step_counts)
    pair += np.arange(len(pair))
    pair_key = connection[row_by_end[pair] + np.repeat(step_left, step_counts)].astype(np.int64)
    pair_key <<= _SLOT_BITS
    pair_key |= pair
    # The first step's pairs are the pieces' first words after their start entries: their
    # connections per lane.
    first = slice(0, step_ptr[1] if steps else 0)
    first_pair = pair[: group[first.stop]]
    start_piece = by_end[first_pair] - len(entry_word)
    first_key = connection[
        start_right[:, start_piece].astype(np.int64) * d.connection_costs.shape[1]
        + np.repeat(step_left[first], step_counts[first])
    ].astype(np.int64)
    first_key <<= _SLOT_BITS
    first_key |= first_pair
    word_packed = np.full((lanes, len(stepped)), _UNREACHED << _SLOT_BITS, dtype=np.int64)
    for step in range(steps):
        w0, w1 = step_ptr[step], step_ptr[step + 1]
        if w0 == w1:
            continue
        p0, p1 = group[w0], group[w1]
        keys = packed[:, pair[p0:p1]]
        keys += first_key if step == 0 else pair_key[p0:p1]
        best = np.minimum.reduceat(keys, group[w0:w1] - p0, axis=1)
        best += word_key[w0:w1]
        word_packed[:, w0:w1] = best
        entries = step_slot[w0:w1]
        packed[:, entries[entries >= 0]] = best[:, entries >= 0] & ~_SLOT_MASK
    cost = np.full((lanes, words_), _UNREACHED, dtype=np.int64)
    cost[:, stepped] = (word_packed >> _SLOT_BITS) - _OFFSET
    cost[cost >= _UNREACHED // 2] = _UNREACHED
    previous = np.full((lanes, words_), -1, dtype=np.int64)
    reached = cost[0, stepped] < _UNREACHED  # the same words in every lane
    chosen = word_packed[:, reached] & _SLOT_MASK
    previous[:, stepped[reached]] = entry_of[by_end[chosen]]
    return Search(found, cost, previous)


def best_paths(
    result: Search,
    ends: np.ndarray,
    query_piece: np.ndarray,
    query_lane: np.ndarray,
    end_left: np.ndarray,
    d: Dictionary,
) -> tuple[np.ndarray, np.ndarray]:
    """The words of the best path of each query (a piece, a lane of the search, and the
    left id of what follows it: 0 for EOS), as (query, word index) in text order;
    queries by piece."""
    found = result.found
    last = np.flatnonzero((result.cost[0] < _UNREACHED) & np.isin(found.end, ends))
    piece = np.searchsorted(ends, found.end[last])  # ascending: words are by start
    first_last = np.searchsorted(piece, np.arange(len(ends) + 1))
    counts = np.diff(first_last)[query_piece]
    candidate = last[ranges(first_last[query_piece], counts)]
    query = np.repeat(np.arange(len(query_piece)), counts)
    right = d.word_left[found.word[candidate]]
    total = result.cost[query_lane[query], candidate] + d.connection_costs[right, end_left[query]]
    order = np.lexsort((candidate, total, query))  # the first cheapest, in Java's entry order
    first = np.ones(len(order), dtype=bool)
    first[1:] = query[order][1:] != query[order][:-1]
    pieces, cursor = query[order][first], candidate[order][first]
    found_piece, found_word, found_step = [], [], []
    step = 0
    while len(pieces):
        found_piece.append(pieces)
        found_word.append(cursor)
        found_step.append(np.full(len(pieces), step))
        cursor = result.previous[query_lane[pieces], cursor]
        pieces, cursor = pieces[cursor >= 0], cursor[cursor >= 0]
        step -= 1
    if not found_piece:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    piece_of, word_of = np.concatenate(found_piece), np.concatenate(found_word)
    order = np.lexsort((np.concatenate(found_step), piece_of))
    return piece_of[order], word_of[order]


def crowded_pieces(result: Search, starts: np.ndarray, ends: np.ndarray, n: int) -> np.ndarray:
    """Pieces where two consecutive commit points of the Java search (a reached position
    with one entry that no reached word crosses, or the piece's ends) are
    MAX_BACKTRACE_GAP apart or more: the Java search may have committed early there."""
    long_ = np.flatnonzero(ends - starts >= MAX_BACKTRACE_GAP)
    if not len(long_):
        return long_
    reached = result.cost[0] < _UNREACHED
    points = np.concatenate([commit_points(result.found.take(reached), n), starts, ends])
    points = np.unique(points)
    gaps = np.flatnonzero(np.diff(points) >= MAX_BACKTRACE_GAP)
    return np.unique(np.searchsorted(starts, points[gaps], side="right") - 1)


def penalties(found: Words, kanji: np.ndarray) -> np.ndarray:
    """computePenalty of each word: long all-kanji words and very long other words;
    kanji: whether each unit of the layout is a kanji."""
    kanji_count = np.zeros(len(kanji) + 1, dtype=np.int64)
    np.cumsum(kanji, out=kanji_count[1:])
    length = found.end - found.start
    all_kanji = kanji_count[found.end] - kanji_count[found.start] == length
    return np.where(
        (length > SEARCH_MODE_KANJI_LENGTH) & all_kanji,
        (length - SEARCH_MODE_KANJI_LENGTH) * SEARCH_MODE_KANJI_PENALTY,
        np.where(
            length > SEARCH_MODE_OTHER_LENGTH,
            (length - SEARCH_MODE_OTHER_LENGTH) * SEARCH_MODE_OTHER_PENALTY,
            0,
        ),
    )
