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


# The first of each run of ten decimal digits beyond ASCII, as Java 17 sees them
# (Character.isDigit, Unicode 13: 64 runs; Character.getNumericValue of each digit is its
# distance from the run's first), read from the JVM.
DECIMAL_DIGIT_ZEROS = (
    0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
    0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50,
    0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450,
    0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60,
    0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
)  # fmt: skip
_ASCII_DIGITS = str.maketrans(
    {zero + value: str(value) for zero in DECIMAL_DIGIT_ZEROS for value in range(10)}
)


def decimal_digits(tokens: pa.Array) -> pa.Array:
    """DecimalDigitFilter: each decimal digit beyond ASCII (Thai, Arabic-Indic, Devanagari,
    fullwidth...) replaced by the ASCII digit of its value."""
    if pc.all(pc.string_is_ascii(tokens)).as_py() is not False:
        return tokens
    return pa.array([t.translate(_ASCII_DIGITS) for t in tokens.to_pylist()], type=pa.string())


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
