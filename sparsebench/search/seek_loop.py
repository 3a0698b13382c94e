"""Where a query's walk is in a posting list (sparsebench.search.maxscore_loop), plain
or packed (sparsebench.search.packed_rows), compiled (numba): the first position whose
id reaches a document, found by galloping search over a plain list's ids, or over a
packed list's chunks' first ids and then among the ids of the one chunk unpacked; and
a packed list's chunk unpacked into the list's slot of the walk's buffers once, for all
the reads that fall in it.
"""

from __future__ import annotations

import numpy as np

from sparsebench.core.jit import compiled
from sparsebench.search.packed_loop import read_chunk, read_chunk_ids, read_chunk_weights
from sparsebench.search.packed_rows import CHUNK

CHUNK_IDS_ONLY = 1 << 40  # a list's chunk unpacked, less this: its ids alone are


@compiled
def gallop(ids, low, end, doc):
    """The first position in (low, end) whose id is >= doc, given ids[low] < doc:
    galloping search, then bisection."""
    step = 1
    while low + step < end and ids[low + step] < doc:
        low += step
        step *= 2
    high = min(low + step, end)  # ids[low] < doc <= ids[high] (or high == end)
    while high - low > 1:
        middle = (low + high) // 2
        if ids[middle] < doc:
            low = middle
        else:
            high = middle
    return high


@compiled
def window_end(ids, at, last, stop):
    """The first position from `at` (up to `last`) whose id is at or past `stop`."""
    if at == last or ids[at] >= stop:
        return at
    return last if ids[last - 1] < stop else gallop(ids, at, last, stop)


@compiled(inline=True)
def unpacked(packed, chunked, i, p, length):
    """The chunk of packed list i (of `length` postings) that holds its posting p,
    unpacked into the list's slot of chunked's buffers unless it is there already:
    where in the buffers the list's posting 0 would be (posting p is at that plus p).
    chunked: walk_row's (first chunks, chunks unpacked, buffers); a chunk unpacked is
    its number, less CHUNK_IDS_ONLY if its ids alone are."""
    first_chunk, held, chunk_ids, chunk_weights = chunked
    chunk = p // CHUNK
    if held[i] != chunk:
        count = min(CHUNK, length - chunk * CHUNK)
        if held[i] == chunk - CHUNK_IDS_ONLY:
            read_chunk_weights(packed, first_chunk[i] + chunk, count, chunk_weights, i * CHUNK)
        else:
            read_chunk(packed, first_chunk[i] + chunk, count, chunk_ids, chunk_weights, i * CHUNK)
        held[i] = chunk
    return i * CHUNK - chunk * CHUNK


@compiled(inline=True)
def chunk_span(packed, chunked, i, p, past, last):
    """Where in the buffers packed list i's postings from p up to `past` lie, as far
    as p's chunk holds them, that chunk unpacked (unpacked): (from, to, and the
    position after them)."""
    shift = unpacked(packed, chunked, i, p, last)
    through = min(past, (p // CHUNK + 1) * CHUNK)
    return shift + p, shift + through, through


@compiled(inline=True)
def idsunpacked(packed, chunked, i, chunk, length):
    """unpacked for a lookup: the chunk's ids alone unpacked, unless they are there."""
    first_chunk, held, chunk_ids, _ = chunked
    if held[i] != chunk and held[i] != chunk - CHUNK_IDS_ONLY:
        count = min(CHUNK, length - chunk * CHUNK)
        read_chunk_ids(packed, first_chunk[i] + chunk, count, chunk_ids, i * CHUNK)
        held[i] = chunk - CHUNK_IDS_ONLY
    return i * CHUNK - chunk * CHUNK


@compiled(inline=True)
def packed_seek(packed, chunked, i, at, last, doc):
    """The first position from `at` (< `last`, the length) of packed list i whose id
    is >= doc, where in the buffers its chunk's ids start (shifted as _unpacked's), and
    past that chunk's last position: galloping over the chunks' first ids (each chunk's
    sits beside it) to the last chunk whose first id is <= doc, whose ids are unpacked
    and those below doc counted, branch-free (a position past the chunk holds an id
    above doc)."""
    first_ids = packed[1]
    first_chunk = chunked[0][i]
    chunk = at // CHUNK
    n_chunks = (last + CHUNK - 1) // CHUNK
    if chunk + 1 < n_chunks and first_ids[first_chunk + chunk + 1] <= doc:
        past = gallop(first_ids, first_chunk + chunk, first_chunk + n_chunks, doc + 1)
        chunk = past - 1 - first_chunk  # the last chunk whose first id is <= doc
        at = chunk * CHUNK
    shift = idsunpacked(packed, chunked, i, chunk, last)
    ids = chunked[2]
    past = min(last, (chunk + 1) * CHUNK)
    below = 0
    for q in range(np.uint64(shift + at), np.uint64(shift + past)):
        below += ids[q] < doc
    return at + below, shift, past


@compiled(inline=True)
def packed_end(packed, chunked, i, at, last, stop):
    """window_end for packed list i."""
    if at >= last:
        return at
    return packed_seek(packed, chunked, i, at, last, stop)[0]
