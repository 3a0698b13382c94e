"""Token filters that several Lucene analyzers share, and the word lists they read.

A filter takes the distinct tokens of a batch (an Arrow string array) and returns their
replacements, "" for a token it drops. Word lists are read from the files of the
Lucene 9.9.1 jar, shipped under sparsebench/resources/lucene (see its README), in the
two formats Lucene's WordlistLoader reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources

import pyarrow as pa
import pyarrow.compute as pc

Filter = Callable[[pa.Array], pa.Array]


def resource_text(name: str) -> str:
    """A file under sparsebench/resources/lucene, as text."""
    return resources.files("sparsebench").joinpath("resources", "lucene", name).read_text("utf-8")


@cache
def word_set(name: str) -> frozenset[str]:
    """WordlistLoader.getWordSet: one word per line, '#' starts a comment line, each
    line trimmed of surrounding whitespace."""
    words = set()
    for line in resource_text(name).splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            words.add(line)
    return frozenset(words)


@cache
def snowball_word_set(name: str) -> frozenset[str]:
    """WordlistLoader.getSnowballWordSet: '|' starts a comment, several words to a line,
    separated by whitespace."""
    words = set()
    for line in resource_text(name).splitlines():
        words.update(line.split("|", 1)[0].split())
    return frozenset(words)


def lowercase(tokens: pa.Array) -> pa.Array:
    """LowerCaseFilter: each code point's simple lowercase (Character.toLowerCase)."""
    return pc.utf8_lower(tokens)


def stop(words: Iterable[str]) -> Filter:
    """StopFilter over a fixed set of words (matched exactly: lowercase before it)."""
    value_set = pa.array(sorted(set(words)), type=pa.string())

    def drop(tokens: pa.Array) -> pa.Array:
        return pc.if_else(pc.is_in(tokens, value_set=value_set), "", tokens)

    return drop


def per_token(function: Callable[[str], str]) -> Filter:
    """A filter from a function of one token (for filters with no Arrow kernel: they
    run once per distinct token of a batch)."""

    def apply(tokens: pa.Array) -> pa.Array:
        return pa.array([function(t) for t in tokens.to_pylist()], type=pa.string())

    return apply


def chained(*filters: Filter) -> Filter:
    """Filters applied in order; a dropped token stays dropped."""

    def apply(tokens: pa.Array) -> pa.Array:
        for each in filters:
            tokens = each(tokens)
        return tokens

    return apply
