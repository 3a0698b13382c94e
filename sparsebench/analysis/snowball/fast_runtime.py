"""Snowball 2.0.0's stemmers (snowball/vendor/) with a faster among look-up, and
Finnish's tidying step in closed form: the speed layer of the Snowball analyzers.

The look-up of a suffix (or prefix) in an among table, `find_among_b` (`find_among`),
takes about half of a stemmer's time in vendor/basestemmer.py: a binary search over the
table a character comparison at a time, then a walk along the `substring_i` links. That
search ends on the longest string of the table that matches before the cursor (after
it), and the links go from each string to the longest shorter one that ends it (begins
it), so the walk visits every shorter matching string of the table, from the longest
down. Here the strings are looked up in a dict, from the longest length a string ending
(beginning) with the character at the cursor has, down: the same strings in the same
order, each with the same cursor before and after the routine it calls, so the same
result and the same cursor at the end, whatever the routines do. FinnishStemmer's
`tidy` routine, the next largest cost once the look-ups are dicts, is string tests on
the word (below).

Speed layer (fast_*): a second implementation of vendor/basestemmer.py's
BaseStemmer.find_among and find_among_b and of vendor/finnish_stemmer.py's
FinnishStemmer.__r_tidy, which it must equal; tests/analysis/test_snowball.py::
test_among_lookup_equals_the_vendored_search (the look-ups, from random cursors and
limits on strings of the tables' own strings), ::test_finnish_tidying_in_closed_form_
equals_the_vendored_routine and ::test_fast_stemmers_stem_as_the_vendored_ones (whole
stems on generated words) hold them equal. Its speed is in benchmarks/RESULTS.md.
"""

from __future__ import annotations

from sparsebench.analysis.snowball.vendor.among import Among
from sparsebench.analysis.snowball.vendor.basestemmer import BaseStemmer
from sparsebench.analysis.snowball.vendor.basque_stemmer import BasqueStemmer as _Basque
from sparsebench.analysis.snowball.vendor.danish_stemmer import DanishStemmer as _Danish
from sparsebench.analysis.snowball.vendor.dutch_stemmer import DutchStemmer as _Dutch
from sparsebench.analysis.snowball.vendor.finnish_stemmer import FinnishStemmer as _Finnish
from sparsebench.analysis.snowball.vendor.hungarian_stemmer import HungarianStemmer as _Hu
from sparsebench.analysis.snowball.vendor.norwegian_stemmer import NorwegianStemmer as _No
from sparsebench.analysis.snowball.vendor.russian_stemmer import RussianStemmer as _Russian
from sparsebench.analysis.snowball.vendor.swedish_stemmer import SwedishStemmer as _Swedish
from sparsebench.analysis.snowball.vendor.turkish_stemmer import TurkishStemmer as _Turkish


class Table:
    """One among table, for the look-up: string -> (result, routine name or None), and
    the lengths of its strings by their first character (`first`) and their last
    (`last`), longest first, with the empty string's 0 in every tuple (`empty` for
    the other characters)."""

    __slots__ = ("strings", "first", "last", "empty")

    def __init__(self, among: list[Among]) -> None:
        self.strings = {a.s: (a.result, a.method) for a in among}
        if len(self.strings) != len(among):
            raise ValueError("an among table holds a string twice")
        self.empty = (0,) if "" in self.strings else ()
        first: dict[str, set[int]] = {}
        last: dict[str, set[int]] = {}
        for s in self.strings:
            if s:
                first.setdefault(s[0], set()).add(len(s))
                last.setdefault(s[-1], set()).add(len(s))
        self.first = {ch: (*sorted(n, reverse=True), *self.empty) for ch, n in first.items()}
        self.last = {ch: (*sorted(n, reverse=True), *self.empty) for ch, n in last.items()}


# id of an among table (a class attribute of a vendored stemmer, alive as long as its
# class) -> the table made from it
_TABLES: dict[int, tuple[list[Among], Table]] = {}


def table(among: list[Among]) -> Table:
    found = _TABLES.get(id(among))
    if found is None or found[0] is not among:
        found = _TABLES[id(among)] = (among, Table(among))
    return found[1]


class FastAmong(BaseStemmer):
    """BaseStemmer with find_among and find_among_b as dict look-ups (see above)."""

    def find_among(self, v: list[Among]) -> int:
        t = _TABLES.get(id(v))
        t = t[1] if t is not None and t[0] is v else table(v)
        c, current = self.cursor, self.current
        room = self.limit - c
        lengths = t.first.get(current[c], t.empty) if room > 0 else t.empty
        for n in lengths:
            if n > room:
                continue
            found = t.strings.get(current[c : c + n])
            if found is None:
                continue
            result, routine = found
            self.cursor = c + n
            if routine is None:
                return result
            ok = getattr(self, routine)()
            self.cursor = c + n
            if ok:
                return result
        return 0

    def find_among_b(self, v: list[Among]) -> int:
        t = _TABLES.get(id(v))
        t = t[1] if t is not None and t[0] is v else table(v)
        c, current = self.cursor, self.current
        room = c - self.limit_backward
        lengths = t.last.get(current[c - 1], t.empty) if room > 0 else t.empty
        for n in lengths:
            if n > room:
                continue
            found = t.strings.get(current[c - n : c])
            if found is None:
                continue
            result, routine = found
            self.cursor = c - n
            if routine is None:
                return result
            ok = getattr(self, routine)()
            self.cursor = c - n
            if ok:
                return result
        return 0


class BasqueStemmer(FastAmong, _Basque):
    pass


class DanishStemmer(FastAmong, _Danish):
    pass


class DutchStemmer(FastAmong, _Dutch):
    pass


def grouping(bits: list[int], low: int, high: int) -> frozenset[str]:
    """The characters of a Snowball grouping as the generated code tests it
    (in_grouping(bits, low, high)): low <= ch <= high and bit ch - low of `bits` set."""
    return frozenset(
        chr(ch)
        for ch in range(low, high + 1)
        if (ch - low) >> 3 < len(bits) and bits[(ch - low) >> 3] & (1 << ((ch - low) & 7))
    )


# FinnishStemmer's tidying step: long vowels (among table a_5, the routine LONG), and the
# groupings it tests, with the bounds its calls pass (test_snowball.py checks them).
_FINNISH_LONG = frozenset(a.s for a in _Finnish.a_5)
_FINNISH_AEI = grouping(_Finnish.g_AEI, 97, 228)
_FINNISH_C = grouping(_Finnish.g_C, 98, 122)
_FINNISH_V1 = grouping(_Finnish.g_V1, 97, 246)


class FinnishStemmer(FastAmong, _Finnish):
    """Snowball 2.0.0's FinnishStemmer with its tidying step (a third of its time: five
    backward steps, each a run of cursor moves, tests and raised labels) as string tests
    on the word before the cursor: the same word after it, which is all the stem routine
    reads of what the step leaves (it puts the cursor back from the end after it)."""

    def _FinnishStemmer__r_tidy(self) -> bool:
        c, p1 = self.cursor, self.I_p1
        if c < p1:
            return False
        word, tail = self.current[:c], self.current[c : self.limit]
        # In R1 (the limit moved back to p1): a long vowel's last letter; [aeiä] after a
        # consonant; j after o or u; o after j (each step on the word the one before left).
        if len(word) - p1 >= 2 and word[-2:] in _FINNISH_LONG:
            word = word[:-1]
        if len(word) - p1 >= 2 and word[-1] in _FINNISH_AEI and word[-2] in _FINNISH_C:
            word = word[:-1]
        if len(word) - p1 >= 2 and word[-1] == "j" and word[-2] in "ou":
            word = word[:-1]
        if len(word) - p1 >= 2 and word[-1] == "o" and word[-2] == "j":
            word = word[:-1]
        # Anywhere: a doubled consonant before the final vowels loses one.
        lb, e = self.limit_backward, len(word)
        while e > lb and word[e - 1] in _FINNISH_V1:
            e -= 1
        undoubled = e - lb >= 2 and word[e - 1] in _FINNISH_C and word[e - 2] == word[e - 1]
        if undoubled:
            word = word[: e - 1] + word[e:]
        self.current = word + tail + self.current[self.limit :]
        self.limit = len(word) + len(tail)
        self.cursor = len(word)
        return undoubled


class HungarianStemmer(FastAmong, _Hu):
    pass


class NorwegianStemmer(FastAmong, _No):
    pass


class RussianStemmer(FastAmong, _Russian):
    pass


class SwedishStemmer(FastAmong, _Swedish):
    pass


class TurkishStemmer(FastAmong, _Turkish):
    pass
