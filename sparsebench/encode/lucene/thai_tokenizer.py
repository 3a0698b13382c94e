"""Lucene's ThaiTokenizer, exactly, for one text (`tokenize_exact`) or a batch with numpy
(`tokenize_batch`).

ThaiTokenizer (a SegmentingTokenizerBase) reads a text 1024 UTF-16 units at a time,
cutting each buffer after its last line break (\\n, \\r, U+0085, U+2028, U+2029), or at
1024 units if it has none, even inside a word; splits each buffer into sentences with the
JDK's sentence BreakIterator, each sentence into words with its Thai word BreakIterator
(jdk_break_iterator), and keeps the words whose first character is a letter or a digit
(Character.isLetterOrDigit): Thai words as the JDK's dictionary divides them, Latin words
and numbers as the JDK's rules keep them ("3.14", "U.S.A", "1,000"), never punctuation.

The exact path runs the port on each sentence, cut into pieces at spaces
(`piece_boundaries`) that are each segmented once and remembered. The batch path does the
same for texts with a character that makes the Thai rules look around (thai_runs), and
treats all the others at once: it finds with numpy the sentence's ranges of Thai letters
and the regions between them (Python only marks the sentence ends of texts with ". ! ?"
or longer than a buffer), names each range by its text and what follows it, and looks
up the distinct ranges and regions of the batch: each is divided (all new ranges
together, thai_runs.divide) or segmented once, and remembered across batches. The
tokens are then cut out of the batch's UTF-8 bytes where the remembered segments fall.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.encode.lucene.jdk_break_data import (
    code_point_at,
    from_utf16_units,
    is_letter_or_digit,
    utf16_units,
    word_rules,
)
from sparsebench.encode.lucene.jdk_break_iterator import (
    piece_boundaries,
    sentence_breaks,
    sentence_mark_chars,
    sentence_marks,
    word_piece_breaks,
)
from sparsebench.encode.lucene.standard_tokenizer import _runs
from sparsebench.encode.lucene.thai_runs import (
    ABSORBED,
    COMPLEX,
    END,
    OTHER,
    SEEN,
    THAI,
    divide,
    run_model,
)
from sparsebench.encode.strings import (
    as_string_array,
    span_indices,
    string_buffers,
    strings_from_buffers,
)

BUFFER = 1024  # SegmentingTokenizerBase.BUFFERMAX
SAFE_ENDS = "\n\r\u0085\u2028\u2029"  # SegmentingTokenizerBase.isSafeEnd
CACHE_LIMIT = 1 << 20  # remembered pieces, regions or ranges (each cache is emptied when full)
MARK = 16  # a flag beside thai_runs' ones: a character after which a sentence may end
# The one-character suffixes of a range's name for what follows it (else the character).
_SUFFIX = {END: "\x01", OTHER: "\x02"}
_FOLLOWING = {v: k for k, v in _SUFFIX.items()}

Spans = tuple[int, ...]  # kept segments, flat: start, end, start, end...
_pieces: dict[tuple[str, bool], Spans] = {}  # char offsets


class SpanStore:
    """Remembered kept segments by name (a region, or a range and what follows it): a dict
    gives each name a number, numpy arrays hold the segments of all."""

    def __init__(self, compute) -> None:
        self.compute = compute  # names -> their Spans
        self.clear()

    def clear(self) -> None:
        self.number: dict[str, int] = {}
        self.flat = np.zeros(0, dtype=np.int64)  # all segments, flat
        self.first = np.zeros(0, dtype=np.int64)  # each name's first segment in them
        self.count = np.zeros(0, dtype=np.int64)  # and how many

    def numbers(self, names: list[str]) -> np.ndarray:
        """The numbers of names, computing the segments of the new ones (together)."""
        if len(self.number) + len(names) > CACHE_LIMIT:
            self.clear()
        get = self.number.get
        new = [name for name in names if get(name) is None]
        if new:
            spans = self.compute(new)
            counts = np.array([len(x) // 2 for x in spans], dtype=np.int64)
            flat = np.array([x for each in spans for x in each], dtype=np.int64)
            first = len(self.flat) // 2 + np.cumsum(counts) - counts
            self.first = np.concatenate((self.first, first))
            self.count = np.concatenate((self.count, counts))
            self.flat = np.concatenate((self.flat, flat))
            for name in new:
                self.number[name] = len(self.number)
        return np.array([get(name) for name in names], dtype=np.int64)


def clear_caches() -> None:
    """Forget every remembered piece, region and range (for measurements)."""
    _pieces.clear()
    _regions.clear()
    _ranges.clear()


def _remember(cache: dict, key, value):
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _buffers(length: int, units: str) -> list[tuple[int, int]]:
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
    for start, end in _buffers(len(units), units):
        buffer = units[start:end]
        if not marks.search(buffer):
            spans.append((start, end))
            continue
        breaks = sentence_breaks(buffer)
        spans.extend((start + s, start + e) for s, e in zip(breaks, breaks[1:], strict=False))
    return spans


def _piece_spans(piece: str, dictionary_follows: bool) -> Spans:
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
        spans += (start + offset for offset in _piece_spans(sentence[start:cut], follows))
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


def _region_spans(regions: list[str]) -> list[Spans]:
    """The kept segments of regions (UTF-8 byte offsets): each breaks as it would alone."""
    found = []
    for region in regions:
        spans = sentence_spans(region)
        if not region.isascii():
            width = np.frombuffer(region.encode("utf-32-le"), dtype=np.uint32)
            width = 1 + (width >= 0x80) + (width >= 0x800) + (width >= 0x10000)
            at = np.concatenate(([0], np.cumsum(width))).tolist()
            spans = [at[s] for s in spans]
        found.append(tuple(spans))
    return found


def _range_spans(names: list[str]) -> list[Spans]:
    """The kept segments of named ranges (char offsets), divided together."""
    pairs = [(name[:-1], _FOLLOWING.get(name[-1], name[-1])) for name in names]
    divided = divide(pairs)
    return [_kept(range_, breaks) for (range_, _), breaks in zip(pairs, divided, strict=True)]


_regions = SpanStore(_region_spans)
_ranges = SpanStore(_range_spans)


@cache
def _flags() -> np.ndarray:
    """thai_runs' flags of every BMP character, with MARK."""
    flags = run_model().flags.copy()
    flags[sentence_mark_chars()] |= MARK
    return flags


def tokenize_batch(
    texts: pa.Array | pa.ChunkedArray | Sequence[str],
) -> tuple[np.ndarray, pa.Array]:
    """ThaiTokenizer's tokens of every text: (text index per token, tokens), in text order."""
    array = as_string_array(texts)
    offsets, data = string_buffers(array)
    lead = np.flatnonzero((data & 0xC0) != 0x80)  # each character's first byte
    code = np.frombuffer(data.tobytes().decode("utf-8").encode("utf-32-le"), dtype=np.uint32)
    flags = _flags()[np.minimum(code, 0xFFFF)]
    flags[code > 0xFFFF] = COMPLEX
    owner = np.searchsorted(offsets, lead, "right") - 1
    first = np.searchsorted(lead, offsets)  # each text's first character (and the end)
    count = np.diff(first)
    exact = np.bincount(owner[(flags & COMPLEX) > 0], minlength=len(array)) > 0
    marked = np.bincount(owner[(flags & MARK) > 0], minlength=len(array)) > 0
    cut = (marked | (count >= BUFFER)) & ~exact
    starts = [first[:-1]]  # every text starts a sentence (the exact ones too: a range ends)
    which = np.flatnonzero(cut)
    for i, text in zip(which.tolist(), array.take(which).to_pylist(), strict=True):
        starts.append(first[i] + np.array([s for s, _ in sentences(text)[1:]], dtype=np.int64))
    simple = ~exact[owner]
    spans = _simple_spans(data, lead, code, flags, simple, np.unique(np.concatenate(starts)))
    index, tokens = _exact_texts(array, exact)
    return _merge(data, offsets, spans, index, tokens)


def _simple_spans(
    data: np.ndarray,
    lead: np.ndarray,
    code: np.ndarray,
    flags: np.ndarray,
    simple: np.ndarray,
    sentence_starts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The UTF-8 byte spans of the tokens of the characters of the simple texts: ranges of
    Thai letters (each with one absorbed mark after it, if any) and the regions between."""
    n = len(lead)
    byte_at = np.append(lead, len(data))
    is_start = np.zeros(n + 1, dtype=bool)
    is_start[sentence_starts] = True
    is_start[n] = True
    thai = simple & ((flags & THAI) > 0)
    range_start, range_end = _runs(thai, sentence_starts)
    absorbs = ~is_start[range_end]
    absorbs[absorbs] = (flags[range_end[absorbs]] & ABSORBED) > 0
    range_end = range_end + absorbs
    inside = np.zeros(n + 1, dtype=np.int64)
    np.add.at(inside, range_start, 1)
    np.add.at(inside, range_end, -1)
    region_start, region_end = _runs(simple & (np.cumsum(inside[:-1]) == 0), sentence_starts)
    # ranges: named by their text and a suffix for what follows
    after = np.minimum(range_end, n - 1)
    seen = ~is_start[range_end] & ((flags[after] & SEEN) > 0)
    suffix = np.where(is_start[range_end], 1, 2)  # "\x01": END, "\x02": OTHER
    names = _names(data, byte_at[range_start], byte_at[range_end], seen, suffix)
    range_tokens = _expand(names, byte_at[range_start], _ranges, width=3)
    regions = _names(data, byte_at[region_start], byte_at[region_end], None, None)
    region_tokens = _expand(regions, byte_at[region_start], _regions, width=1)
    token_start = np.concatenate((range_tokens[0], region_tokens[0]))
    token_end = np.concatenate((range_tokens[1], region_tokens[1]))
    order = np.argsort(token_start, kind="stable")
    return token_start[order], token_end[order]


def _names(
    data: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    seen: np.ndarray | None,
    suffix: np.ndarray | None,
) -> pa.Array:
    """The strings data[start:end], each with its following character if seen, else the
    byte in suffix (when given)."""
    if seen is None:
        return strings_from_buffers(data[span_indices(start, end)], end - start)
    end = end + 3 * seen  # the following character: a Thai one, three bytes
    index = span_indices(start, end)
    lengths = end - start
    plain = np.flatnonzero(~seen)
    at = np.cumsum(lengths)[plain]
    extended = np.append(data, np.array([0, 1, 2], dtype=data.dtype))
    index = np.insert(index, at, len(data) + suffix[plain])
    lengths[plain] += 1
    return strings_from_buffers(extended[index], lengths)


def _expand(names: pa.Array, base: np.ndarray, store: SpanStore, width: int):
    """The token byte spans of every occurrence, from each distinct name's kept segments
    (offsets in characters of `width` bytes, or in bytes)."""
    if not len(names):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    encoded = pc.dictionary_encode(names)
    number = store.numbers(encoded.dictionary.to_pylist())
    which = number[encoded.indices.to_numpy(zero_copy_only=False)]
    per = store.count[which]
    occurrence = np.repeat(np.arange(len(which)), per)
    k = np.repeat(store.first[which] - np.cumsum(per) + per, per) + np.arange(per.sum())
    start = base[occurrence] + width * store.flat[2 * k]
    return start, base[occurrence] + width * store.flat[2 * k + 1]


def _exact_texts(array: pa.Array, exact: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """The tokens of the texts for the exact port: (text index per token, tokens)."""
    which = np.flatnonzero(exact)
    counts, tokens = [], []
    for text in array.take(which).to_pylist():
        found = tokenize_exact(text)
        counts.append(len(found))
        tokens += found
    return np.repeat(which, counts), tokens


def _merge(
    data: np.ndarray,
    offsets: np.ndarray,
    spans: tuple[np.ndarray, np.ndarray],
    exact_index: np.ndarray,
    exact_tokens: list[str],
) -> tuple[np.ndarray, pa.Array]:
    """Both paths' tokens, in text order."""
    start, end = spans
    index = np.searchsorted(offsets, start, "right") - 1
    tokens = strings_from_buffers(data[span_indices(start, end)], end - start)
    if not len(exact_index):
        return index.astype(np.int64), tokens
    index = np.concatenate((index, exact_index))
    order = np.argsort(index, kind="stable")
    tokens = pa.concat_arrays([tokens, pa.array(exact_tokens, type=pa.string())])
    return index[order].astype(np.int64), tokens.take(pa.array(order))
