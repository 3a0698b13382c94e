"""Lucene's ThaiTokenizer (th/tokenizer), exactly, over a batch of sentences with numpy.

th/fast_batch hands this module the distinct pieces of sentences of a batch, each as one
sentence. It finds with numpy the ranges of Thai letters of each and the regions between
them (th/fast_runs), names each range by its text and what follows it, and looks up the
distinct ranges and regions: each is divided (all new ranges together,
th/fast_runs.divide) or segmented once, and remembered across batches. The pieces that hold
a character which makes the Thai rules look around (ฯ, a mark or format character the
rules pass over, U+FFFF) go through th/tokenizer's exact path. The tokens are then cut
out of the UTF-8 bytes where the remembered segments fall.

Follows Lucene's ThaiTokenizer (Apache License 2.0) on the port of the JDK's iterators
(GNU General Public License version 2 with the Classpath exception); see
sparsebench/resources/lucene/th/NOTICE.

Speed layer (fast_*): a second implementation of th/tokenizer.tokenize_exact on each
sentence, which it must equal;
tests/analysis/test_thai.py::test_batch_tokenizer_equals_the_port hold them equal. Its
speed is in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis.standard_tokenizer import _merge, _runs
from sparsebench.analysis.th.break_data import (
    char_class,
    letters_or_digits_bmp,
    word_rules,
)
from sparsebench.analysis.th.fast_break_scans import word_breaks_batch
from sparsebench.analysis.th.fast_runs import (
    ABSORBED,
    COMPLEX,
    END,
    OTHER,
    SEEN,
    THAI,
    divide,
    run_model,
)
from sparsebench.analysis.th.tokenizer import (
    CACHE_LIMIT,
    clear_pieces,
    piece_spans,
)
from sparsebench.analysis.th.word_pieces import piece_boundaries
from sparsebench.core.strings import string_buffers

# The one-character suffixes of a range's name for what follows it (else the character).
_SUFFIX = {END: "\x01", OTHER: "\x02"}
_FOLLOWING = {v: k for k, v in _SUFFIX.items()}


class Store:
    """Remembered values by name (a region, a range and what follows it, a group of a
    sentence): a dict gives each name a number, one array (numpy or Arrow) holds the
    values of all names, `width` values an item (a kept segment: its start and end)."""

    def __init__(self, compute, empty: np.ndarray | pa.Array, width: int = 1) -> None:
        self.compute = compute  # names -> (items of each, all their values flat)
        self.empty, self.width = empty, width
        self.clear()

    def clear(self) -> None:
        self.number: dict[Hashable, int] = {}
        self.flat = self.empty  # all values, flat
        self.first = np.zeros(0, dtype=np.int64)  # each name's first item in them
        self.count = np.zeros(0, dtype=np.int64)  # and how many

    def numbers(self, names: list) -> np.ndarray:
        """The numbers of names (which may repeat), computing the items of the new ones
        (together)."""
        if len(self.number) + len(names) > CACHE_LIMIT:
            self.clear()
        get = self.number.get
        new = list(dict.fromkeys(name for name in names if get(name) is None))
        if new:
            counts, flat = self.compute(new)
            first = len(self.flat) // self.width + np.cumsum(counts) - counts
            self.first = np.concatenate((self.first, first))
            self.count = np.concatenate((self.count, counts))
            if isinstance(flat, pa.Array):
                self.flat = pa.concat_arrays([self.flat, flat])
            else:
                self.flat = np.concatenate((self.flat, flat))
            for name in new:
                self.number[name] = len(self.number)
        return np.array([get(name) for name in names], dtype=np.int64)

    def numbers_of(self, names: pa.Array) -> np.ndarray:
        """The numbers of an array of names, found once per distinct name."""
        if not len(names):
            return np.zeros(0, dtype=np.int64)
        encoded = pc.dictionary_encode(names)
        numbers = self.numbers(encoded.dictionary.to_pylist())
        return numbers[encoded.indices.to_numpy(zero_copy_only=False)]


def clear_caches() -> None:
    """Forget every remembered piece, region and range (for measurements)."""
    clear_pieces()
    _regions.clear()
    _ranges.clear()


def _region_spans(regions: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The kept segments of regions (UTF-8 byte offsets): each breaks as it would alone,
    by the word rules alone (it holds no letter of the dictionary's script, nor any
    character for the port)."""
    codes = np.frombuffer("".join(regions).encode("utf-32-le"), dtype=np.uint32)
    codes = codes.astype(np.int64)
    lengths = np.fromiter(map(len, regions), dtype=np.int64, count=len(regions))
    starts = np.append(0, np.cumsum(lengths))
    ends, owner = word_breaks_batch(codes, starts)
    begins = np.append(-1, ends[:-1])
    first = np.append(True, owner[1:] != owner[:-1])
    begins[first] = starts[owner[first]]
    kept = _letters_or_digits()[codes[begins]]
    width = 1 + (codes >= 0x80) + (codes >= 0x800) + (codes >= 0x10000)
    byte_at = np.append(0, np.cumsum(width))
    base = byte_at[starts[owner[kept]]]
    flat = np.stack((byte_at[begins[kept]] - base, byte_at[ends[kept]] - base), axis=1)
    return np.bincount(owner[kept], minlength=len(regions)), flat.ravel()


def _range_spans(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The kept segments of named ranges (char offsets), divided together."""
    pairs = [(name[:-1], _FOLLOWING.get(name[-1], name[-1])) for name in names]
    counts, breaks = divide(pairs)
    lengths = np.fromiter((len(r) for r, _ in pairs), dtype=np.int64, count=len(pairs))
    codes = np.frombuffer("".join(r for r, _ in pairs).encode("utf-32-le"), dtype=np.uint32)
    segments = counts - 1
    owner = np.repeat(np.arange(len(pairs)), segments)
    first_break = np.cumsum(counts) - counts
    at = np.repeat(first_break - np.cumsum(segments) + segments, segments)
    at += np.arange(segments.sum())
    start, end = breaks[at], breaks[at + 1]
    kept = start < lengths[owner]
    position = (np.cumsum(lengths) - lengths)[owner[kept]] + start[kept]
    kept[kept] = _letters_or_digits()[codes[position]]
    flat = np.stack((start[kept], end[kept]), axis=1).ravel()
    return np.bincount(owner[kept], minlength=len(pairs)), flat


@cache
def _letters_or_digits() -> np.ndarray:
    return letters_or_digits_bmp()


_regions = Store(_region_spans, np.zeros(0, dtype=np.int64), width=2)
_ranges = Store(_range_spans, np.zeros(0, dtype=np.int64), width=2)


def sentence_tokens(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """ThaiTokenizer's tokens of strings that are each one sentence (of less than its
    buffer, without a character beyond U+FFFF): (string index per token, tokens), in
    order."""
    offsets, data = string_buffers(texts)
    lead = np.flatnonzero((data & 0xC0) != 0x80)  # each character's first byte
    code = np.frombuffer(data.tobytes().decode("utf-8").encode("utf-32-le"), dtype=np.uint32)
    flags = run_model().flags[code]
    first = np.searchsorted(lead, offsets)  # each string's first character (and the end)
    owner = np.repeat(np.arange(len(texts)), np.diff(first))
    complex_ = np.bincount(owner[(flags & COMPLEX) > 0], minlength=len(texts)) > 0
    starts = [first[:-1]]  # every string starts a sentence (a range ends at a ported piece)
    pieces, piece_spans = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    which = np.flatnonzero(complex_)
    for i, text in zip(which.tolist(), texts.take(which).to_pylist(), strict=True):
        cuts, spans = _ported(text)
        starts.append(first[i] + np.array(cuts, dtype=np.int64))
        pieces.append(starts[-1])
        piece_spans.append(first[i] + np.array(spans, dtype=np.int64))
    simple = ~_inside(np.concatenate(pieces), len(lead))
    spans = _simple_spans(data, lead, flags, owner, simple, np.unique(np.concatenate(starts)))
    byte_at = np.append(lead, len(data))
    piece_spans = np.concatenate(piece_spans)
    ported = byte_at[piece_spans[::2]], byte_at[piece_spans[1::2]], owner[piece_spans[::2]]
    start, end, token_owner = _merge_sorted(spans, ported)
    return token_owner, _cut(data, start, end)


def _ported(sentence: str) -> tuple[list[int], list[int]]:
    """For a sentence with characters for the port: the pieces (`piece_boundaries`) that
    hold them, and the kept segments of those pieces, from the port (the numpy path takes
    the rest of the sentence, as pieces cut there)."""
    pieces: list[int] = []
    spans: list[int] = []
    search = _complex_chars().search
    dictionary, category = word_rules().dictionary, word_rules().category
    bounds = [0, *(m.start() for m in piece_boundaries().finditer(sentence)), len(sentence)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        if not search(sentence, a, b):
            continue
        follows = b < len(sentence) and dictionary[category(ord(sentence[b]))]
        pieces += (a, b)
        spans += (a + x for x in piece_spans(sentence[a:b], follows))
    return pieces, spans


@cache
def _complex_chars() -> re.Pattern:
    """A pattern of the characters th/fast_runs leaves to the port."""
    code_points = np.flatnonzero(run_model().flags & COMPLEX)
    return re.compile(f"[{char_class(code_points)}]")


def _inside(spans: np.ndarray, n: int) -> np.ndarray:
    """Which of n positions fall in the flat [start, end) spans (sorted, not overlapping)."""
    edge = np.zeros(n + 1, dtype=np.int8)
    edge[spans[::2]] += 1
    edge[spans[1::2]] -= 1
    return np.cumsum(edge[:-1], dtype=np.int8) > 0


def _simple_spans(
    data: np.ndarray,
    lead: np.ndarray,
    flags: np.ndarray,
    owner: np.ndarray,
    simple: np.ndarray,
    sentence_starts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tokens of the characters of the simple texts, as sorted UTF-8 byte spans with
    their texts: ranges of Thai letters (each with the absorbed mark after it, if any)
    and the regions between them."""
    n = len(lead)
    byte_at = np.append(lead, len(data))
    is_start = np.zeros(n + 1, dtype=bool)
    is_start[sentence_starts] = True
    is_start[n] = True
    range_start, range_end = _runs(simple & ((flags & THAI) > 0), sentence_starts)
    absorbs = ~is_start[range_end]
    absorbs[absorbs] = (flags[range_end[absorbs]] & ABSORBED) > 0
    range_end = range_end + absorbs
    in_range = np.zeros(n + 1, dtype=np.int8)
    in_range[range_start] = 1
    in_range[range_end] -= 1
    outside = simple & (np.cumsum(in_range[:-1], dtype=np.int8) == 0)
    region_start, region_end = _runs(outside, sentence_starts)
    # A range is named by its text and what follows it: the end of the sentence (1), a
    # character its division tells apart (that character), or any other (2).
    following = np.where(is_start[range_end], 1, 2)
    seen = ~is_start[range_end] & ((flags[np.minimum(range_end, n - 1)] & SEEN) > 0)
    following[seen] = _thai_code(data, byte_at[range_end[seen]])
    ranges = _expand(
        _range_numbers(_cut(data, byte_at[range_start], byte_at[range_end]), following),
        byte_at[range_start],
        owner[range_start],
        _ranges,
        width=3,
    )
    regions_cut = _cut(data, byte_at[region_start], byte_at[region_end])
    regions = _expand(
        _regions.numbers_of(regions_cut), byte_at[region_start], owner[region_start], _regions, 1
    )
    return _merge_sorted(ranges, regions)


def _thai_code(data: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The code points of the three-byte characters at `at`."""
    b0, b1, b2 = (data[at + k].astype(np.int64) for k in range(3))
    return ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F)


def _cut(data: np.ndarray, start: np.ndarray, end: np.ndarray) -> pa.Array:
    """The strings data[start:end] of sorted spans that do not overlap, as one array: the
    spans and the gaps between them as one array over the bytes, and the spans taken."""
    bounds = np.empty(2 * len(start) + 2, dtype=np.int64)
    bounds[0], bounds[-1] = 0, len(data)
    bounds[1:-1:2], bounds[2:-1:2] = start, end
    pieces = pa.LargeStringArray.from_buffers(
        len(bounds) - 1, pa.py_buffer(bounds), pa.py_buffer(data)
    )
    return pieces.take(pa.array(np.arange(1, len(bounds) - 1, 2))).cast(pa.string())


def _range_numbers(ranges: pa.Array, following: np.ndarray) -> np.ndarray:
    """Each range's number in the store of ranges, by its text and what follows it."""
    if not len(ranges):
        return np.zeros(0, dtype=np.int64)
    encoded = pc.dictionary_encode(ranges)
    texts = encoded.dictionary.to_pylist()
    key = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64) << 16 | following
    distinct, inverse = np.unique(key, return_inverse=True)
    names = [texts[k >> 16] + _name_suffix(k & 0xFFFF) for k in distinct.tolist()]
    return _ranges.numbers(names)[inverse]


def _name_suffix(following: int) -> str:
    return "\x01" if following == 1 else "\x02" if following == 2 else chr(following)


def _expand(numbers: np.ndarray, base: np.ndarray, owners: np.ndarray, store, width: int):
    """The token byte spans of occurrences (their numbers in a store of kept segments, where
    they start, their texts), from the remembered segments (in characters of `width`
    bytes)."""
    per = store.count[numbers]
    occurrence = np.repeat(np.arange(len(numbers)), per)
    k = np.repeat(store.first[numbers] - np.cumsum(per) + per, per) + np.arange(per.sum())
    start = base[occurrence] + width * store.flat[2 * k]
    return start, base[occurrence] + width * store.flat[2 * k + 1], owners[occurrence]


def _merge_sorted(first, second):
    """Two sorted lists of (start, end, owner) spans that do not overlap, merged."""
    at_first, at_second = _merge(first[0], second[0])
    out = []
    for a, b in zip(first, second, strict=True):
        merged = np.empty(len(a) + len(b), dtype=np.int64)
        merged[at_first], merged[at_second] = a, b
        out.append(merged)
    return tuple(out)
