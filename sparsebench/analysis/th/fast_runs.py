"""The JDK's Thai word breaking for a whole batch: ranges of Thai letters divided at once.

In a sentence without the characters that make the Thai word rules look around (ฯ, the
marks and format characters the rules pass over, U+FFFF, surrogates: COMPLEX in
`RunModel.flags`), the word iterator's segments are simple to state, as `run_model`
checks on the tables: a run of Thai letters (the dictionary's script), with the ๆ after
it if there is one, is one range that the dictionary divides; the text between ranges (a
region) breaks as it would alone, since every scan of it stops at the next Thai letter.

The division of a range (DictionaryBasedBreakIterator.divideUpDictionaryRange) walks the
dictionary from a position, character by character, noting each word end it passes,
until no word goes on; then it resumes from the last word end noted (backing up through
the earlier ones when a position starts no word). `divide` gives every new range of a
batch to numpy first: `word_ends` steps every position of every range through the
dictionary at once, which tells, for each position, the words starting there and how far
the walk goes. Where the longest word at each break leads to the range's end, that is
the division (no step ever backs up); the other ranges are divided from the same facts a
word at a time by `_walk`, the JDK's bookkeeping line for line. Ranges with a letter the
dictionary lacks, or followed by one it has, go to the port itself.

`_walk` restates divideUpDictionaryRange of OpenJDK's
sun/text/DictionaryBasedBreakIterator.java (GNU General Public License version 2 with
the Classpath exception; see sparsebench/resources/lucene/th/NOTICE).

Speed layer (fast_*): a second implementation of th/break_iterator's Thai word iterator
(its dictionary division), which it must equal;
tests/analysis/test_thai.py::test_divisions_equal_the_port and
test_shortcuts_equal_stepping hold them equal. Its speed is in benchmarks/RESULTS.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from sparsebench.analysis.th.break_data import (
    DONE,
    IGNORE,
    START,
    STOP,
    TABLES,
    dictionary,
    word_rules,
)
from sparsebench.analysis.th.break_iterator import division
from sparsebench.core.arrays import span_indices
from sparsebench.core.errors import DataError

THAI_BLOCK = 0xE00  # the dictionary's characters are all in U+0E00-U+0E7F
END = ""  # a range ends the sentence
OTHER = " "  # a range is followed by a character outside the dictionary's script


THAI, ABSORBED, COMPLEX, SEEN = 1, 2, 4, 8  # RunModel.flags bits


@dataclass(frozen=True)
class RunModel:
    """The characters of the ranges of a sentence, and those that need the exact port."""

    thai: frozenset[str]  # the letters counted as the dictionary's (categories flagged)
    # U+0000-U+FFFF -> bits: THAI (those letters), ABSORBED (what a range takes after them:
    # ๆ), COMPLEX (needs the port), SEEN (after a range, a character its division tells
    # apart from others: the dictionary's and the Thai letters)
    flags: np.ndarray


@cache
def run_model() -> RunModel:
    """Read the model off the word rules, checking every fact it rests on."""
    rules = word_rules()
    categories = range(len(rules.dictionary))
    thai = [k for k in categories if rules.dictionary[k]]
    run = {rules.state[START][k] for k in thai}
    if len(run) != 1:
        raise DataError(f"{TABLES}: the Thai letters do not start one kind of range")
    (run_state,) = run
    row = rules.state[run_state]
    absorbed = [k for k in categories if k not in thai and row[k] != STOP]
    absorbed_ends = [row[k] for k in absorbed]
    # A category the range continues with into a state that goes on reading is complex.
    complex_categories = {
        k
        for k, e in zip(absorbed, absorbed_ends, strict=True)
        if not rules.end[e] or rules.lookahead[e] or any(rules.state[e])
    }
    absorbed = [k for k in absorbed if k not in complex_categories]
    reachable = _reachable(rules, complex_categories)
    facts = [
        all(row[k] == run_state for k in thai),
        rules.end[run_state] and not rules.lookahead[run_state],
        # outside a range, a Thai letter stops every scan
        all(rules.state[s][k] == STOP for s in reachable - {START, run_state} for k in thai),
        # and no scan waits for what follows the text at its end
        not any(rules.lookahead[s] and not rules.end[s] for s in reachable),
        # and nothing leads back to the start state
        all(START not in rules.state[s] for s in reachable),
        not rules.end[STOP] and not rules.lookahead[STOP],
    ]
    if not all(facts):
        raise DataError(f"{TABLES}: the Thai word rules are not the expected ones")
    code_points = np.arange(0x10000)
    category = rules.bmp_categories()
    surrogate = (code_points >= 0xD800) & (code_points <= 0xDFFF)
    thai_chars = code_points[np.isin(category, thai) & ~surrogate]
    absorbed_chars = code_points[np.isin(category, absorbed) & ~surrogate]
    complex_chars = np.isin(category, sorted(complex_categories)) | (category == IGNORE)
    complex_chars |= surrogate | (code_points == DONE)  # (a character beyond U+FFFF too)
    thai_set = frozenset(map(chr, thai_chars.tolist()))
    flags = np.zeros(0x10000, dtype=np.uint8)
    flags[thai_chars] |= THAI
    flags[absorbed_chars] |= ABSORBED
    flags[complex_chars] |= COMPLEX
    flags[[ord(c) for c in dictionary().columns | thai_set]] |= SEEN
    return RunModel(thai=thai_set, flags=flags)


def _reachable(rules, avoided: set[int]) -> set[int]:
    """The states a scan reaches from the start without the avoided categories."""
    seen, todo = {START}, [START]
    while todo:
        for k, nxt in enumerate(rules.state[todo.pop()]):
            if k not in avoided and nxt != STOP and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@cache
def _dense() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The dictionary as a dense table: (state, column) -> state (0: no word goes on),
    with each character's column (0: not in the dictionary) and the word ends."""
    words = dictionary()
    keys = np.fromiter(words.transitions.keys(), dtype=np.int64)
    targets = np.fromiter(words.transitions.values(), dtype=np.int64)
    offsets = np.unique(keys & 0x7F)
    column = np.zeros(0x80, dtype=np.int64)
    column[offsets] = np.arange(1, len(offsets) + 1)
    table = np.zeros((len(words.final), len(offsets) + 1), dtype=np.int32)
    table[keys >> 7, column[keys & 0x7F]] = targets
    return table, column, np.array(words.final, dtype=bool)


def word_ends(codes: np.ndarray, room: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every position: the lengths of the dictionary words starting there that fit in
    `room` characters (bit L - 1 set for a word of length L), and how far the dictionary
    can walk from there (the longest prefix of a word; at most `room`). codes: the
    characters, as offsets in the Thai block, all of them dictionary characters."""
    table, column, final = _dense()
    columns = column[codes]
    lengths = np.zeros(len(codes), dtype=np.int64)
    reach = np.zeros(len(codes), dtype=np.int64)
    starts = np.arange(len(codes))
    states = np.zeros(len(codes), dtype=np.int64)
    depth = 0
    while len(starts):
        fits = room[starts] > depth
        starts, states = starts[fits], states[fits]
        states = table[states, columns[starts + depth]]
        alive = states > 0
        starts, states = starts[alive], states[alive]
        reach[starts] = depth + 1
        lengths[starts[final[states]]] |= 1 << depth
        depth += 1
    return lengths, reach


Breaks = tuple[np.ndarray, np.ndarray]  # per range: how many breaks; all breaks, flat


def divide(ranges: list[tuple[str, str]]) -> Breaks:
    """The breaks the word iterator returns over each (range, following) pair: 0, the
    dictionary's breaks, the range's length; as counts per range and the breaks, flat."""
    if not ranges:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    model, columns = run_model(), dictionary().columns
    texts = [range_ for range_, _ in ranges]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    starts = np.cumsum(lengths) - lengths
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    flags = np.where(codes < 0x10000, model.flags[np.minimum(codes, 0xFFFF)], 0)
    plain = ((flags & (THAI | ABSORBED)) > 0) & np.isin(codes, _column_codes())
    all_plain = np.logical_and.reduceat(plain, starts)
    after_column = np.fromiter((a in columns for _, a in ranges), dtype=bool, count=len(texts))
    after_thai = np.fromiter((a in model.thai for _, a in ranges), dtype=bool, count=len(texts))
    last_absorbed = (flags[starts + lengths - 1] & ABSORBED) > 0
    count = lengths - (last_absorbed & ~after_thai)
    divided = (count > 1) & (lengths > 1)
    first_thai = (flags[starts] & THAI) > 0
    walked = divided & all_plain & first_thai & ~after_column
    ported = np.flatnonzero(divided & ~walked)
    undivided = np.flatnonzero(~divided)
    ids = [np.repeat(undivided, 2)]
    values = [np.stack((np.zeros(len(undivided), np.int64), lengths[undivided]), 1).ravel()]
    if len(ported):  # the port itself, on what the walk does not model
        found = [division(ranges[i][0] + ranges[i][1], int(lengths[i])) for i in ported]
        ids.append(np.repeat(ported, [len(b) for b in found]))
        values.append(np.fromiter((b for each in found for b in each), dtype=np.int64))
    lanes = np.flatnonzero(walked)
    if len(lanes):
        lane_ids, lane_values = _walked(
            codes,
            starts[lanes],
            lengths[lanes],
            after_end=[ranges[i][1] == END for i in lanes.tolist()],
            texts=[texts[i] for i in lanes.tolist()],
        )
        ids.append(lanes[lane_ids])
        values.append(lane_values)
    ids_all, values_all = np.concatenate(ids), np.concatenate(values)
    order = np.argsort(ids_all, kind="stable")
    return np.bincount(ids_all, minlength=len(ranges)), values_all[order]


@cache
def _column_codes() -> np.ndarray:
    return np.array(sorted(map(ord, dictionary().columns)), dtype=np.int64)


def _walked(
    codes: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    after_end: list[bool],
    texts: list[str],
) -> tuple[np.ndarray, np.ndarray]:
    """The divisions of ranges of dictionary characters (codes[start:start + length]:
    `texts`), each followed by the end (after_end) or by a character outside the
    dictionary: the longest words at each break where they lead to the end, else `_walk`.
    As (lane, break) pairs, in lane order. The dictionary is walked once per text."""
    first: dict[str, int] = {}
    copy = np.fromiter((first.setdefault(t, i) for i, t in enumerate(texts)), np.int64, len(texts))
    unique = np.flatnonzero(copy == np.arange(len(texts)))
    of_lane = (np.cumsum(copy == np.arange(len(texts))) - 1)[copy]  # each lane's unique range
    ulengths = lengths[unique]
    mine = codes[span_indices(starts[unique], starts[unique] + ulengths)] - THAI_BLOCK
    offsets = np.cumsum(ulengths) - ulengths
    room = np.repeat(offsets + ulengths, ulengths) - np.arange(len(mine))
    words, reach = word_ends(mine, room)
    path_lane, positions, failed = _longest_paths(words, offsets, ulengths)
    per = np.bincount(path_lane, minlength=len(unique))
    path_first = np.cumsum(per) - per
    done = np.flatnonzero(~failed[of_lane])
    u = of_lane[done]
    ids = [np.repeat(done, per[u])]
    values = [positions[span_indices(path_first[u], path_first[u] + per[u])]]
    redo = np.flatnonzero(failed[of_lane])
    if len(redo):
        words_list, reach_list = words.tolist(), reach.tolist()
        found = [
            _walk(words_list, reach_list, int(offsets[of_lane[k]]), int(lengths[k]), after_end[k])
            for k in redo.tolist()
        ]
        ids.append(np.repeat(redo, [len(b) for b in found]))
        values.append(np.fromiter((b for each in found for b in each), dtype=np.int64))
    ids_all, values_all = np.concatenate(ids), np.concatenate(values)
    order = np.argsort(ids_all, kind="stable")
    return ids_all[order], values_all[order]


def _longest_paths(
    words: np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each range, the breaks of the longest word at each break from its start to its
    end, as (range, break) pairs in range order, and which ranges have a break that starts
    no word. Where there is none, that is the division: the JDK's walk never has to back
    up (see the module's docstring)."""
    longest = np.frexp(words.astype(np.float64))[1].astype(np.int64)  # bit_length
    ends = starts + lengths
    lane = np.arange(len(starts))
    at = starts.copy()
    visited_lane, visited_at = [lane], [np.zeros(len(lane), dtype=np.int64)]
    failed = np.zeros(len(starts), dtype=bool)
    while len(lane):
        step = longest[at]
        failed[lane[step == 0]] = True
        at = at + step
        moved = step > 0
        visited_lane.append(lane[moved])
        visited_at.append((at - starts[lane])[moved])
        going = moved & (at < ends[lane])
        lane, at = lane[going], at[going]
    lanes = np.concatenate(visited_lane)
    order = np.argsort(lanes, kind="stable")
    return lanes[order], np.concatenate(visited_at)[order], failed


def _walk(words: list[int], reach: list[int], offset: int, n: int, at_end: bool) -> tuple[int, ...]:
    """divideUpDictionaryRange over a range of dictionary characters followed by none (or
    by the end of the text), a word at a time: from each position the dictionary walk
    passes every word end there (`words`), then stops where no word goes on (`reach`),
    or at the range's end, where it either completes a word or fails. The rest is the
    JDK's bookkeeping, line for line."""
    current: list[int] = []  # currentBreakPositions
    possible: list[int] = []  # possibleBreakPositions
    wrong: set[int] = set()  # wrongBreakPositions
    farthest = 0  # farthestEndPoint
    best: list[int] | None = None  # bestBreakPositions
    pos = 0
    while True:
        mask, length = words[offset + pos], reach[offset + pos]
        while mask:
            low = mask & -mask
            possible.append(pos + low.bit_length())
            mask ^= low
        if length and pos + length == n and words[offset + pos] >> (length - 1) & 1:
            current.append(n)  # the walk completed a word at the end: done
            break
        error = n - 1 if at_end and pos + length == n else pos + length
        if error > farthest:
            farthest = error
            best = current.copy()
        while possible and possible[-1] in wrong:
            possible.pop()
        if not possible:
            if best is not None:
                current = best  # shared, as in the JDK
                if farthest >= n:
                    break
                pos = farthest + 1
            else:
                if (not current or current[-1] != error) and error != 0:
                    current.append(error)
                pos = error + 1 if error + 1 < n + (not at_end) else error
                current.append(pos)
        else:
            position = possible.pop()
            while current and position < current[-1]:
                wrong.add(current.pop())
            current.append(position)
            pos = position
        if pos >= n:
            break
    if current:
        current.pop()
    current.append(n)
    return (0, *current)
