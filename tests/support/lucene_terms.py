"""The reference files of Lucene's terms (tests/analysis/data/README.md), as the
runner that wrote them (Analyze.java) escaped them."""

from __future__ import annotations


def unescape(field: str) -> str:
    """A field with Analyze.java's escapes undone: a backslash before n, t, r or a
    backslash."""
    out, chars = [], iter(field)
    for c in chars:
        if c == "\\":
            c = next(chars, "\\")
            c = {"n": "\n", "t": "\t", "r": "\r"}.get(c, c)
        out.append(c)
    return "".join(out)
