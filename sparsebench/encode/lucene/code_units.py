"""Lucene's StemmerUtil, and the char[] buffer its stemmers edit, in Python.

A stemmer port edits a buffer `s` of UTF-16 code units (one-character strings, a
character outside the Basic Multilingual Plane as its two surrogates) in place and
returns its new length `n`, as Lucene's stemmers do on a CharTermAttribute's char[]: so
their length tests count code units, as Java's do.

Derived from Apache Lucene, StemmerUtil.java, licensed under the Apache License, Version
2.0 (http://www.apache.org/licenses/LICENSE-2.0); Copyright The Apache Software
Foundation. See sparsebench/resources/lucene/light/NOTICE.
"""

from __future__ import annotations

from collections.abc import Callable

Stemmer = Callable[[list[str], int], int]


def starts_with(s: list[str], n: int, prefix: str) -> bool:
    return len(prefix) <= n and "".join(s[: len(prefix)]) == prefix


def ends_with(s: list[str], n: int, suffix: str) -> bool:
    return len(suffix) <= n and "".join(s[n - len(suffix) : n]) == suffix


def delete(s: list[str], pos: int, n: int) -> int:
    """Delete the unit at pos; the units after it move left (the tail is left as is)."""
    s[pos : n - 1] = s[pos + 1 : n]
    return n - 1


def delete_n(s: list[str], pos: int, n: int, count: int) -> int:
    s[pos : n - count] = s[pos + count : n]
    return n - count


def to_units(token: str) -> list[str]:
    """A token as its UTF-16 code units (the char[] of Lucene's CharTermAttribute)."""
    if not token or max(token) <= "\uffff":
        return list(token)
    units = []
    for char in token:
        point = ord(char)
        if point > 0xFFFF:
            point -= 0x10000
            units += (chr(0xD800 + (point >> 10)), chr(0xDC00 + (point & 0x3FF)))
        else:
            units.append(char)
    return units


def from_units(units: list[str], n: int) -> str:
    """The first n code units as a string, surrogate pairs joined. No stemmer splits a
    pair: every unit they cut or rewrite is one of the letters they test."""
    text = "".join(units[:n])
    if max(text, default="\0") < "\ud800":
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def on_token(*steps: Stemmer) -> Callable[[str], str]:
    """A function of a token that runs the steps, in order, on its buffer."""

    def apply(token: str) -> str:
        units = to_units(token)
        n = len(units)
        for step in steps:
            n = step(units, n)
        return from_units(units, n)

    return apply
