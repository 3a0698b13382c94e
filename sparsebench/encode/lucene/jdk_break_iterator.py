"""The JDK's Thai word BreakIterator and its sentence BreakIterator, exactly, in Python.

Lucene's ThaiTokenizer has no segmenter of its own: it asks the JVM for
`BreakIterator.getSentenceInstance(Locale.ROOT)` and
`BreakIterator.getWordInstance(new Locale("th"))`. On a full JDK these are
sun.text.RuleBasedBreakIterator (a DFA over character categories, compiled at the JDK's
build from the rules in sun.text.resources.BreakIteratorRules) and
sun.text.DictionaryBasedBreakIterator (the same with the Thai rules of
BreakIteratorRules_th, plus a dictionary of Thai words that divides each run of Thai
letters the DFA finds). This module ports both. The DFA tables, the dictionary's words
and Java's Character.isLetterOrDigit were read from OpenJDK 17's own files
(resources/lucene/th, see the README there).

Texts are strings of UTF-16 code units (`utf16_units`: a character beyond U+FFFF as its
two surrogates), the JDK's indices; U+FFFF ends a scan as CharacterIterator.DONE does.

`Walker` is the port, method for method: `_rule_next` is RuleBasedBreakIterator.handleNext,
`next` DictionaryBasedBreakIterator.handleNext and `_divide` its divideUpDictionaryRange,
with their quirks kept (the trie state is not reset after an error at the end of a
range; the best break positions found so far are shared, not copied, when the search
restarts). Two shortcuts give the same breaks faster: a run of characters on which the
DFA stays in its state (letters, Thai letters, spaces) is skipped with a regular
expression instead of stepped through, and the division of a run of Thai letters is
remembered by the run and the character after it, the only text it reads.

Ported from OpenJDK (sun/text/RuleBasedBreakIterator.java,
sun/text/DictionaryBasedBreakIterator.java, sun/text/BreakDictionary.java; Copyright
Oracle and/or its affiliates, Taligent and IBM), licensed under the GNU General Public
License version 2 with the Classpath exception; see sparsebench/resources/lucene/th/NOTICE.
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

import numpy as np

from sparsebench.errors import DataError

RESOURCE_DIR = ("resources", "lucene", "th")
TABLES = "break_iterator_jdk17.npz"
# SHA-256 of the tables (arrays in sorted name order, name then raw bytes): an edit of the
# resource must come with an edit of this module, which reruns the stages using it.
TABLES_SHA256 = "1021b4024e449dd01f970b30feb5ceb8e36205195dfcbd7ad25db9e489229685"
DICTIONARY = "thai_dict.txt.gz"
DICTIONARY_WORDS = 31_992

DONE = 0xFFFF  # CharacterIterator.DONE: a scan stops at it, even in the text
BREAK_DONE = -1  # BreakIterator.DONE
IGNORE = -1  # the category of characters the DFA passes over (marks, format characters)
START, STOP = 1, 0  # DFA states
_SURROGATES = "\ud800-\udfff"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _resource(name: str):
    return resources.files("sparsebench").joinpath(*RESOURCE_DIR, name)


@cache
def _arrays() -> dict[str, np.ndarray]:
    with _resource(TABLES).open("rb") as handle, np.load(handle) as archive:
        arrays = {name: archive[name] for name in archive.files}
    digest = hashlib.sha256()
    for name in sorted(arrays):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(arrays[name]).tobytes())
    if digest.hexdigest() != TABLES_SHA256:
        raise DataError(f"{TABLES}: the break iterator tables are not the expected ones")
    return arrays


def utf16_units(text: str) -> str:
    """The text with each character beyond U+FFFF as its two surrogates (the JDK's chars)."""
    if text.isascii() or max(text) <= "\uffff":
        return text
    return _ASTRAL.sub(lambda m: _surrogate_pair(ord(m.group())), text)


def _surrogate_pair(code_point: int) -> str:
    code_point -= 0x10000
    return chr(0xD800 | (code_point >> 10)) + chr(0xDC00 | (code_point & 0x3FF))


def from_utf16_units(units: str) -> str:
    """Surrogate pairs joined again; a lone surrogate becomes U+FFFD, as Lucene indexes it."""
    if not re.search(f"[{_SURROGATES}]", units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def char_class(code_points: np.ndarray) -> str:
    """A regular-expression character class body for a sorted array of BMP code points."""
    if not len(code_points):
        return ""
    breaks = np.nonzero(np.diff(code_points) != 1)[0]
    starts = np.concatenate(([code_points[0]], code_points[breaks + 1]))
    ends = np.concatenate((code_points[breaks], [code_points[-1]]))
    return "".join(
        re.escape(chr(s)) if s == e else f"{re.escape(chr(s))}-{re.escape(chr(e))}"
        for s, e in zip(starts.tolist(), ends.tolist(), strict=True)
    )


@dataclass(frozen=True)
class Rules:
    """One DFA: RuleBasedBreakIterator's tables, and the runs each state skips."""

    state: list[list[int]]  # state -> category -> next state
    end: list[bool]  # accepting states
    lookahead: list[bool]  # states that start or end a lookahead
    dictionary: list[bool]  # category -> in the dictionary's script (word rules only)
    bmp: bytes  # code point -> category + 1 (0: IGNORE), for U+0000-U+FFFF
    astral_start: list[int]  # SupplementaryCharacterData: range starts (and a sentinel)
    astral_category: list[int]
    skip: list[re.Pattern | None]  # state -> a run of characters it loops on, if any
    skip_counts: list[bool]  # state -> whether its loop characters are dictionary ones

    def category(self, c: int) -> int:
        """RuleBasedBreakIterator.lookupCategory."""
        if c < 0x10000:
            return self.bmp[c] - 1
        k = bisect.bisect_right(self.astral_start, c) - 1
        return self.astral_category[k]


def _rules(name: str) -> Rules:
    a = _arrays()
    state = a[f"{name}_state"].astype(np.int64)
    end = a[f"{name}_end"]
    lookahead = a[f"{name}_lookahead"]
    bmp = a[f"{name}_bmp"].astype(np.int64)
    n_categories = state.shape[1]
    dictionary = a.get(f"{name}_dictionary", np.zeros(n_categories, dtype=bool))
    if not (bmp.min() >= -1 and bmp.max() < n_categories and 0 < n_categories < 255):
        raise DataError(f"{TABLES}: the {name} categories are out of range")
    # A state's run: characters of the BMP (no surrogates) on which the DFA stays in that
    # state, where stepping over them changes only the break position (and the count of
    # dictionary characters: a state whose loop counts passes over no IGNORE character).
    code_points = np.arange(0x10000)
    plain = (code_points < 0xD800) | (code_points > 0xDFFF)
    plain[DONE] = False
    skip, skip_counts = [], []
    for s in range(len(end)):
        loops = np.nonzero(state[s] == s)[0]
        counted = dictionary[loops]
        if s == STOP or lookahead[s] or not len(loops) or counted.any() != counted.all():
            skip.append(None)
            skip_counts.append(False)
            continue
        members = np.isin(bmp, loops) | ((bmp == IGNORE) & ~counted.all())
        members = code_points[plain & members]
        skip.append(re.compile(f"[{char_class(members)}]+"))
        skip_counts.append(bool(counted.all()))
    return Rules(
        state=state.tolist(),
        end=end.tolist(),
        lookahead=lookahead.tolist(),
        dictionary=dictionary.tolist(),
        bmp=bytes((bmp + 1).tolist()),
        astral_start=a[f"{name}_astral_start"].tolist(),
        astral_category=a[f"{name}_astral_category"].tolist(),
        skip=skip,
        skip_counts=skip_counts,
    )


@cache
def word_rules() -> Rules:
    """The rules of BreakIterator.getWordInstance(new Locale("th"))."""
    return _rules("word")


@cache
def sentence_rules() -> Rules:
    """The rules of BreakIterator.getSentenceInstance(Locale.ROOT)."""
    return _rules("sentence")


@dataclass(frozen=True)
class Dictionary:
    """BreakDictionary: the JDK's Thai words as a minimal automaton (the JDK's trie is one,
    every state of it leading to a word, so its behaviour is that of its word list).

    State 0 is the root and the error state; -1 is "a word ended before this character".
    """

    transitions: dict[int, int]  # state << 7 | (character - U+0E00) -> next state
    final: list[bool]  # state -> a word ends here
    columns: frozenset[str]  # the characters the dictionary knows (all in U+0E01-U+0E7F)

    def next_state(self, state: int, c: int) -> int:
        """BreakDictionary.getNextStateFromCharacter."""
        if 0xE00 < c < 0xE80 and chr(c) in self.columns:
            return self.transitions.get(state << 7 | (c - 0xE00), 0)
        return -1 if self.final[state] else 0


@cache
def dictionary() -> Dictionary:
    with _resource(DICTIONARY).open("rb") as handle:
        words = gzip.decompress(handle.read()).decode("utf-8").split("\n")[:-1]
    columns = frozenset("".join(words))
    if len(words) != DICTIONARY_WORDS or not all("\u0e00" < c < "\u0e80" for c in columns):
        raise DataError(f"{DICTIONARY}: not the JDK's {DICTIONARY_WORDS} Thai words")
    transitions, final = _minimal_automaton(words)
    return Dictionary(transitions=transitions, final=final, columns=columns)


def _minimal_automaton(words: list[str]) -> tuple[dict[int, int], list[bool]]:
    """The minimal automaton of sorted words (Daciuk et al.'s incremental construction)."""
    edges: list[dict[str, int]] = [{}]
    final = [False]
    register: dict[tuple, int] = {}
    path = [0]  # the states along the previous word
    previous = ""

    def settle(depth: int) -> None:  # register the states of `path` below depth
        for j in range(len(path) - 1, depth, -1):
            child = path[j]
            key = (final[child], tuple(sorted(edges[child].items())))
            if key in register:
                edges[path[j - 1]][previous[j - 1]] = register[key]
            else:
                register[key] = child
        del path[depth + 1 :]

    for word in words:
        if word <= previous:
            raise DataError(f"{DICTIONARY}: the words are not sorted and distinct")
        common = 0
        while common < min(len(word), len(previous)) and word[common] == previous[common]:
            common += 1
        settle(common)
        for ch in word[common:]:
            edges.append({})
            final.append(False)
            edges[path[-1]][ch] = len(edges) - 1
            path.append(len(edges) - 1)
        final[path[-1]] = True
        previous = word
    settle(0)
    kept = sorted(set(register.values()) | {0})
    number = {old: new for new, old in enumerate(kept)}
    transitions = {
        number[s] << 7 | (ord(ch) - 0xE00): number[t] for s in kept for ch, t in edges[s].items()
    }
    return transitions, [final[s] for s in kept]


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

    def _rule_next(self) -> int:
        """RuleBasedBreakIterator.handleNext."""
        if self.pos == self.n:
            return BREAK_DONE
        rules = self.rules
        table, end, lookahead = rules.state, rules.end, rules.lookahead
        c, width = self._current()
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
            c, width = self._next_char(width)
            if self.fast and state != STOP and c != DONE and rules.skip[state] is not None:
                c, width, result = self._skip(state, c, width, result)
        if c == DONE and lookahead_result == self.n:
            result = lookahead_result
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
    """The ROOT sentence BreakIterator's boundaries in text (UTF-16 units), 0 first."""
    walker = Walker(sentence_rules(), text, fast=fast)
    breaks = [0]
    while (b := walker.next()) != BREAK_DONE:
        breaks.append(b)
    return breaks


@cache
def _letter_or_digit() -> tuple[bytes, list[int], list[int]]:
    a = _arrays()
    starts, ends = a["letter_or_digit_start"], a["letter_or_digit_end"]
    bmp = np.zeros(0x10000, dtype=np.uint8)
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        bmp[s : min(e, 0x10000)] = 1
    astral = starts >= 0x10000
    return bmp.tobytes(), starts[astral].tolist(), ends[astral].tolist()


def is_letter_or_digit(code_point: int) -> bool:
    """Character.isLetterOrDigit (Java 17, Unicode 13)."""
    bmp, starts, ends = _letter_or_digit()
    if code_point < 0x10000:
        return bmp[code_point] == 1
    k = bisect.bisect_right(starts, code_point) - 1
    return k >= 0 and code_point < ends[k]


def code_point_at(text: str, index: int) -> int:
    """Character.codePointAt(char[], index, limit = len(text))."""
    c = ord(text[index])
    if 0xD800 <= c < 0xDC00 and index + 1 < len(text):
        low = ord(text[index + 1])
        if 0xDC00 <= low < 0xE000:
            return ((c - 0xD800) << 10) + (low - 0xDC00) + 0x10000
    return c


@cache
def piece_boundaries() -> re.Pattern:
    """Where the word iterator's text can be cut into pieces that break independently:
    after a space (the category of " ") and before a character that no state the space
    leads to continues with (nor a mark the DFA passes over, nor a surrogate).

    There every scan stops at the latest, so the position is a break, and the breaks on
    either side do not depend on the text across it; the only thing the scan reads across
    it is the character after the cut, which counts as a dictionary character if it is
    one (see `word_piece_breaks`). Checked here on the tables: a state a space leads to
    never waits for a lookahead at the end of the text, and one that accepts after the
    space without a lookahead is reached only from the start or another such state (a
    run of spaces, which holds no dictionary character, so no division reads past it).
    """
    rules = word_rules()
    space = rules.category(ord(" "))
    after = {row[space] for row in rules.state} - {STOP}
    continued = {k for t in after for k, nxt in enumerate(rules.state[t]) if nxt != STOP}
    for s, row in enumerate(rules.state):
        t = row[space]
        waits = rules.lookahead[t] and not rules.end[t]
        from_elsewhere = rules.end[t] and not rules.lookahead[t] and s not in after | {START}
        if t != STOP and (waits or from_elsewhere):
            raise DataError(f"{TABLES}: the word rules cannot be cut at spaces")
    code_points = np.arange(0x10000)
    category = np.frombuffer(rules.bmp, dtype=np.uint8).astype(np.int64) - 1
    spaces = code_points[category == space]
    stoppers = (category != IGNORE) & ~np.isin(category, sorted(continued))
    stoppers &= (code_points < 0xD800) | (code_points > 0xDFFF)
    return re.compile(f"(?<=[{char_class(spaces)}])(?=[{char_class(code_points[stoppers])}])")


def word_piece_breaks(piece: str, dictionary_follows: bool) -> list[int]:
    """word_breaks of a piece cut at `piece_boundaries`, given whether the character after
    the cut (if any) is one of the dictionary's script."""
    if not dictionary_follows:
        return word_breaks(piece)
    breaks = word_breaks(piece + _DICTIONARY_LETTER)
    return breaks[: breaks.index(len(piece)) + 1]


_DICTIONARY_LETTER = "\u0e01"  # ก: any letter of the dictionary's script reads the same


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
    category = np.frombuffer(rules.bmp, dtype=np.uint8).astype(np.int64) - 1
    code_points = np.arange(0x10000)
    return code_points[np.isin(category, sorted(marks)) | (code_points == DONE)]


@cache
def sentence_marks() -> re.Pattern:
    """A pattern of `sentence_mark_chars`."""
    return re.compile(f"[{char_class(sentence_mark_chars())}]")
