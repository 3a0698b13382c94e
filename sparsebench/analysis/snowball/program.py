"""The runtime of Lucene's Snowball stemmers (org.tartarus.snowball.SnowballProgram and
Among, lucene-analysis-common 9.9.1), ported to Python for the stemmers in snowball/generated/.

Lucene generates its stemmers with Snowball 2.0.0 (commit d8cf01dd) and a patch that
rewrites this runtime to work on a char[] buffer. The port keeps Java's model: the word
is a sequence of UTF-16 code units (a Python str whose characters are the code units, a
character outside the Basic Multilingual Plane as two surrogates: to_utf16_units),
`limit` is its length, and every operation moves `cursor`, `bra`, `ket` and the limits
as the Java one does.

Three things differ in form, not in result:

* a grouping (the char[] bit set and its min/max) is the frozenset of the characters
  whose bit is set, built once (`grouping`);
* find_among / find_among_b look the longest matching string up in a dict instead of
  Java's binary search. Java's search ends on the longest string of the table that
  matches and then walks the `substring_i` links, which visit every shorter matching
  string of the table from the longest down; here the matching strings are tried from
  the longest down too, with the same cursor before and after each routine a string
  calls, so both return the same result and leave the same cursor
  (tests/analysis/test_snowball.py checks this against a line-by-line port of the
  Java search);
* Snowball's goto and gopast over a grouping, a loop in the generated Java, are one call
  here (goto_in_grouping and the like; the translation replaces the loop by it).

Derived from Apache Lucene's SnowballProgram.java and Among.java (themselves from the
Snowball project), Apache License 2.0 and BSD licence: see
sparsebench/resources/lucene/snowball/NOTICE.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

_UTF16 = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"


def to_utf16_units(word: str) -> str:
    """A word as Java holds it: each UTF-16 code unit one character (a character outside
    the Basic Multilingual Plane as its two surrogates)."""
    return "".join(map(chr, memoryview(word.encode(_UTF16)).cast("H")))


def from_utf16_units(units: str) -> str:
    """Code units back to text; an unpaired surrogate becomes U+FFFD, as Lucene's UTF-16
    to UTF-8 conversion (UnicodeUtil.UTF16toUTF8) writes it into the index."""
    return units.encode(_UTF16, "surrogatepass").decode(_UTF16, "replace")


def grouping(bits: Sequence[int], low: int, high: int) -> frozenset[str]:
    """The characters of a Snowball grouping: bit (ch - low) of `bits` is set, low <= ch
    <= high (in_grouping's test: ch > max or ch < min is outside, else the bit)."""
    return frozenset(
        chr(ch)
        for ch in range(low, high + 1)
        if (ch - low) >> 3 < len(bits) and bits[(ch - low) >> 3] & (1 << ((ch - low) & 7))
    )


class Among:
    """One among table: its entries in Java's order (string, substring_i, result,
    routine name or None) and, for the look-up, the lengths of its strings by their first
    character (`first`, forward) and their last (`last`, backward), longest first, the
    empty string's length 0 in every tuple (and as `empty` for other characters)."""

    __slots__ = ("entries", "table", "first", "last", "empty")

    def __init__(self, entries: Iterable[tuple]) -> None:
        self.entries = tuple(
            (s, substring_i, result, routine[0] if routine else None)
            for s, substring_i, result, *routine in entries
        )
        self.table = {s: (result, routine) for s, _, result, routine in self.entries}
        if len(self.table) != len(self.entries):
            raise ValueError("an among table has a string twice")
        self.empty = (0,) if "" in self.table else ()
        first: dict[str, set[int]] = {}
        last: dict[str, set[int]] = {}
        for s in self.table:
            if s:
                first.setdefault(s[0], set()).add(len(s))
                last.setdefault(s[-1], set()).add(len(s))
        self.first = {ch: (*sorted(n, reverse=True), *self.empty) for ch, n in first.items()}
        self.last = {ch: (*sorted(n, reverse=True), *self.empty) for ch, n in last.items()}


class SnowballProgram:
    """SnowballProgram's state and operations (the generated stemmers subclass it)."""

    __slots__ = ("current", "cursor", "limit", "limit_backward", "bra", "ket")

    def __init__(self) -> None:
        self.set_current("")

    def set_current(self, value: str) -> None:
        self.current = value
        self.cursor = 0
        self.limit = len(value)
        self.limit_backward = 0
        self.bra = 0
        self.ket = self.limit

    def get_current(self) -> str:
        return self.current[: self.limit]

    # Groupings: `g` is a frozenset from grouping().

    def in_grouping(self, g: frozenset[str]) -> bool:
        c = self.cursor
        if c >= self.limit or self.current[c] not in g:
            return False
        self.cursor = c + 1
        return True

    def in_grouping_b(self, g: frozenset[str]) -> bool:
        c = self.cursor
        if c <= self.limit_backward or self.current[c - 1] not in g:
            return False
        self.cursor = c - 1
        return True

    def out_grouping(self, g: frozenset[str]) -> bool:
        c = self.cursor
        if c >= self.limit or self.current[c] in g:
            return False
        self.cursor = c + 1
        return True

    def out_grouping_b(self, g: frozenset[str]) -> bool:
        c = self.cursor
        if c <= self.limit_backward or self.current[c - 1] in g:
            return False
        self.cursor = c - 1
        return True

    def eq_s(self, s: str) -> bool:
        if self.current.startswith(s, self.cursor, self.limit):
            self.cursor += len(s)
            return True
        return False

    def eq_s_b(self, s: str) -> bool:
        if self.current.endswith(s, self.limit_backward, self.cursor):
            self.cursor -= len(s)
            return True
        return False

    def find_among(self, v: Among) -> int:
        c = self.cursor
        current = self.current
        available = self.limit - c
        lengths = v.first.get(current[c], v.empty) if available > 0 else v.empty
        table = v.table
        for n in lengths:
            if n > available:
                continue
            entry = table.get(current[c : c + n])
            if entry is None:
                continue
            result, routine = entry
            self.cursor = c + n
            if routine is None:
                return result
            ok = getattr(self, routine)()
            self.cursor = c + n
            if ok:
                return result
        return 0

    def find_among_b(self, v: Among) -> int:
        c = self.cursor
        available = c - self.limit_backward
        lengths = v.last.get(self.current[c - 1], v.empty) if available > 0 else v.empty
        if not lengths:  # the usual case: no string of the table ends here
            return 0
        current = self.current
        table = v.table
        for n in lengths:
            if n > available:
                continue
            entry = table.get(current[c - n : c])
            if entry is None:
                continue
            result, routine = entry
            self.cursor = c - n
            if routine is None:
                return result
            ok = getattr(self, routine)()
            self.cursor = c - n
            if ok:
                return result
        return 0

    def replace_s(self, c_bra: int, c_ket: int, s: str) -> int:
        """Replace current[c_bra:c_ket] by s."""
        adjustment = len(s) - (c_ket - c_bra)
        self.current = self.current[:c_bra] + s + self.current[c_ket : self.limit]
        self.limit += adjustment
        if self.cursor >= c_ket:
            self.cursor += adjustment
        elif self.cursor > c_bra:
            self.cursor = c_bra
        return adjustment

    def slice_check(self) -> None:
        if self.bra < 0 or self.bra > self.ket or self.ket > self.limit:
            raise ValueError(
                f"faulty slice operation: bra={self.bra},ket={self.ket},limit={self.limit}"
            )

    def slice_from(self, s: str) -> None:
        self.slice_check()
        self.replace_s(self.bra, self.ket, s)

    def slice_del(self) -> None:
        self.slice_from("")

    def insert(self, c_bra: int, c_ket: int, s: str) -> None:
        adjustment = self.replace_s(c_bra, c_ket, s)
        if c_bra <= self.bra:
            self.bra += adjustment
        if c_bra <= self.ket:
            self.ket += adjustment

    def slice_to(self) -> str:
        """The slice bra..ket (Java copies it into a StringBuilder)."""
        self.slice_check()
        return self.current[self.bra : self.ket]

    def assign_to(self) -> str:
        return self.current[: self.limit]

    # Snowball's goto and gopast over a grouping: the generated loop
    #     while (true) { if (test) { [restore;] break; } if (cursor at the limit) fail; step }
    # as one call. goto leaves the cursor before the character found, gopast after it;
    # on failure the cursor is at the limit, where the loop stops.

    def goto_in_grouping(self, g: frozenset[str]) -> bool:
        c, limit, current = self.cursor, self.limit, self.current
        while c < limit:
            if current[c] in g:
                self.cursor = c
                return True
            c += 1
        self.cursor = c
        return False

    def gopast_in_grouping(self, g: frozenset[str]) -> bool:
        if self.goto_in_grouping(g):
            self.cursor += 1
            return True
        return False

    def goto_out_grouping(self, g: frozenset[str]) -> bool:
        c, limit, current = self.cursor, self.limit, self.current
        while c < limit:
            if current[c] not in g:
                self.cursor = c
                return True
            c += 1
        self.cursor = c
        return False

    def gopast_out_grouping(self, g: frozenset[str]) -> bool:
        if self.goto_out_grouping(g):
            self.cursor += 1
            return True
        return False

    def goto_in_grouping_b(self, g: frozenset[str]) -> bool:
        c, lb, current = self.cursor, self.limit_backward, self.current
        while c > lb:
            if current[c - 1] in g:
                self.cursor = c
                return True
            c -= 1
        self.cursor = c
        return False

    def gopast_in_grouping_b(self, g: frozenset[str]) -> bool:
        if self.goto_in_grouping_b(g):
            self.cursor -= 1
            return True
        return False

    def goto_out_grouping_b(self, g: frozenset[str]) -> bool:
        c, lb, current = self.cursor, self.limit_backward, self.current
        while c > lb:
            if current[c - 1] not in g:
                self.cursor = c
                return True
            c -= 1
        self.cursor = c
        return False

    def gopast_out_grouping_b(self, g: frozenset[str]) -> bool:
        if self.goto_out_grouping_b(g):
            self.cursor -= 1
            return True
        return False
