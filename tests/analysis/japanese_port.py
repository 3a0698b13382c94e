"""Lucene 9.9.1's JapaneseTokenizer, step for step: the rolling Viterbi search as the Java
class runs it, in Mode.SEARCH with discardPunctuation and discardCompoundToken (how
JapaneseAnalyzer builds it), without a user dictionary.

This is the readable reference that the compiled search (ja/search, the same steps
over arrays) is checked against, on real and random texts, texts long enough that the
Java search is forced to commit to a partial path (MAX_BACKTRACE_GAP), and every context
a chunk can stand in.

Positions are UTF-16 code units. A position holds one entry per word ending there (not
one per connection id: the Java class keeps them all), with the cost of the best path
to it, and its back pointer (start position, index of the entry there). The search
commits to the path so far ("backtrace") when it reaches a position with a single entry
that no word crosses; in SEARCH mode a word too long for its kind (more than two kanji,
or more than seven other characters) is replaced by the best segmentation under it when
that costs no more than the word plus its penalty (computeSecondBestThreshold,
pruneAndRescore); punctuation words are dropped.

Derived from Apache Lucene (org.apache.lucene.analysis.ja.JapaneseTokenizer), licensed
under the Apache License, Version 2.0; see sparsebench/resources/lucene/ja/NOTICE.
Kept as one module: the parse loop, the backtrace and the rescoring share the lattice
and must follow the Java class's order of steps exactly.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from sparsebench.analysis.ja.dictionary import (
    GROUP,
    INVOKE,
    KANJI,
    KANJINUMERIC,
    Dictionary,
    dictionary,
)
from sparsebench.analysis.ja.search import (
    MAX_BACKTRACE_GAP,
    MAX_UNKNOWN_WORD_LENGTH,
    SEARCH_MODE_KANJI_LENGTH,
    SEARCH_MODE_KANJI_PENALTY,
    SEARCH_MODE_OTHER_LENGTH,
    SEARCH_MODE_OTHER_PENALTY,
)

BOS = -1  # the word of the entry a text starts from
_INFINITY = 2**31 - 1  # Integer.MAX_VALUE

# A token: (start, end, word), start and end in UTF-16 code units.
Token = tuple[int, int, int]
# Known words at a position: (end, first word, end of words) for each surface there,
# shortest first.
Matcher = Callable[[str, int], list[tuple[int, int, int]]]


class _Position:
    """The entries of words ending at one position (JapaneseTokenizer.Position)."""

    __slots__ = ("costs", "right", "back_pos", "back_index", "back_word", "forward")

    def __init__(self) -> None:
        self.reset()
        self.forward: list[tuple[int, int]] = []  # (end position, word) in pruneAndRescore

    def reset(self) -> None:
        """No entries (the forward words pruneAndRescore gathers stay)."""
        self.costs: list[int] = []
        self.right: list[int] = []
        self.back_pos: list[int] = []
        self.back_index: list[int] = []
        self.back_word: list[int] = []

    def add(self, cost: int, right: int, back_pos: int, back_index: int, word: int) -> None:
        self.costs.append(cost)
        self.right.append(right)
        self.back_pos.append(back_pos)
        self.back_index.append(back_index)
        self.back_word.append(word)

    def keep_only(self, index: int) -> None:
        for values in (self.costs, self.right, self.back_pos, self.back_index, self.back_word):
            values[:] = [values[index]]


class Connections:
    """ConnectionCosts for lookups one at a time from Python (a flat array)."""

    def __init__(self, d: Dictionary) -> None:
        self.size = d.connection_costs.shape[1]
        self.flat = array("h", d.connection_costs.astype(np.int16).tobytes())

    def __call__(self, right: int, left: int) -> int:
        return self.flat[right * self.size + left]


def _surfaces(d: Dictionary) -> list[str]:
    """Every surface, as a string of UTF-16 code units (surrogates kept apart)."""
    units, offsets = d.surface_units, d.surface_offsets
    text = units.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    return [text[offsets[i] : offsets[i + 1]] for i in range(len(offsets) - 1)]


@cache
def known_matcher() -> Matcher:
    """The FST lookup of the system dictionary: every surface that starts at a position."""
    d = dictionary()
    surfaces = _surfaces(d)
    index = {surface: i for i, surface in enumerate(surfaces)}
    prefixes = {s[:k] for s in surfaces for k in range(1, len(s))}
    starts = d.surface_word_start.tolist()

    def matches(text: str, pos: int) -> list[tuple[int, int, int]]:
        found = []
        end = pos + 1
        while end <= len(text):
            piece = text[pos:end]
            i = index.get(piece)
            if i is not None:
                found.append((end, starts[i], starts[i + 1]))
            if piece not in prefixes:
                break
            end += 1
        return found

    return matches


@dataclass(frozen=True)
class Tables:
    """The dictionary as plain Python sequences, for lookups one at a time."""

    matcher: Matcher
    left: list[int]
    word_cost: list[int]
    unknown_start: list[int]
    char_class: bytes
    class_flags: list[int]
    punctuation: bytes
    kanji: bytes
    connection: Connections


@cache
def tables() -> Tables:
    d = dictionary()
    char_class = d.char_class.tobytes()
    return Tables(
        matcher=known_matcher(),
        left=d.word_left.tolist(),
        word_cost=d.word_cost.tolist(),
        unknown_start=d.unknown_class_start.tolist(),
        char_class=char_class,
        class_flags=d.class_flags.tolist(),
        punctuation=d.punctuation.tobytes(),
        kanji=bytes(c in (KANJI, KANJINUMERIC) for c in char_class),
        connection=Connections(d),
    )


class Tokenizer:
    """One text through JapaneseTokenizer.parse and backtrace, to its tokens."""

    def __init__(self, units: Sequence[int], t: Tables, start_right: int = 0) -> None:
        self.text = "".join(map(chr, units))
        self.units = list(units)
        self.matcher = t.matcher
        self.left = t.left
        self.word_cost = t.word_cost
        self.unknown_start = t.unknown_start
        self.char_class = t.char_class
        self.class_flags = t.class_flags
        self.punctuation = t.punctuation
        self.connection = t.connection
        self.kanji = t.kanji
        self.positions: dict[int, _Position] = {}
        self.next_pos = 0
        self.last_backtrace = 0
        self.tokens: list[Token] = []
        # BOS; start_right stands for the word a text cut at a commit point follows.
        self.position(0).add(0, start_right, -1, -1, BOS)

    # -- the lattice ------------------------------------------------------------------
    def position(self, pos: int) -> _Position:
        """WrappedPositionArray.get: positions come into being up to the one asked for."""
        while self.next_pos <= pos:
            self.positions[self.next_pos] = _Position()
            self.next_pos += 1
        return self.positions[pos]

    def right_id(self, word: int) -> int:
        return self.left[word]  # IPADIC: a word's right id is its left id

    def is_punctuation(self, pos: int) -> bool:
        return bool(self.punctuation[self.units[pos]])

    def penalty(self, pos: int, length: int) -> int:
        """computePenalty: long all-kanji words and very long other words."""
        if length <= SEARCH_MODE_KANJI_LENGTH:
            return 0
        kanji = self.kanji
        if all(kanji[unit] for unit in self.units[pos : pos + length]):
            return (length - SEARCH_MODE_KANJI_LENGTH) * SEARCH_MODE_KANJI_PENALTY
        if length > SEARCH_MODE_OTHER_LENGTH:
            return (length - SEARCH_MODE_OTHER_LENGTH) * SEARCH_MODE_OTHER_PENALTY
        return 0

    def add(self, start: int, end: int, word: int, add_penalty: bool) -> None:
        """A word from start to end, after the best entry at start."""
        source = self.position(start)
        left = self.left[word]
        least, least_index = _INFINITY, -1
        for index, (cost, right) in enumerate(zip(source.costs, source.right, strict=True)):
            cost += self.connection(right, left)
            if cost < least:
                least, least_index = cost, index
        least += self.word_cost[word]
        if add_penalty:
            least += self.penalty(start, end - start)
        self.position(end).add(least, left, start, least_index, word)

    def unknown_length(self, pos: int) -> int:
        """How far an unknown word from pos reaches: its character class's run (same class,
        same punctuation-ness, at most MAX_UNKNOWN_WORD_LENGTH), or one character."""
        units = self.units
        character_class = self.char_class[units[pos]]
        if not self.class_flags[character_class] & GROUP:
            return 1
        punct = self.punctuation[units[pos]]
        length = 1
        while length < MAX_UNKNOWN_WORD_LENGTH and pos + length < len(units):
            unit = units[pos + length]
            if self.char_class[unit] != character_class or self.punctuation[unit] != punct:
                break
            length += 1
        return length

    # -- the search -------------------------------------------------------------------
    def parse(self) -> list[Token]:
        pos, n = 0, len(self.units)
        while pos < n:
            data = self.position(pos)
            frontier = self.next_pos == pos + 1
            if not data.costs:
                pos += 1
                continue
            if pos > self.last_backtrace and len(data.costs) == 1 and frontier:
                self.backtrace(pos, 0)
                data.costs[0] = 0
            if pos - self.last_backtrace >= MAX_BACKTRACE_GAP:
                pos = self.force_backtrace(pos)
                continue
            any_matches = False
            for end, first, last in self.matcher(self.text, pos):
                for word in range(first, last):
                    self.add(pos, end, word, False)
                    any_matches = True
            character_class = self.char_class[self.units[pos]]
            if not any_matches or self.class_flags[character_class] & INVOKE:
                end = pos + self.unknown_length(pos)
                for word in range(
                    self.unknown_start[character_class], self.unknown_start[character_class + 1]
                ):
                    self.add(pos, end, word, False)
            pos += 1
        if pos > 0:
            data = self.position(pos)
            costs = zip(data.costs, data.right, strict=True)
            ends = [cost + self.connection(right, 0) for cost, right in costs]
            self.backtrace(pos, ends.index(min(ends)))
        return self.tokens

    def force_backtrace(self, pos: int) -> int:
        """The MAX_BACKTRACE_GAP safety: commit to the cheapest entry at or after pos."""
        least, least_pos, least_index = _INFINITY, -1, -1
        for pos2 in range(pos, self.next_pos):
            for index, cost in enumerate(self.position(pos2).costs):
                if cost < least:
                    least, least_pos, least_index = cost, pos2, index
        for pos2 in range(pos, self.next_pos):
            if pos2 != least_pos:
                self.position(pos2).reset()
        kept = self.position(least_pos)
        kept.keep_only(least_index)
        self.backtrace(least_pos, 0)
        kept.costs[0] = 0
        return least_pos

    def backtrace(self, end_pos: int, from_index: int) -> None:
        """Tokens of the best path from the last backtrace to end_pos, in SEARCH mode."""
        if end_pos == self.last_backtrace:
            return
        pos, best = end_pos, from_index
        alt_start = None  # start of the compound word an alternative path replaces
        last_left = -1
        found: list[Token] = []
        while pos > self.last_backtrace:
            data = self.position(pos)
            back_pos, word = data.back_pos[best], data.back_word[best]
            next_best = data.back_index[best]
            if alt_start is None:
                penalty = self.penalty(back_pos, pos - back_pos)
                if penalty > 0:
                    alternative = self.second_best(pos, best, penalty, last_left)
                    if alternative is not None:
                        alt_start, best = back_pos, alternative
                        back_pos, word = data.back_pos[best], data.back_word[best]
                        next_best = data.back_index[best]
            if alt_start is not None and alt_start >= back_pos:
                alt_start = None
            if not self.is_punctuation(back_pos):
                found.append((back_pos, pos, word))
            last_left = self.left[word]
            pos, best = back_pos, next_best
        self.last_backtrace = end_pos
        self.tokens.extend(reversed(found))

    def second_best(self, pos: int, best: int, penalty: int, last_left: int) -> int | None:
        """The entry at pos that ends the best path avoiding the too-long word (or None)."""
        data = self.position(pos)
        back_pos, word = data.back_pos[best], data.back_word[best]
        max_cost = data.costs[best] + penalty
        if last_left != -1:
            max_cost += self.connection(self.right_id(word), last_left)
        self.prune_and_rescore(back_pos, pos, data.back_index[best])
        least, least_index = _INFINITY, -1
        for index, cost in enumerate(data.costs):
            if last_left != -1:
                cost += self.connection(self.right_id(data.back_word[index]), last_left)
            if cost < least:
                least, least_index = cost, index
        if least_index != -1 and least <= max_cost and data.back_pos[least_index] != back_pos:
            return least_index
        return None

    def prune_and_rescore(self, start: int, end: int, best_start_index: int) -> None:
        """Keep the words between start and end, rescored with the length penalties."""
        for pos in range(end, start, -1):
            data = self.position(pos)
            for back_pos, word in zip(data.back_pos, data.back_word, strict=True):
                if back_pos >= start:
                    self.position(back_pos).forward.append((pos, word))
            data.reset()
        for pos in range(start, end):
            data = self.position(pos)
            forward, data.forward = data.forward, []
            if not data.costs:
                continue
            if pos == start:
                right = data.right[best_start_index]  # Java: 0 at BOS, else the word's
                path_cost = data.costs[best_start_index]
                for to, word in forward:
                    cost = (
                        path_cost
                        + self.word_cost[word]
                        + self.connection(right, self.left[word])
                        + self.penalty(pos, to - pos)
                    )
                    self.position(to).add(cost, self.right_id(word), pos, best_start_index, word)
            else:
                for to, word in forward:
                    self.add(pos, to, word, True)


def tokenize(units: Sequence[int], start_right: int = 0) -> list[Token]:
    """JapaneseTokenizer's tokens of a text (after CJKWidthCharFilter) as (start, end,
    word), in order, punctuation dropped; start_right: the right id of the word before
    the text when it is cut out of a longer one at a commit point (0: a whole text)."""
    return Tokenizer(units, tables(), start_right).parse()
