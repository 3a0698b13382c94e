"""The JDK's ROOT sentence BreakIterator (jdk_break_iterator.sentence_breaks) over many
texts at once, with numpy.

A sentence scan stays in the start state until a sentence mark (`sentence_mark_chars`)
and, once back there, goes on as a scan that just started (`resumable`). So every mark
of the batch is stepped through the DFA together, each as if a scan had reached it
having read other characters first, until it stops (a break: RuleBasedBreakIterator's
result, lookahead included) or is back in the start state. Then each text takes its
marks in order as the port does: the first mark at or after where the last scan left
off (a mark at which a scan starts, at the text's start or right at a break, is stepped
again so). A text with U+FFFF (which the JDK reads as the end of the text) is left to
the port.

Ported from OpenJDK's sun/text/RuleBasedBreakIterator.java (GNU General Public License
version 2 with the Classpath exception); see sparsebench/resources/lucene/th/NOTICE.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from sparsebench.encode.lucene.jdk_break_data import DONE, START, STOP, TABLES, sentence_rules
from sparsebench.encode.lucene.jdk_break_iterator import resumable, sentence_mark_chars
from sparsebench.errors import DataError


@cache
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The sentence DFA as arrays: state table (with a last column for the characters it
    passes over: the state stays), accepting and lookahead states, the category column of
    every BMP character, and the marks."""
    rules = sentence_rules()
    state = np.array(rules.state, dtype=np.int64)
    state = np.concatenate((state, np.arange(len(state))[:, None]), axis=1)
    column = rules.bmp_categories()
    column[column < 0] = state.shape[1] - 1
    is_mark = np.zeros(0x10000, dtype=bool)
    is_mark[sentence_mark_chars()] = True
    end = np.array(rules.end, dtype=bool)
    return state, end, np.array(rules.lookahead, dtype=bool), column, is_mark


def sentence_breaks_batch(codes: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The breaks the sentence iterator returns inside texts (their UTF-16 units, each
    text shorter than ThaiTokenizer's buffer, concatenated in `codes`; `starts`: where
    each begins, and the end): (the breaks after a text's start and before its end, as
    indices in `codes`, sorted; which texts were left to the port)."""
    if not resumable():
        raise DataError(f"{TABLES}: the sentence rules cannot resume a scan")
    n = len(starts) - 1
    is_mark = _tables()[4][codes]
    marks = np.flatnonzero(is_mark)
    owner = np.searchsorted(starts, marks, side="right") - 1
    ported = np.zeros(n, dtype=bool)
    ported[owner[codes[marks] == DONE]] = True
    ended, reach = _scan(codes, marks, starts[owner + 1], starts[owner], marks)
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
            again = _scan(codes, mark[first], starts[text + 1], starts[text], mark[first] + 1)
            stops[first], position[first] = again
        stuck = position <= mark  # (a scan always reads its first character)
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
    codes: np.ndarray,
    marks: np.ndarray,
    limit: np.ndarray,
    origin: np.ndarray,
    result: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """RuleBasedBreakIterator.handleNext from each mark (in a text that starts at `origin`
    and ends at `limit`), its result so far given (the mark, when the scan has read other
    characters before it), until it stops or is back in the start state: (whether it
    stopped, its result; or where it goes on from)."""
    table, end, lookahead, column, _ = _tables()
    k = len(marks)
    ended, reach = np.ones(k, dtype=bool), np.zeros(k, dtype=np.int64)
    lane = np.arange(k)
    pos = marks.astype(np.int64)
    state = np.full(k, START, dtype=np.int64)
    result = result.astype(np.int64)
    ahead = origin.astype(np.int64)  # lookahead_result: 0 of the text
    limit = limit.astype(np.int64)
    done = codes[pos] == DONE
    while len(lane):
        stop = done | (state == STOP)
        finished = lane[stop]
        at_end = done[stop] & (ahead[stop] == limit[stop])
        reach[finished] = np.where(at_end, ahead[stop], result[stop])
        keep = ~stop
        lane, pos, state, result = lane[keep], pos[keep], state[keep], result[keep]
        ahead, limit = ahead[keep], limit[keep]
        state = table[state, column[codes[pos]]]
        looking, accepting = lookahead[state], end[state]
        result = np.where(looking & accepting, ahead, result)
        ahead = np.where(looking & ~accepting, pos + 1, ahead)
        result = np.where(~looking & accepting, pos + 1, result)
        resumed = state == START
        ended[lane[resumed]] = False
        reach[lane[resumed]] = pos[resumed] + 1
        keep = ~resumed
        lane, pos, state, result = lane[keep], pos[keep], state[keep], result[keep]
        ahead, limit = ahead[keep], limit[keep]
        done = pos + 1 >= limit
        pos = np.where(done, pos, pos + 1)
        done |= codes[pos] == DONE
    return ended, reach
