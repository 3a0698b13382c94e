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
_MEMORY = 1 << 20  # tokens a remembered memory keeps before it starts afresh
# The term of a token that filters cut to nothing (TurkishStemmer: "leri"; Arabic
# normalization: a lone tatweel). Lucene indexes that empty term (it counts in the
# document's length and a query with such a word searches it); a chain's "" means a
# dropped token, so the empty term is written as this character instead, which
# StandardTokenizer never puts in a token (a symbol: word-break class Other).
EMPTY_TERM = "\u2205"

# The first code point (digit zero) of each run of ten decimal digits beyond ASCII: the
# code points of Java's Character.isDigit (general category Nd), each run's in order, as
# Java 21 has them (Unicode 15.0; printed by that JDK), the Java Anserini 1.x runs on.
# Java 17 (Unicode 13.0) lacks 0x11F50, 0x16AC0 and 0x1E4F0: StandardTokenizer (Unicode
# 12.1) puts them in no token, so its languages' terms are the same on Java 17, while
# ThaiTokenizer keeps them (Java 21's isLetterOrDigit). Java 11 (Unicode 10.0) also lacks
# the runs at 0x10D30, 0x11950, 0x11DA0, 0x1E140, 0x1E2F0 and 0x1FBF0.
JAVA_DIGIT_ZEROS = (
    0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0,
    0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0,
    0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0,
    0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50,
    0x11DA0, 0x11F50, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC,
    0x1D7F6, 0x1E140, 0x1E2F0, 0x1E4F0, 0x1E950, 0x1FBF0,
)  # fmt: skip
# A decimal digit beyond ASCII -> its ASCII digit (str.translate's table).
_DIGITS = {zero + k: str(k) for zero in JAVA_DIGIT_ZEROS for k in range(10)}
_DIGIT_CLASS = (
    "[" + "".join(f"\\x{{{zero:X}}}-\\x{{{zero + 9:X}}}" for zero in JAVA_DIGIT_ZEROS) + "]"
)


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


def decimal_digits(tokens: pa.Array) -> pa.Array:
    """DecimalDigitFilter: each decimal digit beyond ASCII (Character.isDigit, see
    JAVA_DIGIT_ZEROS) as its ASCII digit, "\u0663" -> "3"."""
    return where_matching(_DIGIT_CLASS, lambda token: token.translate(_DIGITS))(tokens)


def stop(words: Iterable[str]) -> Filter:
    """StopFilter over a fixed set of words (matched exactly: lowercase before it)."""
    value_set = pa.array(sorted(set(words)), type=pa.string())

    def drop(tokens: pa.Array) -> pa.Array:
        return pc.if_else(pc.is_in(tokens, value_set=value_set), "", tokens)

    return drop


def utf16_length(token: str) -> int:
    """A token's length in UTF-16 code units, as Java's stemmers count it."""
    return len(token.encode("utf-16-le")) // 2


def per_token(function: Callable[[str], str]) -> Filter:
    """A filter from a function of one token (for filters with no Arrow kernel: they
    run once per distinct token of a batch)."""

    def apply(tokens: pa.Array) -> pa.Array:
        return pa.array([function(t) for t in tokens.to_pylist()], type=pa.string())

    return apply


def remembered(
    tokens: Iterable[str], function: Callable[[str], str], memory: dict[str, str]
) -> list[str]:
    """function of each token, looked up in `memory` first and kept there (a corpus's
    batches share most of their vocabulary); past _MEMORY tokens it starts afresh."""
    return remembered_all(tokens, lambda new: [function(t) for t in new], memory)


def remembered_all(
    tokens: Iterable[str],
    function: Callable[[list[str]], list[str]],
    memory: dict[str, str],
) -> list[str]:
    """`remembered` for a function of a list of tokens (one call for the tokens that
    `memory` lacks, as a C stemmer's stemWords takes them)."""
    tokens = list(tokens)
    new = [t for t in dict.fromkeys(tokens) if t not in memory]
    if len(memory) + len(new) > _MEMORY:
        memory.clear()
        new = list(dict.fromkeys(tokens))
    if new:
        memory.update(zip(new, function(new), strict=True))
    return [memory[t] for t in tokens]


def remembering(function: Callable[[str], str], memory: dict[str, str] | None = None) -> Filter:
    """per_token, remembering each token's result across batches (in `memory`, shared
    by whoever passes the same one)."""
    return remembering_all(lambda new: [function(t) for t in new], memory)


def remembering_all(
    function: Callable[[list[str]], list[str]], memory: dict[str, str] | None = None
) -> Filter:
    """`remembering` for a function of a list of tokens."""
    kept: dict[str, str] = {} if memory is None else memory

    def apply(tokens: pa.Array) -> pa.Array:
        return pa.array(remembered_all(tokens.to_pylist(), function, kept), type=pa.string())

    return apply


def where(may_change: Callable[[pa.Array], pa.Array], function: Callable[[str], str]) -> Filter:
    """per_token on the tokens of an Arrow mask only (those it may change), the others
    kept: for a filter that changes few tokens, or only those of some characters."""
    return only(may_change, per_token(function))


def only(may_change: Callable[[pa.Array], pa.Array], apply_to: Filter) -> Filter:
    """A filter on the tokens of an Arrow mask only (those it may change), the others
    kept."""

    def apply(tokens: pa.Array) -> pa.Array:
        mask = may_change(tokens)
        if not pc.any(mask).as_py():
            return tokens
        return pc.replace_with_mask(tokens, mask, apply_to(pc.filter(tokens, mask)))

    return apply


def matching(pattern: str) -> Callable[[pa.Array], pa.Array]:
    """The mask of the tokens a regular expression (RE2) finds something in."""
    return lambda tokens: pc.match_substring_regex(tokens, pattern)


def where_matching(pattern: str, function: Callable[[str], str]) -> Filter:
    """`where` on the tokens a regular expression (RE2) finds something in."""
    return where(matching(pattern), function)


def chained(*filters: Filter) -> Filter:
    """Filters applied in order; a dropped token stays dropped."""

    def apply(tokens: pa.Array) -> pa.Array:
        for each in filters:
            tokens = each(tokens)
        return tokens

    return apply
