"""Arrow string arrays as numpy UTF-8 bytes and offsets, and back, so that text can be
cut, filtered and rebuilt for a whole batch at once, without a Python loop over strings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def as_string_array(texts: pa.Array | pa.ChunkedArray | Sequence[str]) -> pa.Array:
    """Texts as one Arrow string array, a missing text (null) as an empty one."""
    if isinstance(texts, pa.ChunkedArray):
        array = texts.combine_chunks()
    elif isinstance(texts, pa.Array):
        array = texts
    else:
        array = pa.array(texts if isinstance(texts, np.ndarray) else list(texts), type=pa.string())
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        array = array.cast(pa.string())
    return pc.fill_null(array, "") if array.null_count else array


def take_rows(values: pa.Array | pa.ChunkedArray, rows: np.ndarray) -> pa.Array:
    """values[rows] as one array, taken chunk by chunk: Arrow's take on a chunked array
    first joins all its chunks, a copy of the whole column for every few rows taken
    (benchmarks/RESULTS.md, "Measurements behind the code")."""
    rows = np.asarray(rows, dtype=np.int64)
    if isinstance(values, pa.Array):
        return values.take(pa.array(rows))
    if values.num_chunks == 1:
        return values.chunk(0).take(pa.array(rows))
    if len(rows) and not 0 <= rows.min() <= rows.max() < len(values):
        raise IndexError(f"rows outside the array's {len(values)}")
    ends = np.cumsum([len(chunk) for chunk in values.chunks])
    chunk_of = np.searchsorted(ends, rows, side="right")
    ascending = bool((chunk_of[1:] >= chunk_of[:-1]).all())
    order = np.arange(len(rows)) if ascending else np.argsort(chunk_of, kind="stable")
    bounds = np.searchsorted(chunk_of[order], np.arange(len(ends) + 1))
    parts = []
    for c, (first, last) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        if last > first:
            local = rows[order[first:last]] - (ends[c] - len(values.chunk(c)))
            parts.append(values.chunk(c).take(pa.array(local)))
    taken = pa.concat_arrays(parts) if parts else pa.array([], values.type)
    if ascending:
        return taken
    return taken.take(pa.array(np.argsort(order)))


def string_buffers(array: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(offsets from 0, UTF-8 bytes) of a string array without nulls (no copy)."""
    offset_type = np.dtype(np.int64 if pa.types.is_large_string(array.type) else np.int32)
    buffers = array.buffers()
    offsets = np.frombuffer(
        buffers[1],
        dtype=offset_type,
        count=len(array) + 1,
        offset=array.offset * offset_type.itemsize,
    ).astype(np.int64)
    data = (
        np.frombuffer(buffers[2], dtype=np.uint8)[offsets[0] : offsets[-1]]
        if buffers[2] is not None
        else np.zeros(0, np.uint8)
    )
    return offsets - offsets[0], data


def empty_or_holding(column: pa.Array | pa.ChunkedArray, characters: bytes) -> bool:
    """Whether a string (without nulls) is empty or holds one of the ASCII `characters`:
    a search of the column's bytes (memchr), much faster than a regex over its strings
    (benchmarks/RESULTS.md, "Measurements behind the code")."""
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    for chunk in chunks:
        offsets, data = string_buffers(chunk)
        if (np.diff(offsets) == 0).any():
            return True
        found = data.tobytes()
        if any(found.find(bytes([c])) >= 0 for c in characters):
            return True
    return False


def strings_from_buffers(values: np.ndarray, lengths: np.ndarray) -> pa.Array:
    """A string array of concatenated UTF-8 values, cut at the given byte lengths."""
    offsets = np.zeros(len(lengths) + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.StringArray.from_buffers(
        len(lengths), pa.py_buffer(offsets), pa.py_buffer(values.tobytes())
    )


def string_spans(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> pa.Array:
    """A string array of the byte spans [starts, ends) of UTF-8 bytes (sorted spans that
    do not overlap, each whole characters): Arrow's take copies them, span by span."""
    if not len(starts):
        return pa.array([], pa.string())
    bounds = np.empty(2 * len(starts), dtype=np.int32)  # spans and the gaps between them
    bounds[0::2], bounds[1::2] = starts, ends
    spans_and_gaps = pa.StringArray.from_buffers(
        len(bounds) - 1, pa.py_buffer(bounds), pa.py_buffer(data)
    )
    return spans_and_gaps.take(pa.array(np.arange(0, len(bounds), 2, dtype=np.int32)))


def string_views(parts: Sequence[np.ndarray], starts: np.ndarray, lengths: np.ndarray) -> pa.Array:
    """A string array of the byte spans [starts, starts + lengths) of UTF-8 bytes (the
    parts, one after another), in any order and overlapping (each whole characters):
    Arrow string views of the bytes, built with numpy, then cast to strings (one copy
    of each span)."""
    if not len(starts):
        return pa.array([], pa.string())
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    size = sum(len(part) for part in parts)
    data = np.zeros((size + 31) // 8 * 8, dtype=np.uint8)  # whole words, 3 past the end
    np.concatenate(parts, out=data[:size])
    words = data.view("<u8")
    views = np.empty((len(starts), 2), dtype="<u8")
    for first in range(0, len(starts), _VIEW_CHUNK):  # small arrays: no fresh pages
        chunk = slice(first, first + _VIEW_CHUNK)
        _fill_views(words, starts[chunk], lengths[chunk], views[chunk])
    array = pa.Array.from_buffers(
        pa.string_view(), len(starts), [None, pa.py_buffer(views), pa.py_buffer(data)]
    )
    return array.cast(pa.string())


def _fill_views(
    words: np.ndarray, starts: np.ndarray, lengths: np.ndarray, views: np.ndarray
) -> None:
    """The string views of byte spans of a buffer (as little-endian 64-bit words): length
    (4 bytes), then the string (up to 12 bytes), or its first 4 bytes, the index of its
    buffer (0) and its offset there."""
    # the 12 bytes from each start, from the three words they are in
    word = starts >> 3
    shift = (starts & 7).view(np.uint64)
    shift <<= np.uint64(3)
    first = words.take(word)
    first >>= shift
    word += 1
    middle = words.take(word)
    word += 1
    after = words.take(word)
    back = np.subtract(np.uint64(64), shift, out=word.view(np.uint64))  # 64: no bits
    after <<= back
    after |= np.right_shift(middle, shift, out=shift)
    first |= np.left_shift(middle, back, out=middle)
    head = np.minimum(lengths, 12, out=back.view(np.int64))
    first &= _FIRST_EIGHT.take(head, out=middle)
    after &= _LAST_FOUR.take(head, out=middle)
    after <<= np.uint64(32)
    after |= np.right_shift(first, np.uint64(32), out=middle)
    views[:, 1] = after
    first <<= np.uint64(32)
    first |= lengths.view(np.uint64)
    views[:, 0] = first
    far = np.flatnonzero(lengths > 12)
    views[far, 1] = starts[far].astype(np.uint64) << np.uint64(32)


_VIEW_CHUNK = 1 << 16
# Masks of the bytes of a string of k bytes (k <= 12) in a view: its first 8 bytes, and
# the 4 after them.
_FIRST_EIGHT = np.array([(1 << (8 * min(k, 8))) - 1 for k in range(13)], dtype=np.uint64)
_LAST_FOUR = np.array([(1 << (8 * max(k - 8, 0))) - 1 for k in range(13)], dtype=np.uint64)
