"""JapaneseTokenizer's Viterbi search for many pieces of text at once, with numpy.

The Java class reads a text left to right and commits to its best path so far at every
position where a single entry (word ending there) is left and no word crosses it. Where
that holds whatever the costs are, the text falls apart into pieces searched on their
own, each starting after one known word:

- a chunk is text between runs of whitespace (the unknown SPACE word is the only word
  over such a run, so the search commits right after it): it starts after BOS or
  after that SPACE word, and ends at EOS or before it;
- a chunk is cut further at every position where exactly one of all its words (reached
  or not) ends and none crosses: that word's start is reached (the lattice always
  reaches the end of the text), so the Java search commits there too.

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
too-long word on a path is `second_best`, a small search of the words under it.
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

_OFFSET = 1 << 40  # keeps costs positive in the packed (cost, rank) keys
_UNREACHED = 1 << 41  # the cost of a word whose start no path reaches
_RANK_BITS = 16  # room for an entry's index among the entries at its position
_RANK_MASK = (1 << _RANK_BITS) - 1


@dataclass(frozen=True)
class Words:
    """Words at positions of a chunk layout, by start (Java's order within a start)."""

    start: np.ndarray  # int64
    end: np.ndarray  # int64
    word: np.ndarray  # int32: dictionary row

    def take(self, index: np.ndarray) -> Words:
        return Words(self.start[index], self.end[index], self.word[index])


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


def commit_points(found: Words, n: int) -> np.ndarray:
    """Positions where exactly one word ends and none crosses (whatever is reached)."""
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
    cost: np.ndarray  # int64, _UNREACHED for a word no path reaches
    previous: np.ndarray  # int64: the word before on the best path, -1 at the piece start


def search(
    found: Words,
    starts: np.ndarray,
    ends: np.ndarray,
    start_right: np.ndarray,
    n: int,
    d: Dictionary,
) -> Search:
    """Best paths over the words of pieces [starts, ends) (no word crosses their ends).

    A piece starts after one entry of cost 0 with right id start_right (0 for BOS)."""
    words_ = len(found.start)
    left = d.word_left[found.word].astype(np.int64)
    # Entries: the words that end inside their piece, and one per piece for its start.
    inner = ~np.isin(found.end, starts)
    entry_word = np.flatnonzero(inner)
    entry_end = np.concatenate([found.end[entry_word], starts])
    entry_right = np.concatenate([left[entry_word], start_right.astype(np.int64)])
    entry_of = np.concatenate([entry_word, np.full(len(starts), -1)])
    by_end = np.argsort(entry_end, kind="stable")  # a position's entries in Java's order
    in_ptr = np.zeros(n + 2, dtype=np.int64)
    np.cumsum(np.bincount(entry_end, minlength=n + 1), out=in_ptr[1:])

    # Words whose start has entries, by offset in their piece (the step that adds them).
    piece = np.searchsorted(starts, found.start, side="right") - 1
    offset = found.start - starts[piece]
    entries_at = in_ptr[found.start + 1] - in_ptr[found.start]
    stepped = np.flatnonzero(entries_at > 0)
    stepped = stepped[np.argsort(offset[stepped], kind="stable")]
    steps = int((ends - starts).max()) if len(starts) else 0
    step_ptr = np.searchsorted(offset[stepped], np.arange(steps + 1))
    # (entry, word) pairs, grouped by word in step order.
    pair_counts = entries_at[stepped]
    pair_ptr = np.zeros(len(stepped) + 1, dtype=np.int64)
    np.cumsum(pair_counts, out=pair_ptr[1:])
    rank = np.arange(int(pair_ptr[-1])) - np.repeat(pair_ptr[:-1], pair_counts)
    pair_entry = by_end[np.repeat(in_ptr[found.start[stepped]], pair_counts) + rank]
    right = entry_right[pair_entry]
    connection = d.connection_costs[right, np.repeat(left[stepped], pair_counts)]
    pair_key = ((connection.astype(np.int64) + _OFFSET) << _RANK_BITS) | rank
    word_key = (d.word_cost[found.word].astype(np.int64) - _OFFSET) << _RANK_BITS

    # Each entry's cost << _RANK_BITS: the words' as they are found, 0 at piece starts.
    packed = np.full(len(entry_end), _UNREACHED << _RANK_BITS, dtype=np.int64)
    packed[len(entry_word) :] = 0
    entry_index = np.full(words_, -1, dtype=np.int64)
    entry_index[entry_word] = np.arange(len(entry_word))
    word_packed = np.full(words_, _UNREACHED << _RANK_BITS, dtype=np.int64)
    best_rank = np.zeros(words_, dtype=np.int64)
    for step in range(steps):
        w0, w1 = step_ptr[step], step_ptr[step + 1]
        if w0 == w1:
            continue
        p0, p1 = pair_ptr[w0], pair_ptr[w1]
        keys = packed[pair_entry[p0:p1]] + pair_key[p0:p1]
        best = np.minimum.reduceat(keys, pair_ptr[w0:w1] - p0)
        these = stepped[w0:w1]
        value = (best & ~_RANK_MASK) + word_key[these]
        word_packed[these] = value
        best_rank[these] = best & _RANK_MASK
        entries = entry_index[these]
        packed[entries[entries >= 0]] = value[entries >= 0]
    cost = word_packed >> _RANK_BITS
    reached = cost < _UNREACHED // 2
    cost[~reached] = _UNREACHED
    previous = np.full(words_, -1, dtype=np.int64)
    at = np.flatnonzero(reached)
    previous[at] = entry_of[by_end[in_ptr[found.start[at]] + best_rank[at]]]
    return Search(found, cost, previous)


def best_paths(
    result: Search, starts: np.ndarray, ends: np.ndarray, end_left: np.ndarray, d: Dictionary
) -> tuple[np.ndarray, np.ndarray]:
    """The words of each piece's best path, as (piece, word index) in text order.

    end_left: the left id of what follows a piece (0 for EOS)."""
    found = result.found
    last = np.flatnonzero((result.cost < _UNREACHED) & np.isin(found.end, ends))
    piece = np.searchsorted(ends, found.end[last])
    right = d.word_left[found.word[last]]
    total = result.cost[last] + d.connection_costs[right, end_left[piece]]
    order = np.lexsort((last, total, piece))  # the first cheapest, in Java's entry order
    first = np.ones(len(order), dtype=bool)
    first[1:] = piece[order][1:] != piece[order][:-1]
    pieces, cursor = piece[order][first], last[order][first]
    found_piece, found_word, found_step = [], [], []
    step = 0
    while len(pieces):
        found_piece.append(pieces)
        found_word.append(cursor)
        found_step.append(np.full(len(pieces), step))
        cursor = result.previous[cursor]
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
    reached = result.cost < _UNREACHED
    points = np.concatenate([commit_points(result.found.take(reached), n), starts, ends])
    points = np.unique(points)
    gaps = np.flatnonzero(np.diff(points) >= MAX_BACKTRACE_GAP)
    return np.unique(np.searchsorted(starts, points[gaps], side="right") - 1)


def penalty(kanji: np.ndarray, start: int, end: int) -> int:
    """computePenalty of a word over units flagged kanji[start:end]."""
    length = end - start
    if length <= SEARCH_MODE_KANJI_LENGTH:
        return 0
    if kanji[start:end].all():
        return (length - SEARCH_MODE_KANJI_LENGTH) * SEARCH_MODE_KANJI_PENALTY
    if length > SEARCH_MODE_OTHER_LENGTH:
        return (length - SEARCH_MODE_OTHER_LENGTH) * SEARCH_MODE_OTHER_PENALTY
    return 0


def second_best(
    span: list[tuple[int, int, int, int]],
    compound: tuple[int, int, int, int],
    right: int,
    last_left: int,
    d: Dictionary,
) -> list[tuple[int, int, int]] | None:
    """The best path under a too-long word of a best path, if SEARCH mode takes it.

    span: the words (start, end, word, penalty) from the compound's start to its end,
    in Java's order, positions relative to its start; compound: the too-long word
    (start, end, word, penalty) there; right: the right id of the word before it;
    last_left: the left id of the word after it on the output (-1 at the end of the
    Java search's backtrace). As JapaneseTokenizer.backtrace: the words under the
    compound are rescored with the length penalties (pruneAndRescore), and the best
    path ending at its end, plus the connection to the next word, replaces it when that
    costs no more than the compound plus its penalty and does not start with a word
    spanning the same characters. Costs are relative to the path cost at the start."""
    costs = d.connection_costs
    left = d.word_left
    word_cost = d.word_cost
    _, end, c_word, c_penalty = compound
    entries: dict[int, list[tuple[int, int, int, int, int]]] = {}  # (cost, right, back...)
    for start, stop, word, word_penalty in span:
        if start == 0:
            cost = int(word_cost[word]) + int(costs[right, left[word]]) + word_penalty
            entries.setdefault(stop, []).append((cost, int(left[word]), 0, -1, word))
            continue
        here = entries.get(start)
        if not here:
            continue
        to_left = int(left[word])
        least, least_index = None, -1
        for index, entry in enumerate(here):
            cost = entry[0] + int(costs[entry[1], to_left])
            if least is None or cost < least:
                least, least_index = cost, index
        cost = least + int(word_cost[word]) + word_penalty
        entries.setdefault(stop, []).append((cost, to_left, start, least_index, word))
    max_cost = int(costs[right, left[c_word]]) + int(word_cost[c_word]) + c_penalty
    if last_left != -1:
        max_cost += int(costs[left[c_word], last_left])
    least, best = None, -1
    for index, entry in enumerate(entries.get(end, [])):
        cost = entry[0] + (int(costs[entry[1], last_left]) if last_left != -1 else 0)
        if least is None or cost < least:
            least, best = cost, index
    if least is None or least > max_cost or entries[end][best][2] == 0:
        return None
    path, pos = [], end
    while pos > 0:
        _, _, back, back_index, word = entries[pos][best]
        path.append((back, pos, word))
        pos, best = back, back_index
    return path[::-1]
