"""64-bit keys of (query, document id) pairs: joins and repeat checks over millions of
run rows without sorting strings.

A key mixes the query's index with a hash of the id's bytes, read eight at a time from
Arrow's buffers. Keys only propose: every pair they say is equal is compared again as
strings, so a collision of two different pairs can cost time but never a wrong grade or
a false "repeated document".
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.strings import string_buffers, take_rows

_MIX_1 = np.uint64(0x9E3779B97F4A7C15)
_MIX_2 = np.uint64(0xBF58476D1CE4E5B9)
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def pair_keys(query: np.ndarray, ids: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A well-mixed 64-bit key of each (query index, id) pair."""
    keys = _folded_bytes(ids)
    keys ^= query.view(np.uint64) * _MIX_2
    keys ^= keys >> np.uint64(31)
    keys *= _MIX_1
    keys ^= keys >> np.uint64(29)
    return keys


def _folded_bytes(ids: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Each string's bytes folded into 64 bits: its first eight as they are (zeros after
    a shorter string), each next eight mixed in. Chunk by chunk: a reader's chunks are
    small enough for the cache."""
    if isinstance(ids, pa.ChunkedArray):
        parts = [_folded_bytes(chunk) for chunk in ids.chunks]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
    offsets, data = string_buffers(ids)
    padded = np.zeros(len(data) + 8, dtype=np.uint8)
    padded[: len(data)] = data
    # every 8-byte word of the buffer, whatever its alignment
    words = np.ndarray((len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
    start, length = offsets[:-1], np.diff(offsets)
    folded = words[start]
    folded &= _LOW_BYTES[np.minimum(length, 8)]  # a shorter id's bytes only
    rows, read = np.flatnonzero(length > 8), 8
    while len(rows):
        word = words[start[rows] + read] & _LOW_BYTES[np.minimum(length[rows] - read, 8)]
        folded[rows] = (folded[rows] ^ word) * _MIX_2 + np.uint64(read)
        read += 8
        rows = rows[length[rows] > read]
    return folded


def same_ids(a: pa.Array, rows_a: np.ndarray, b: pa.Array, rows_b: np.ndarray) -> np.ndarray:
    """Whether a[rows_a[i]] == b[rows_b[i]], as strings."""
    if not len(rows_a):
        return np.zeros(0, dtype=bool)
    equal = pc.equal(take_rows(a, rows_a), take_rows(b, rows_b))
    return np.asarray(equal.to_numpy(zero_copy_only=False), dtype=bool)


class KeyTable:
    """Distinct keys, bucketed by their top bits, for lookups of many keys at once."""

    def __init__(self, keys: np.ndarray) -> None:
        self.order = np.argsort(keys, kind="stable")
        self.keys = keys[self.order]
        self.unique = not len(keys) or bool((self.keys[1:] != self.keys[:-1]).all())
        bits = max(int(len(keys)).bit_length() + 3, 8)  # about 1 key in 8 buckets
        self._shift = np.uint64(64 - bits)
        buckets = (self.keys >> self._shift).astype(np.int64)
        self._bucket_start = np.searchsorted(buckets, np.arange((1 << bits) + 1)).astype(np.int32)

    def find(self, keys: np.ndarray) -> np.ndarray:
        """Position in the table's input of each key, or -1 where it is absent."""
        found = np.full(len(keys), -1, dtype=np.int64)
        bucket = (keys >> self._shift).astype(np.int64)
        first = self._bucket_start[bucket]
        size = self._bucket_start[bucket + 1] - first
        rows, step = np.flatnonzero(size > 0), 0
        while len(rows):
            slot = first[rows] + step
            hit = self.keys[slot] == keys[rows]
            found[rows[hit]] = self.order[slot[hit]]
            step += 1
            rows = rows[~hit & (size[rows] > step)]
        return found


def repeats_in_groups(group: np.ndarray, rank: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Positions of the rows whose key another row of the same group holds too.

    group: ascending group index per row; rank: 1-based position within the group. Each
    group's keys are sorted on their own (a row of a padded matrix when the groups are
    of similar sizes, so each sort stays in cache), in 32 bits: a pair of different
    keys that agree there is one more candidate to compare as strings, no more."""
    if not len(keys):
        return np.zeros(0, dtype=np.int64)
    n_groups, width = int(group[-1]) + 1, int(rank.max())
    short = (keys >> np.uint64(33)).astype(np.uint32)  # below the padding value
    if n_groups * width <= 2 * len(keys):
        pad = np.uint32(0xFFFFFFFF)
        matrix = np.full((n_groups, width), pad, dtype=np.uint32)
        matrix[group, rank - 1] = short
        matrix.sort(axis=1)
        same = (matrix[:, 1:] == matrix[:, :-1]) & (matrix[:, 1:] != pad)
        if not same.any():
            return np.zeros(0, dtype=np.int64)
        at_group, at = np.nonzero(same)
        repeated = _in_group(at_group, matrix[at_group, at + 1])
        composite = _in_group(group, short)
    else:
        composite = _in_group(group, short)
        ordered = np.sort(composite)
        repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    return np.flatnonzero(np.isin(composite, np.unique(repeated)))


def _in_group(group: np.ndarray, short: np.ndarray) -> np.ndarray:
    """(group, 32-bit key) as one 64-bit value."""
    return (group.astype(np.uint64) << np.uint64(32)) | short
