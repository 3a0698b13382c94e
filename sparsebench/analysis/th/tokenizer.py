"""Lucene's ThaiTokenizer, exactly, on one text by the port of the JDK's iterators
(`tokenize_exact`); th/fast_batch does the same for a batch with numpy.

ThaiTokenizer (a SegmentingTokenizerBase) reads a text 1024 UTF-16 units at a time,
cutting each buffer after its last line break (\\n, \\r, U+0085, U+2028, U+2029), or at
1024 units if it has none, even inside a word; splits each buffer into sentences with the
JDK's sentence BreakIterator, each sentence into words with its Thai word BreakIterator
(th/break_iterator), and keeps the words whose first character is a letter or a digit
(Character.isLetterOrDigit): Thai words as the JDK's dictionary divides them, Latin words
and numbers as the JDK's rules keep them ("3.14", "U.S.A", "1,000"), never punctuation.

Each sentence is cut into pieces at spaces (`piece_boundaries`), each segmented once and
remembered.

Follows Lucene's ThaiTokenizer and SegmentingTokenizerBase (Apache License 2.0) on the
port of the JDK's iterators (GNU General Public License version 2 with the Classpath
exception); see sparsebench/resources/lucene/th/NOTICE.
"""

from __future__ import annotations

from collections.abc import Sequence

from sparsebench.analysis.th.break_data import (
    code_point_at,
    from_utf16_units,
    is_letter_or_digit,
    utf16_units,
    word_rules,
)
from sparsebench.analysis.th.break_iterator import sentence_breaks, sentence_marks
from sparsebench.analysis.th.word_pieces import piece_boundaries, word_piece_breaks

BUFFER = 1024  # SegmentingTokenizerBase.BUFFERMAX
SAFE_ENDS = "\n\r\u0085\u2028\u2029"  # SegmentingTokenizerBase.isSafeEnd
CACHE_LIMIT = 1 << 20  # remembered pieces, regions or ranges (each cache is emptied when full)
Spans = tuple[int, ...]  # kept segments, flat: start, end, start, end...
_pieces: dict[tuple[str, bool], Spans] = {}  # char offsets


def clear_pieces() -> None:
    """Forget every remembered piece."""
    _pieces.clear()


def _remember(cache: dict, key, value):
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def buffers(length: int, units: str) -> list[tuple[int, int]]:
    """The spans of the text that SegmentingTokenizerBase hands the sentence iterator."""
    spans, position = [], 0
    while position < length:
        if length - position < BUFFER:  # the reader ran dry: all of it
            usable = length - position
        else:
            buffer = units[position : position + BUFFER]
            usable = max(buffer.rfind(c) for c in SAFE_ENDS) + 1 or BUFFER
        spans.append((position, position + usable))
        position += usable
    return spans


def sentences(units: str) -> list[tuple[int, int]]:
    """The spans of the sentences of a text (UTF-16 units), as the tokenizer reads them."""
    spans = []
    marks = sentence_marks()
    for start, end in buffers(len(units), units):
        buffer = units[start:end]
        if not marks.search(buffer):
            spans.append((start, end))
            continue
        breaks = sentence_breaks(buffer)
        spans.extend((start + s, start + e) for s, e in zip(breaks, breaks[1:], strict=False))
    return spans


def piece_spans(piece: str, dictionary_follows: bool) -> Spans:
    """ThaiTokenizer.incrementWord over a piece cut at `piece_boundaries`: the segments
    that start with a letter or a digit."""
    key = (piece, dictionary_follows)
    found = _pieces.get(key)
    if found is None:
        breaks = word_piece_breaks(piece, dictionary_follows)
        found = _remember(_pieces, key, _kept(piece, breaks))
    return found


def _kept(text: str, breaks: Sequence[int]) -> Spans:
    kept: list[int] = []
    for s, e in zip(breaks, breaks[1:], strict=False):
        if s < len(text) and is_letter_or_digit(code_point_at(text, s)):
            kept += (s, e)
    return tuple(kept)


def sentence_spans(sentence: str) -> list[int]:
    """The kept segments of a sentence (flat char offsets), by the exact port."""
    spans: list[int] = []
    dictionary, category = word_rules().dictionary, word_rules().category
    start = 0
    for cut in [m.start() for m in piece_boundaries().finditer(sentence)] + [len(sentence)]:
        follows = cut < len(sentence) and dictionary[category(ord(sentence[cut]))]
        spans += (start + offset for offset in piece_spans(sentence[start:cut], follows))
        start = cut
    return spans


def tokenize_exact(text: str) -> list[str]:
    """ThaiTokenizer's tokens of one text, by the exact port alone."""
    units = utf16_units(text)
    tokens = []
    for start, end in sentences(units):
        spans = sentence_spans(units[start:end])
        pairs = zip(spans[::2], spans[1::2], strict=True)
        tokens += (units[start + s : start + e] for s, e in pairs)
    return [from_utf16_units(t) for t in tokens] if units is not text else tokens
