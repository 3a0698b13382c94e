"""Tokens as the UTF-16 code units Lucene's stemmers see.

Lucene's stemmers edit a CharTermAttribute's char[]: UTF-16 code units. Their length
tests count units and Character.isLetter(char) is false for a surrogate, so a character
outside the Basic Multilingual Plane counts as two non-letters. The ports work on a
Python string of those units: the token itself when it has no such character (nearly
always), else the token with each such character as its two surrogates. Java's in-place
edits of the array (StemmerUtil.delete, deleteN, writes at len - k) become slicing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _surrogates(match: re.Match) -> str:
    point = ord(match.group()) - 0x10000
    return chr(0xD800 + (point >> 10)) + chr(0xDC00 + (point & 0x3FF))


def to_units(token: str) -> str:
    """The token's UTF-16 code units, one character each."""
    return _ASTRAL.sub(_surrogates, token)


def from_units(units: str) -> str:
    """The text of UTF-16 code units, surrogate pairs joined. A lone surrogate becomes
    U+FFFD, as Lucene's UTF-16 to UTF-8 conversion makes it (no stemmer here leaves
    one: every unit they cut or rewrite is one of the letters they test)."""
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def on_token(*steps: Callable[[str], str]) -> Callable[[str], str]:
    """A function of a token that runs the steps, in order, on its code units."""

    def apply(token: str) -> str:
        if not _ASTRAL.search(token):
            for step in steps:
                token = step(token)
            return token
        units = to_units(token)
        for step in steps:
            units = step(units)
        return from_units(units)

    return apply
