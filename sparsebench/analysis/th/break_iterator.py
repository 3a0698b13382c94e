"""The JDK's Thai word BreakIterator and its sentence BreakIterator, exactly, in Python.

Lucene's ThaiTokenizer has no segmenter of its own: it asks the JVM for
`BreakIterator.getSentenceInstance(Locale.ROOT)` and
`BreakIterator.getWordInstance(new Locale("th"))`. On a full JDK these are
sun.text.RuleBasedBreakIterator (a DFA over character categories, compiled at the JDK's
build from the rules in sun.text.resources.BreakIteratorRules) and
sun.text.DictionaryBasedBreakIterator (the same with the Thai rules of
BreakIteratorRules_th, plus a dictionary of Thai words that divides each run of Thai
letters the DFA finds). This module ports both, on the data of th/break_data.

`Walker` is the port, method for method: `_rule_next` is RuleBasedBreakIterator.handleNext,
`next` DictionaryBasedBreakIterator.handleNext and `_divide` its divideUpDictionaryRange,
with their quirks kept (the trie state is not reset after an error at the end of a
range; the best break positions found so far are shared, not copied, when the search
restarts; U+FFFF in the text ends a scan, as CharacterIterator.DONE). Two shortcuts give
the same breaks faster: a run of characters on which the DFA stays in its state (letters,
Thai letters, spaces) is skipped with a regular expression instead of stepped through,
and the division of a run of Thai letters is remembered by the run and the character
after it, the only text it reads.

Ported from OpenJDK (sun/text/RuleBasedBreakIterator.java,
sun/text/DictionaryBasedBreakIterator.java; Copyright Oracle and/or its affiliates,
Taligent and IBM), licensed under the GNU General Public License version 2 with the
Classpath exception; see sparsebench/resources/lucene/th/NOTICE.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

import numpy as np

from sparsebench.analysis.th.break_data import (
    DONE,
    IGNORE,
    START,
    STOP,
    TABLES,
    Dictionary,
    Rules,
    char_class,
    dictionary,
    sentence_rules,
    word_rules,
)
from sparsebench.core.errors import DataError

BREAK_DONE = -1  # BreakIterator.DONE
RESUMED = -2  # a scan is back in the start state (Walker._rule_next)


class Walker:
    """A RuleBasedBreakIterator (or, with a dictionary, a DictionaryBasedBreakIterator) on
    one text, from its start: `next()` returns each break after the start, then -1."""

    def __init__(
        self, rules: Rules, text: str, words: Dictionary | None = None, fast: bool = True
    ) -> None:
        self.rules = rules
        self.words = words
        self.text = text
        self.n = len(text)
        self.pos = 0
        self.fast = fast
        self.cache: list[int] | None = None  # cachedBreakPositions
        self.in_cache = 0  # positionInCache
        self.dictionary_chars = 0  # dictionaryCharCount

    # CharacterIterator access, as RuleBasedBreakIterator's private helpers do it.
    def _current(self) -> tuple[int, int]:
        """getCurrent() and getCurrentCodePointCount() at pos."""
        pos, text = self.pos, self.text
        if pos >= self.n:
            return DONE, 1
        c = ord(text[pos])
        if 0xD800 <= c < 0xDC00 and pos + 1 < self.n:
            low = ord(text[pos + 1])
            if 0xDC00 <= low < 0xE000:
                return ((c - 0xD800) << 10) + (low - 0xDC00) + 0x10000, 2
        return c, 1

    def _next_char(self, width: int) -> tuple[int, int]:
        """getNext(): past the current character, unless that is the end (then DONE)."""
        if self.pos + width >= self.n:
            return DONE, 1
        self.pos += width
        return self._current()

    def _category(self, c: int) -> int:
        """lookupCategory, counting dictionary characters as DictionaryBasedBreakIterator."""
        category = self.rules.category(c)
        if category != IGNORE and self.rules.dictionary[category]:
            self.dictionary_chars += 1
        return category

    def _rule_next(self, result: int | None = None, until_start: bool = False) -> int:
        """RuleBasedBreakIterator.handleNext (`result`: the break so far, when resuming a
        scan that is in the start state here; `until_start`: stop, returning RESUMED with
        pos after the character, when the scan is back in the start state). Leaves in
        `read` the last index read."""
        if self.pos == self.n:
            return BREAK_DONE
        rules = self.rules
        table, end, lookahead = rules.state, rules.end, rules.lookahead
        c, width = self._current()
        if result is None:
            result = min(self.pos + width, self.n)
        lookahead_result = 0
        state = START
        while c != DONE and state != STOP:
            category = self._category(c)
            if category != IGNORE:
                state = table[state][category]
            if lookahead[state]:
                if end[state]:
                    result = lookahead_result
                else:
                    lookahead_result = min(self.pos + width, self.n)
            elif end[state]:
                result = min(self.pos + width, self.n)
            if until_start and state == START:
                self.read = self.pos
                self.pos = min(self.pos + width, self.n)
                return RESUMED
            c, width = self._next_char(width)
            if self.fast and state != STOP and c != DONE and rules.skip[state] is not None:
                c, width, result = self._skip(state, c, width, result)
        if c == DONE and lookahead_result == self.n:
            result = lookahead_result
        self.read = self.pos
        self.pos = result
        return result

    def _skip(self, state: int, c: int, width: int, result: int) -> tuple[int, int, int]:
        """Step over the run at pos on which `state` loops; return what stepping would."""
        run = self.rules.skip[state].match(self.text, self.pos)
        if run is None:
            return c, width, result
        last = run.end() - 1  # the run's last character is stepped normally
        if last > self.pos:
            if self.rules.skip_counts[state]:
                self.dictionary_chars += last - self.pos
            if self.rules.end[state]:
                result = last
            self.pos = last
            c, width = self._current()
        return c, width, result

    def next(self) -> int:
        """DictionaryBasedBreakIterator.handleNext (RuleBasedBreakIterator's without words)."""
        if self.words is None:
            return self._rule_next()
        if self.cache is None or self.in_cache == len(self.cache) - 1:
            start = self.pos
            self.dictionary_chars = 0
            result = self._rule_next()
            if self.dictionary_chars > 1 and result - start > 1:
                self._divide_cached(start, result)
            else:
                self.cache = None
                return result
        self.in_cache += 1
        self.pos = self.cache[self.in_cache]
        return self.pos

    def _divide_cached(self, start: int, end: int) -> None:
        """_divide, remembered by the range and what it reads after it."""
        first = self.rules.category(ord(self.text[start]))
        if not self.fast or first == IGNORE or not self.rules.dictionary[first]:
            self._divide(start, end)  # (the search for a first Thai letter reads further)
            return
        following = self.text[end] if end < self.n else ""
        if following and following not in self.words.columns:
            following = " "  # any character outside the dictionary reads the same
        breaks = division(self.text[start:end] + following, end - start)
        self.cache = [start + b for b in breaks]
        self.in_cache = 0

    def _divide(self, start: int, end: int) -> None:
        """DictionaryBasedBreakIterator.divideUpDictionaryRange: the breaks in [start, end]
        by the dictionary, into the cache."""
        words, rules = self.words, self.rules
        self.pos = start
        c, width = self._current()
        category = self._category(c)
        while category == IGNORE or not rules.dictionary[category]:
            if self.pos + width >= self.n:  # the JDK would loop for ever here
                raise DataError("a dictionary range without a dictionary character")
            c, width = self._next_char(width)
            category = self._category(c)
        current: list[int] = []  # currentBreakPositions
        possible: list[int] = []  # possibleBreakPositions
        wrong: set[int] = set()  # wrongBreakPositions
        state = 0
        farthest = self.pos  # farthestEndPoint
        best: list[int] | None = None  # bestBreakPositions
        c, width = self._current()
        while True:
            if words.final[state]:
                possible.append(self.pos)
            state = words.next_state(state, c)
            if state == -1:
                current.append(self.pos)
                break
            if state == 0 or self.pos >= end:
                if self.pos > farthest:
                    farthest = self.pos
                    best = current.copy()
                while possible and possible[-1] in wrong:
                    possible.pop()
                if not possible:
                    if best is not None:
                        current = best  # shared, as in the JDK
                        if farthest < end:
                            self.pos = farthest + 1
                        else:
                            break
                    else:
                        if (not current or current[-1] != self.pos) and self.pos != start:
                            current.append(self.pos)
                        self._next_char(width)
                        current.append(self.pos)
                else:
                    position = possible.pop()
                    while current and position < current[-1]:
                        wrong.add(current.pop())
                    current.append(position)
                    self.pos = current[-1]
                c, width = self._current()
                if self.pos >= end:
                    break
            else:
                c, width = self._next_char(width)
        if current:
            current.pop()
        current.append(end)
        self.cache = [start, *current]
        self.in_cache = 0


@lru_cache(maxsize=1 << 16)
def division(text: str, end: int) -> tuple[int, ...]:
    """The dictionary's breaks in text[:end] (text: the range and the character after it)."""
    walker = Walker(word_rules(), text, dictionary(), fast=False)
    walker._divide(0, end)
    return tuple(walker.cache)


def word_breaks(text: str, fast: bool = True) -> list[int]:
    """The Thai word BreakIterator's boundaries in text (UTF-16 units), 0 first."""
    walker = Walker(word_rules(), text, dictionary(), fast=fast)
    breaks = [0]
    while (b := walker.next()) != BREAK_DONE:
        breaks.append(b)
    return breaks


def sentence_breaks(text: str, fast: bool = True) -> list[int]:
    """The ROOT sentence BreakIterator's boundaries in text (UTF-16 units), 0 first.

    A scan stays in the start state until a sentence mark (`sentence_marks`), and once it
    is back there it goes on as one that just started (`resumable`). So the fast way
    steps only from each mark to where the scan stops or is back in the start state, and
    remembers that by the text it read there (up to 32 characters, or the rest)."""
    if not fast:
        walker = Walker(sentence_rules(), text)
        breaks = [0]
        while (b := walker.next()) != BREAK_DONE:
            breaks.append(b)
        return breaks
    search, n = sentence_marks().search, len(text)
    breaks, start, position = [0], 0, 0  # start: where the scan began
    while position < n:
        found = search(text, position)
        if found is None:
            break
        mark = found.start()
        fresh = mark > start  # the scan accepted the characters before the mark
        for window in WINDOWS:
            outcome = _after_mark.get((text[mark : mark + window], mark + window >= n, fresh))
            if outcome is not None:
                break
        else:
            outcome = _scan_from_mark(text, mark, fresh)
        ends, offset = outcome
        position = mark + offset
        if ends:
            breaks.append(position)
            start = position
    if n and breaks[-1] != n:
        breaks.append(n)
    return breaks


def _scan_from_mark(text: str, mark: int, fresh: bool) -> tuple[bool, int]:
    """Step a scan from a sentence mark: (whether it ends a sentence, where it stops, or
    where it is back in the start state), remembered by the shortest text it read."""
    if not resumable():
        raise DataError(f"{TABLES}: the sentence rules cannot resume a scan")
    walker = Walker(sentence_rules(), text)
    walker.pos = mark
    found = walker._rule_next(result=mark if fresh else mark + 1, until_start=True)
    outcome = (found != RESUMED, (walker.pos if found == RESUMED else found) - mark)
    for window in WINDOWS:
        if mark + window >= len(text) or walker.read < mark + window:
            if len(_after_mark) >= 1 << 16:
                _after_mark.clear()
            key = (text[mark : mark + window], mark + window >= len(text), fresh)
            _after_mark[key] = outcome
            break
    return outcome


@cache
def resumable() -> bool:
    """Whether a sentence scan back in the start state goes on as a new one would: no
    state it reaches from there without first passing a lookahead state that is not
    accepting (which sets where a lookahead starts) uses such a position."""
    rules = sentence_rules()
    seen, todo = {START}, [START]
    while todo:
        for nxt in rules.state[todo.pop()]:
            if nxt in seen or (rules.lookahead[nxt] and not rules.end[nxt]):
                continue
            if rules.lookahead[nxt]:
                return False
            seen.add(nxt)
            todo.append(nxt)
    return True


WINDOWS = (4, 8, 16, 32)  # the texts after a sentence mark that name what a scan does
_after_mark: dict[tuple[str, bool, bool], tuple[bool, int]] = {}


@cache
def sentence_mark_chars() -> np.ndarray:
    """The characters after which a sentence can end (". ! ? U+2029 ।" and the like: those
    that take the sentence DFA out of its start state) and U+FFFF, as BMP code points; no
    character beyond U+FFFF is one. A text without them is one sentence."""
    rules = sentence_rules()
    start = rules.state[START]
    marks = {k for k, nxt in enumerate(start) if nxt != START}
    if marks & set(rules.astral_category):
        raise DataError(f"{TABLES}: a character beyond U+FFFF can end a sentence")
    category = rules.bmp_categories()
    code_points = np.arange(0x10000)
    return code_points[np.isin(category, sorted(marks)) | (code_points == DONE)]


@cache
def sentence_marks() -> re.Pattern:
    """A pattern of `sentence_mark_chars`."""
    return re.compile(f"[{char_class(sentence_mark_chars())}]")
