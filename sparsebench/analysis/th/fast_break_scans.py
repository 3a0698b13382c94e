"""The JDK's RuleBasedBreakIterator scans (th/break_iterator) over many texts at once,
with numpy: the ROOT sentence iterator's breaks, and the Thai word iterator's over text
without letters of the dictionary's script (where it never divides a range).

A word scan runs from each text's start, then from each break, every text's scan a step
at a time together. A sentence scan stays in the start state until a sentence mark
(`sentence_mark_chars`) and, once back there, goes on as a scan that just started
(`resumable`). So every mark of the batch is stepped through the DFA together, each as
if a scan had reached it having read other characters first, until it stops (a break:
RuleBasedBreakIterator's result, lookahead included) or is back in the start state. Then
each text takes its marks in order as the port does: the first mark at or after where
the last scan left off (a mark at which a scan starts, at the text's start or right at
a break, is stepped again so). A text with U+FFFF (which the JDK reads as the end of the
text) is left to the port.

Ported from OpenJDK's sun/text/RuleBasedBreakIterator.java (GNU General Public License
version 2 with the Classpath exception); see sparsebench/resources/lucene/th/NOTICE.

Speed layer (fast_*): a second implementation of th/break_iterator's scans, text by
text, which it must equal;
tests/analysis/test_thai.py::test_batch_sentence_breaks_equal_the_port and
test_batch_word_breaks_equal_the_port hold them equal. Its speed is in
benchmarks/RESULTS.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from sparsebench.analysis.th.break_data import (
    DONE,
    START,
    STOP,
    TABLES,
    Rules,
    sentence_rules,
    word_rules,
)
from sparsebench.analysis.th.break_iterator import resumable, sentence_mark_chars
from sparsebench.core.errors import DataError


@dataclass(frozen=True)
class _Tables:
    """A DFA as arrays: the state table (with a last column for the characters it passes
    over: the state stays), accepting and lookahead states, and the column of every BMP
    character."""

    state: np.ndarray
    end: np.ndarray
    lookahead: np.ndarray
    column: np.ndarray

    @classmethod
    def of(cls, rules: Rules) -> _Tables:
        state = np.array(rules.state, dtype=np.int64)
        state = np.concatenate((state, np.arange(len(state))[:, None]), axis=1)
        column = rules.bmp_categories()
        column[column < 0] = state.shape[1] - 1
        end, lookahead = np.array(rules.end, dtype=bool), np.array(rules.lookahead, dtype=bool)
        return cls(state, end, lookahead, column)


@cache
def _sentence_tables() -> _Tables:
    return _Tables.of(sentence_rules())


@cache
def _word_tables() -> _Tables:
    return _Tables.of(word_rules())


@cache
def _is_mark() -> np.ndarray:
    is_mark = np.zeros(0x10000, dtype=bool)
    is_mark[sentence_mark_chars()] = True
    return is_mark


def word_breaks_batch(codes: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The breaks the Thai word iterator returns in texts with no letter of the
    dictionary's script, no character it passes over and no U+FFFF (their UTF-16 units,
    concatenated in `codes`; `starts`: where each begins, and the end): (every break
    after a text's start, its end included, as indices in `codes`, in order; the text of
    each)."""
    if (codes == DONE).any():
        raise ValueError("U+FFFF ends every scan of the JDK's: a text with it is the port's")
    lane = np.flatnonzero(np.diff(starts) > 0)
    at = starts[lane]
    owner, breaks = _scan(_word_tables(), codes, at, starts[lane + 1], at, at + 1, again=True)
    order = np.argsort(breaks, kind="stable")
    return breaks[order], lane[owner[order]]


def sentence_breaks_batch(codes: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The breaks the sentence iterator returns inside texts (their UTF-16 units, each
    text shorter than ThaiTokenizer's buffer, concatenated in `codes`; `starts`: where
    each begins, and the end): (the breaks after a text's start and before its end, as
    indices in `codes`, sorted; which texts were left to the port)."""
    if not resumable():
        raise DataError(f"{TABLES}: the sentence rules cannot resume a scan")
    n = len(starts) - 1
    marks = np.flatnonzero(_is_mark()[codes])
    owner = np.searchsorted(starts, marks, side="right") - 1
    ported = np.zeros(n, dtype=bool)
    ported[owner[codes[marks] == DONE]] = True
    tables = _sentence_tables()
    ended, reach = _scan(tables, codes, marks, starts[owner + 1], starts[owner], marks, True)
    lane = np.flatnonzero(np.bincount(owner, minlength=n) > 0)
    position, begun = starts[lane].copy(), starts[lane].copy()
    found, found_in = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    while len(lane):
        j = np.searchsorted(marks, position)
        going = j < len(marks)
        going[going] = marks[j[going]] < starts[lane[going] + 1]
        lane, position, begun, j = lane[going], position[going], begun[going], j[going]
        mark, stops, position = marks[j], ended[j], reach[j]
        first = mark == begun  # a scan starts at the mark: its result so far is after it
        if first.any():
            text = lane[first]
            again = _scan(
                tables, codes, mark[first], starts[text + 1], starts[text], mark[first] + 1, True
            )
            stops[first], position[first] = again
        # A scan from a mark it has read no further than ends a sentence before the mark,
        # and the next starts at it; one that goes back before it is left to the port.
        stuck = (position < mark) | ((position == mark) & first)
        ported[lane[stuck]] = True
        breaks = stops & ~stuck
        found.append(position[breaks])
        found_in.append(lane[breaks])
        begun = np.where(breaks, position, begun)
        lane, position, begun = lane[~stuck], position[~stuck], begun[~stuck]
    out, text = np.concatenate(found), np.concatenate(found_in)
    keep = (out < starts[text + 1]) & ~ported[text]  # (not the ends of texts)
    return np.sort(out[keep]), ported


def _scan(
    tables: _Tables,
    codes: np.ndarray,
    marks: np.ndarray,
    limit: np.ndarray,
    origin: np.ndarray,
    result: np.ndarray,
    until_start: bool = False,
    again: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """RuleBasedBreakIterator.handleNext from each of `marks` (in a text that starts at
    `origin` and ends at `limit`), its result so far given (for a sentence scan that has
    read other characters before the mark: the mark), until it stops, or (until_start) is
    back in the start state: (whether it stopped, its result; or where it goes on from).
    With `again`, a scan that stops before the end of its text starts again there (as
    the iterator's next call): (the scan of each break, every break)."""
    table, end, lookahead, column = tables.state, tables.end, tables.lookahead, tables.column
    k = len(marks)
    ended, reach = np.ones(k, dtype=bool), np.zeros(k, dtype=np.int64)
    found, found_in = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    lane = np.arange(k)
    pos = marks.astype(np.int64)
    begin = pos.copy()  # where each scan started
    state = np.full(k, START, dtype=np.int64)
    result = result.astype(np.int64)
    origin = origin.astype(np.int64)
    ahead = origin.copy()  # lookahead_result: 0 of the text
    limit = limit.astype(np.int64)
    done = codes[pos] == DONE
    while len(lane):
        stop = done | (state == STOP)
        at_end = done[stop] & (ahead[stop] == limit[stop])
        stopped = np.where(at_end, ahead[stop], result[stop])
        reach[lane[stop]] = stopped
        if again:
            found.append(stopped)
            found_in.append(lane[stop])
            if (stopped <= begin[stop]).any():  # (the iterator would loop for ever)
                raise DataError(f"{TABLES}: a word scan does not move on")
            restart = np.flatnonzero(stop)[stopped < limit[stop]]
            pos[restart] = begin[restart] = reach[lane[restart]]
            state[restart], result[restart] = START, pos[restart] + 1
            ahead[restart] = origin[restart]
            stop[restart] = False
        keep = ~stop
        lane, pos, state, result = lane[keep], pos[keep], state[keep], result[keep]
        ahead, limit, origin, begin = ahead[keep], limit[keep], origin[keep], begin[keep]
        state = table[state, column[codes[pos]]]
        looking, accepting = lookahead[state], end[state]
        result = np.where(looking & accepting, ahead, result)
        ahead = np.where(looking & ~accepting, pos + 1, ahead)
        result = np.where(~looking & accepting, pos + 1, result)
        resumed = (state == START) & until_start
        ended[lane[resumed]] = False
        reach[lane[resumed]] = pos[resumed] + 1
        keep = ~resumed
        lane, pos, state, result = lane[keep], pos[keep], state[keep], result[keep]
        ahead, limit, origin, begin = ahead[keep], limit[keep], origin[keep], begin[keep]
        done = pos + 1 >= limit
        pos = np.where(done, pos, pos + 1)
        done |= codes[pos] == DONE
    if again:
        return np.concatenate(found_in), np.concatenate(found)
    return ended, reach
