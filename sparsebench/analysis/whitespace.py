"""Lucene's WhitespaceAnalyzer, which Anserini gives Hausa, Somali, Swahili and Yoruba
(and pretokenized collections): tokens are the runs between whitespace, as Java's
Character.isWhitespace defines it, cut every 255 UTF-16 code units (CharTokenizer's
maximum token length), neither lowercased nor filtered."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis.chains import Chain

# Character.isWhitespace: space, line and paragraph separators but the no-break ones
# (U+00A0, U+2007, U+202F), and U+0009-U+000D, U+001C-U+001F.
_WHITESPACE = (
    r"[\t\n\x{0B}\f\r\x{1C}-\x{1F}\x{20}\x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}"
    r"\x{2028}\x{2029}\x{205F}\x{3000}]+"
)
MAX_TOKEN_UNITS = 255  # CharTokenizer.DEFAULT_MAX_WORD_LEN, in UTF-16 code units


def split_long(token: str) -> list[str]:
    """CharTokenizer's cut of an over-long run: a token ends once it holds 255 or more
    UTF-16 code units (so a surrogate pair may make it 256)."""
    pieces, current, units = [], [], 0
    for char in token:
        current.append(char)
        units += 2 if ord(char) > 0xFFFF else 1
        if units >= MAX_TOKEN_UNITS:
            pieces.append("".join(current))
            current, units = [], 0
    if current:
        pieces.append("".join(current))
    return pieces


def tokenize(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """The whitespace-separated runs of every text, long ones cut as Lucene cuts them."""
    runs = pc.split_pattern_regex(texts, _WHITESPACE)
    text_index = pc.list_parent_indices(runs).to_numpy().astype(np.int64)
    tokens = pc.list_flatten(runs)
    keep = pc.greater(pc.binary_length(tokens), 0).to_numpy(zero_copy_only=False)
    text_index, tokens = text_index[keep], pc.filter(tokens, keep)
    # more than 255 code units needs more than 255 bytes: only those are looked at
    too_long = pc.greater(pc.binary_length(tokens), MAX_TOKEN_UNITS)
    long = np.flatnonzero(too_long.to_numpy(zero_copy_only=False))
    if not len(long):
        return text_index, tokens
    pieces = [split_long(tokens[int(i)].as_py()) for i in long]
    counts = np.ones(len(tokens), np.int64)
    counts[long] = [len(p) for p in pieces]
    values = tokens.to_pylist()
    for i, piece in zip(long, pieces, strict=True):
        values[i] = piece
    flat = [p for v in values for p in (v if isinstance(v, list) else [v])]
    return np.repeat(text_index, counts), pa.array(flat, type=pa.string())


def chain(language: str) -> Chain:
    return Chain(
        language=language,
        tokenize=tokenize,
        filter=lambda tokens: tokens,
    )
