"""Chunks of packed rows (sparsebench.search.packed_rows) packed and read, compiled
(numba): the searches' loops read a chunk at a time into buffers of CHUNK postings."""

from __future__ import annotations

import numpy as np

from sparsebench.core.bitpack_loop import pack, unpack_ascending, unpack_offsets
from sparsebench.core.jit import compiled
from sparsebench.search.packed_rows import CHUNK


@compiled(inline=True)
def _weights_at(packed, chunk, count):
    """Where chunk `chunk`'s weights start in the stream: past its `count` ids."""
    return packed[5][chunk] + (count * packed[2][chunk] + 7) // 8


@compiled(inline=True)
def read_chunk_ids(packed, chunk, count, ids, into):
    """read_chunk's ids alone (a lookup reads the weight it finds alone: chunk_weight)."""
    stream, first, id_bits, _, _, chunk_at = packed
    unpack_ascending(stream, chunk_at[chunk], count, id_bits[chunk], first[chunk], ids, into)


@compiled(inline=True)
def read_chunk_weights(packed, chunk, count, weights, into):
    """read_chunk's weights alone (its ids read already, by read_chunk_ids)."""
    stream, weight_bits, base = packed[0], packed[3], packed[4]
    at = _weights_at(packed, chunk, count)
    unpack_offsets(stream, at, count, weight_bits[chunk], base[chunk], weights, into)


@compiled(inline=True)
def read_chunk(packed, chunk, count, ids, weights, into):
    """Chunk `chunk` (of `count` postings) into ids and weights from `into` on (whole
    groups of eight are written: CHUNK entries suffice). packed: PackedRows.arrays()."""
    read_chunk_ids(packed, chunk, count, ids, into)
    read_chunk_weights(packed, chunk, count, weights, into)


@compiled(inline=True)
def chunk_weight(packed, chunk, count, j):
    """The weight of posting j of chunk `chunk` (of `count` postings), read alone (float64):
    its bits' three bytes (a width of at most 16, from any bit of a byte)."""
    stream, weight_bits, base = packed[0], packed[3], packed[4]
    width = np.uint64(weight_bits[chunk])
    at = np.uint64(_weights_at(packed, chunk, count))
    bit = np.uint64(j) * width
    byte = at + (bit >> np.uint64(3))
    bits = np.uint64(stream[byte]) | (np.uint64(stream[byte + np.uint64(1)]) << np.uint64(8))
    bits |= np.uint64(stream[byte + np.uint64(2)]) << np.uint64(16)
    value = (bits >> (bit & np.uint64(7))) & ((np.uint64(1) << width) - np.uint64(1))
    return np.float64(base[chunk]) + np.float64(value)


@compiled
def read_rows(packed, first_chunks, lengths, ids, weights):
    """Whole packed rows (each its first chunk and length) into ids and weights, one
    after another (CHUNK entries to spare at their end)."""
    at = 0
    for row in range(len(first_chunks)):
        chunk = first_chunks[row]
        for offset in range(0, lengths[row], CHUNK):
            count = min(CHUNK, lengths[row] - offset)
            read_chunk(packed, chunk, count, ids, weights, at)
            at += count
            chunk += 1


@compiled
def pack_rows(ids, weights, starts, lengths, stream, first, id_bits, weight_bits, base):
    """Rows (their first posting in ids and weights, and lengths) packed in chunks into
    the arrays given (stream zero, large enough): (bytes, chunks) written."""
    at = 0
    chunk = 0
    deltas = np.zeros(CHUNK, dtype=np.int64)
    offsets = np.zeros(CHUNK, dtype=np.int64)
    for row in range(len(starts)):
        for offset in range(0, lengths[row], CHUNK):
            begin = starts[row] + offset
            count = min(CHUNK, lengths[row] - offset)
            widest = 0
            least, most = np.int64(weights[begin]), np.int64(weights[begin])
            deltas[0] = 0
            for i in range(1, count):
                deltas[i] = np.int64(ids[begin + i]) - np.int64(ids[begin + i - 1])
                widest = max(widest, deltas[i])
            for i in range(count):
                least = min(least, np.int64(weights[begin + i]))
                most = max(most, np.int64(weights[begin + i]))
            for i in range(count):
                offsets[i] = np.int64(weights[begin + i]) - least
            first[chunk], base[chunk] = ids[begin], least
            id_bits[chunk] = _width(widest)
            weight_bits[chunk] = _width(most - least)
            at = pack(deltas[:count], id_bits[chunk], stream, at)
            at = pack(offsets[:count], weight_bits[chunk], stream, at)
            chunk += 1
    return at, chunk


@compiled(inline=True)
def _width(value):
    bits = 0
    while value >> bits:
        bits += 1
    return bits
