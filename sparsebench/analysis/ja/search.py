"""JapaneseTokenizer's search compiled with numba: the Java class step for step (parse,
backtrace, SEARCH mode's pruneAndRescore, the MAX_BACKTRACE_GAP safety) as loops over
arrays, for many texts in one call. Its readable reference, a port on Python lists
checked against it, is tests/analysis/japanese_port.py.

The lattice holds the Java class's Position arrays in one pool of entries (cost, right
id, back pointer as position and slot, word), each position's in a block of the pool
that doubles when full. A text for which the pool runs out of room is searched again
with a pool twice as large, so the pool follows the batch's longest text, not its size.
Known words come from the trie of ja/trie, walked one code unit at a time.

Derived from Apache Lucene (org.apache.lucene.analysis.ja.JapaneseTokenizer), licensed
under the Apache License, Version 2.0; see sparsebench/resources/lucene/ja/NOTICE.
Kept as one module: the parse loop, the backtrace and the rescoring share the lattice
and must follow the Java class's order of steps exactly.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sparsebench.analysis.ja.dictionary import (
    GROUP,
    INVOKE,
    KANJI,
    KANJINUMERIC,
    Dictionary,
)
from sparsebench.analysis.ja.trie import EMPTY, HASH_MULTIPLIER, Trie
from sparsebench.core.jit import compiled

SEARCH_MODE_KANJI_LENGTH = 2
SEARCH_MODE_OTHER_LENGTH = 7
SEARCH_MODE_KANJI_PENALTY = 3000
SEARCH_MODE_OTHER_PENALTY = 1700
MAX_UNKNOWN_WORD_LENGTH = 1024
MAX_BACKTRACE_GAP = 1024
_INFINITY = 2**31 - 1  # Integer.MAX_VALUE
_FIRST_ROOM = 8  # entries a position's first block holds
_POOL = 16  # entries the pool holds per code unit of the longest text, at first
# the search's scalars, in one array: positions made so far, the last commit, tokens
# found, whether the pool ran out of room, and the pool's first free entry
_NEXT, _LAST, _FOUND, _FULL, _TOP = 0, 1, 2, 3, 4


class Tables(NamedTuple):
    """The dictionary and the trie as the compiled search reads them."""

    root_child: np.ndarray
    table_keys: np.ndarray
    table_nodes: np.ndarray
    shift: np.uint64
    surface: np.ndarray
    has_children: np.ndarray
    surface_word_start: np.ndarray
    word_left: np.ndarray  # int32
    word_cost: np.ndarray  # int32
    unknown_start: np.ndarray
    char_class: np.ndarray
    class_flags: np.ndarray
    punctuation: np.ndarray
    kanji: np.ndarray  # bool per code unit: CharacterDefinition.isKanji
    connection: np.ndarray  # int16 (right id, left id)


def tables(d: Dictionary, trie: Trie) -> Tables:
    return Tables(
        root_child=trie.root_child,
        table_keys=trie.table_keys,
        table_nodes=trie.table_nodes,
        shift=np.uint64(trie.shift),
        surface=trie.surface,
        has_children=trie.has_children,
        surface_word_start=d.surface_word_start.astype(np.int64),
        word_left=d.word_left.astype(np.int32),
        word_cost=d.word_cost.astype(np.int32),
        unknown_start=d.unknown_class_start.astype(np.int64),
        char_class=d.char_class,
        class_flags=d.class_flags,
        punctuation=d.punctuation,
        kanji=np.isin(d.char_class, [KANJI, KANJINUMERIC]),
        connection=np.ascontiguousarray(d.connection_costs, dtype=np.int16),
    )


class Lattice(NamedTuple):
    """Entries in a pool, each position's in a block of its own (moved to a block twice
    as large when full), addressed as (position, slot): base[position] + slot."""

    cost: np.ndarray  # int64 (pool)
    right: np.ndarray  # int32 (pool)
    back_pos: np.ndarray  # int32 (pool)
    back_slot: np.ndarray  # int32 (pool)
    word: np.ndarray  # int32 (pool)
    base: np.ndarray  # int64 (positions): where a position's block starts in the pool
    room: np.ndarray  # int64 (positions): its block's size
    count: np.ndarray  # int64 (positions): entries in use


@compiled
def _lattice(positions, pool):
    return Lattice(
        np.zeros(pool, np.int64),
        np.zeros(pool, np.int32),
        np.zeros(pool, np.int32),
        np.zeros(pool, np.int32),
        np.zeros(pool, np.int32),
        np.zeros(positions, np.int64),
        np.zeros(positions, np.int64),
        np.zeros(positions, np.int64),
    )


@compiled(inline=True)
def _child(t, node, unit):
    """The trie node after `node` by `unit`, -1 for none."""
    key = (np.int64(node) << 16) | np.int64(unit)
    slot = np.int64((np.uint64(key) * HASH_MULTIPLIER) >> t.shift)
    mask = len(t.table_keys) - 1
    while True:
        stored = t.table_keys[slot]
        if stored == key:
            return np.int64(t.table_nodes[slot])
        if stored == EMPTY:
            return np.int64(-1)
        slot = (slot + 1) & mask


@compiled(inline=True)
def _penalty(t, units, pos, length):
    """computePenalty: long all-kanji words and very long other words."""
    if length <= SEARCH_MODE_KANJI_LENGTH:
        return 0
    all_kanji = True
    for i in range(pos, pos + length):
        if not t.kanji[units[i]]:
            all_kanji = False
            break
    if all_kanji:
        return (length - SEARCH_MODE_KANJI_LENGTH) * SEARCH_MODE_KANJI_PENALTY
    if length > SEARCH_MODE_OTHER_LENGTH:
        return (length - SEARCH_MODE_OTHER_LENGTH) * SEARCH_MODE_OTHER_PENALTY
    return 0


@compiled(inline=True)
def _append(lat, state, pos, cost, right, back_pos, back_slot, word):
    """An entry at pos (the search is marked full when the pool has no room left)."""
    used = lat.count[pos]
    if used == lat.room[pos]:
        room = max(_FIRST_ROOM, 2 * used)
        top = state[_TOP]
        if top + room > len(lat.cost):
            state[_FULL] = 1
            return
        old = lat.base[pos]
        for i in range(used):
            lat.cost[top + i], lat.right[top + i] = lat.cost[old + i], lat.right[old + i]
            lat.back_pos[top + i] = lat.back_pos[old + i]
            lat.back_slot[top + i] = lat.back_slot[old + i]
            lat.word[top + i] = lat.word[old + i]
        lat.base[pos], lat.room[pos], state[_TOP] = top, room, top + room
    at = lat.base[pos] + used
    lat.cost[at] = cost
    lat.right[at] = right
    lat.back_pos[at] = back_pos
    lat.back_slot[at] = back_slot
    lat.word[at] = word
    lat.count[pos] = used + 1
    if pos + 1 > state[_NEXT]:
        state[_NEXT] = pos + 1


@compiled(inline=True)
def _cheapest(t, lat, start, left):
    """The cheapest entry at start to go on with a word of this left id (the first on a
    tie): its cost plus the connection, and its slot (-1 for none)."""
    least, least_slot, b = np.int64(_INFINITY), -1, lat.base[start]
    for slot in range(lat.count[start]):
        cost = lat.cost[b + slot] + t.connection[lat.right[b + slot], left]
        if cost < least:
            least, least_slot = cost, slot
    return least, least_slot


@compiled
def _add(t, lat, state, units, start, end, word, with_penalty):
    """A word from start to end, after the cheapest entry at start."""
    left = t.word_left[word]
    least, least_slot = _cheapest(t, lat, start, left)
    least += t.word_cost[word]
    if with_penalty:
        least += _penalty(t, units, start, end - start)
    _append(lat, state, end, least, left, start, least_slot, word)


@compiled(inline=True)
def _add_parsed(t, lat, state, start, end, word, memo):
    """_add for the words the parse loop adds at start: the entries there stay as they
    are meanwhile, so the cheapest entry per left id is found once a round (memo)."""
    left = t.word_left[word]
    if memo.round[left] == memo.clock[0]:
        least, least_slot = memo.cost[left], memo.slot[left]
    else:
        least, least_slot = _cheapest(t, lat, start, left)
        memo.round[left], memo.cost[left], memo.slot[left] = memo.clock[0], least, least_slot
    _append(lat, state, end, least + t.word_cost[word], left, start, least_slot, word)


class Memo(NamedTuple):
    """The cheapest entry per left id at the position the parse loop is at."""

    round: np.ndarray  # int64 per left id: the round it was found in
    cost: np.ndarray  # int64 per left id
    slot: np.ndarray  # int64 per left id
    clock: np.ndarray  # int64 (1): the round, one per position the loop adds words at


@compiled(inline=True)
def _unknown_length(t, units, pos):
    """How far an unknown word from pos reaches: its class's run (same class and
    punctuation-ness, at most MAX_UNKNOWN_WORD_LENGTH), or one unit."""
    character_class = t.char_class[units[pos]]
    if not t.class_flags[character_class] & GROUP:
        return 1
    punctuation = t.punctuation[units[pos]]
    length = 1
    while length < MAX_UNKNOWN_WORD_LENGTH and pos + length < len(units):
        unit = units[pos + length]
        if t.char_class[unit] != character_class or t.punctuation[unit] != punctuation:
            break
        length += 1
    return length


@compiled
def _prune_and_rescore(t, lat, state, units, start, end, best_start_slot):
    """Keep the words between start and end, rescored with the length penalties."""
    size = 0
    for pos in range(end, start, -1):
        size += lat.count[pos]
    origin = np.empty(size, np.int64)
    target = np.empty(size, np.int64)
    words = np.empty(size, np.int64)
    n = 0
    for pos in range(end, start, -1):  # each start's forward words, as Java gathers them
        b = lat.base[pos]
        for slot in range(lat.count[pos]):
            back = lat.back_pos[b + slot]
            if back >= start:
                origin[n], target[n], words[n] = back, pos, lat.word[b + slot]
                n += 1
        lat.count[pos] = 0
    order = np.argsort(origin[:n], kind="mergesort")
    k = 0
    for pos in range(start, end):
        first = k
        while k < n and origin[order[k]] == pos:
            k += 1
        if lat.count[pos] == 0:
            continue
        if pos == start:
            at = lat.base[pos] + best_start_slot
            right, path_cost = lat.right[at], lat.cost[at]  # Java: right 0 at BOS
            for i in range(first, k):
                to, word = target[order[i]], words[order[i]]
                left = t.word_left[word]
                cost = (
                    path_cost
                    + t.word_cost[word]
                    + t.connection[right, left]
                    + _penalty(t, units, pos, to - pos)
                )
                _append(lat, state, to, cost, left, pos, best_start_slot, word)
        else:
            for i in range(first, k):
                _add(t, lat, state, units, pos, target[order[i]], words[order[i]], True)


@compiled
def _second_best(t, lat, state, units, pos, best, penalty, last_left):
    """The slot at pos that ends the best path avoiding the too-long word, or -1."""
    at = lat.base[pos] + best
    back_pos, word = lat.back_pos[at], lat.word[at]
    max_cost = lat.cost[at] + penalty
    if last_left != -1:
        max_cost += t.connection[t.word_left[word], last_left]
    _prune_and_rescore(t, lat, state, units, back_pos, pos, lat.back_slot[at])
    least, least_slot, b = np.int64(_INFINITY), -1, lat.base[pos]
    for slot in range(lat.count[pos]):
        cost = lat.cost[b + slot]
        if last_left != -1:
            cost += t.connection[t.word_left[lat.word[b + slot]], last_left]
        if cost < least:
            least, least_slot = cost, slot
    if least_slot != -1 and least <= max_cost and lat.back_pos[b + least_slot] != back_pos:
        return least_slot
    return -1


@compiled
def _backtrace(t, lat, state, units, end_pos, from_slot, found, scratch):
    """The tokens of the best path from the last commit to end_pos, in SEARCH mode,
    appended to found (start, end, word rows)."""
    if end_pos == state[_LAST]:
        return
    pos, best = end_pos, from_slot
    alt_start = -1  # start of the compound word an alternative path replaces
    last_left = -1
    n = 0
    while pos > state[_LAST]:
        at = lat.base[pos] + best
        back_pos, word, next_best = lat.back_pos[at], lat.word[at], lat.back_slot[at]
        if alt_start == -1:
            penalty = _penalty(t, units, back_pos, pos - back_pos)
            if penalty > 0:
                alternative = _second_best(t, lat, state, units, pos, best, penalty, last_left)
                if alternative != -1:
                    alt_start, best = back_pos, alternative
                    at = lat.base[pos] + best
                    back_pos, word, next_best = lat.back_pos[at], lat.word[at], lat.back_slot[at]
        if alt_start != -1 and alt_start >= back_pos:
            alt_start = -1
        if not t.punctuation[units[back_pos]]:
            scratch[n, 0], scratch[n, 1], scratch[n, 2] = back_pos, pos, word
            n += 1
        last_left = t.word_left[word]
        pos, best = back_pos, next_best
    state[_LAST] = end_pos
    for i in range(n - 1, -1, -1):
        row = state[_FOUND]
        found[row, 0], found[row, 1], found[row, 2] = scratch[i, 0], scratch[i, 1], scratch[i, 2]
        state[_FOUND] = row + 1


@compiled
def _force_backtrace(t, lat, state, units, pos, found, scratch):
    """The MAX_BACKTRACE_GAP safety: commit to the cheapest entry at or after pos."""
    least, least_pos, least_slot = np.int64(_INFINITY), -1, -1
    for at in range(pos, state[_NEXT]):
        for slot in range(lat.count[at]):
            if lat.cost[lat.base[at] + slot] < least:
                least, least_pos, least_slot = lat.cost[lat.base[at] + slot], at, slot
    for at in range(pos, state[_NEXT]):
        if at != least_pos:
            lat.count[at] = 0
    b = lat.base[least_pos]  # keep only that entry, in slot 0
    kept = b + least_slot
    lat.cost[b], lat.right[b], lat.word[b] = lat.cost[kept], lat.right[kept], lat.word[kept]
    lat.back_pos[b], lat.back_slot[b] = lat.back_pos[kept], lat.back_slot[kept]
    lat.count[least_pos] = 1
    _backtrace(t, lat, state, units, least_pos, 0, found, scratch)
    lat.cost[b] = 0
    return least_pos


@compiled
def _parse(t, lat, units, start_right, found, scratch, memo):
    """JapaneseTokenizer.parse over one text: its tokens in found (start, end, word
    rows, punctuation dropped); their number, or -1 when the pool ran out of room."""
    n = len(units)
    lat.count[: n + 2] = 0
    lat.room[: n + 2] = 0
    state = np.zeros(5, np.int64)
    state[_NEXT] = 0
    _append(lat, state, 0, 0, start_right, -1, -1, -1)  # BOS
    pos = 0
    while pos < n:
        if pos + 1 > state[_NEXT]:
            state[_NEXT] = pos + 1
        frontier = state[_NEXT] == pos + 1
        if lat.count[pos] == 0:
            pos += 1
            continue
        if pos > state[_LAST] and lat.count[pos] == 1 and frontier:
            _backtrace(t, lat, state, units, pos, 0, found, scratch)
            lat.cost[lat.base[pos]] = 0
        if pos - state[_LAST] >= MAX_BACKTRACE_GAP:
            pos = _force_backtrace(t, lat, state, units, pos, found, scratch)
            continue
        memo.clock[0] += 1
        any_matches = False
        node = np.int64(t.root_child[units[pos]])
        end = pos + 1
        while node >= 0:
            known = t.surface[node]
            if known >= 0:
                for word in range(t.surface_word_start[known], t.surface_word_start[known + 1]):
                    _add_parsed(t, lat, state, pos, end, word, memo)
                    any_matches = True
            if not t.has_children[node] or end >= n:
                break
            node = _child(t, node, units[end])
            end += 1
        character_class = t.char_class[units[pos]]
        if not any_matches or t.class_flags[character_class] & INVOKE:
            end = pos + _unknown_length(t, units, pos)
            for word in range(
                t.unknown_start[character_class], t.unknown_start[character_class + 1]
            ):
                _add_parsed(t, lat, state, pos, end, word, memo)
        if state[_FULL]:
            return -1
        pos += 1
    if pos > 0 and lat.count[pos] > 0:
        least, least_slot, b = np.int64(1) << 62, 0, lat.base[pos]
        for slot in range(lat.count[pos]):
            cost = lat.cost[b + slot] + t.connection[lat.right[b + slot], 0]  # EOS's left id
            if cost < least:
                least, least_slot = cost, slot
        _backtrace(t, lat, state, units, pos, least_slot, found, scratch)
    return -1 if state[_FULL] else state[_FOUND]


@compiled
def search(units, offsets, start_right, t, pool=_POOL):
    """The tokens of each text units[offsets[i]:offsets[i + 1]] (after CJKWidthCharFilter)
    searched after an entry of right id start_right[i] (0: BOS): arrays text, start,
    end (within the text) and word, by text then position, punctuation dropped. pool:
    the entries the lattice holds per code unit of the longest text, to begin with."""
    texts = len(offsets) - 1
    longest = 0
    for i in range(texts):
        longest = max(longest, offsets[i + 1] - offsets[i])
    lat = _lattice(longest + 2, pool * (longest + 2))
    found = np.empty((longest + 1, 3), np.int64)
    scratch = np.empty((longest + 1, 3), np.int64)
    lefts = t.connection.shape[1]
    memo = Memo(
        np.full(lefts, -1, np.int64),
        np.zeros(lefts, np.int64),
        np.zeros(lefts, np.int64),
        np.zeros(1, np.int64),
    )
    total = offsets[texts]
    text = np.empty(total, np.int64)
    rows = np.empty((total, 3), np.int64)
    out = 0
    for i in range(texts):
        piece = units[offsets[i] : offsets[i + 1]]
        made = _parse(t, lat, piece, start_right[i], found, scratch, memo)
        while made < 0:
            pool *= 2
            lat = _lattice(longest + 2, pool * (longest + 2))
            made = _parse(t, lat, piece, start_right[i], found, scratch, memo)
        rows[out : out + made] = found[:made]
        text[out : out + made] = i
        out += made
    return text[:out], rows[:out, 0], rows[:out, 1], rows[:out, 2]
