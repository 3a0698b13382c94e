"""MaxScore's loop, compiled (numba): per query, the lists of its terms in each block of
documents are searched a window of documents at a time, and every document whose score
may reach the query's top k is handed back with its float64 sum. The loop decides
nothing final: sparsebench.search.topk.CandidatePool settles and ranks what it
returns, as it does the sums of exhaustive search.

Per block, the query's lists are ordered by their bound (query weight times the list's
largest weight). With a floor that the k-th score is known to reach, the lists whose
bounds sum below it are non-essential: only documents of the other, essential lists are
visited. Per window of documents (as Lucene's MaxScore bulk scorer does) the essential
lists are added up term at a time into the window's sums (in the cache), a bitmap
marking the documents they hold, in the order in which a document-at-a-time merge of
the same lists adds them (the same sums); a single essential list is read in place,
each product its document's sum. The documents whose sum plus the bounds of the
non-essential lists may reach the floor are gathered in order. The non-essential lists
are then added to them a list at a time, the largest bound first (as Lucene's
MaxScoreBulkScorer applies them to its window's buffer): after each list, the
gathered documents that can no longer reach the floor are dropped. A list is either
read through the window, each posting's document found in a table of the
window's slots, or looked up document by document (its cursor moved forward by a
branch-free step of _SCAN postings, then galloping search), whichever is cheaper (a
lookup costs about as many postings read as compiled_search.READ_THROUGH); a dense list
(sparsebench.search.dense_rows) holds a weight a document, its cursor is a document,
and a lookup reads the weight at the document's position. The
documents left are then handed on one at a time, their tie keys prefetched first (at
k = 1000 a document's key was a wait on memory of its own).

A query's first window is _FIRST_WINDOW documents and each next one twice as wide, up to
WINDOW: the lists are split anew at each window, and the first ones, met before the
floor has risen, are the ones that must read every list. The growing windows, the
gathering and the branch-free step together made the search faster than fixed
16,384-document windows with each document decided as it was marked, themselves faster
than the lists merged document at a time
(benchmarks/RESULTS.md, "Measurements behind the code"); adding the non-essential lists
a list at a time, read through where that is cheaper, made it faster again than
visiting the gathered documents one at a time, every list looked up for each
(benchmarks/RESULTS.md, "MaxScore's non-essential lists a list at a time").

The floor rises as documents are scored: the k-th largest lower bound of their exact
scores, made inclusive of rounding as topk's floors are (exactscores.candidate_floor),
so a document that could tie the k-th score is always returned, unless topk's tie
certificate ranks it out: the k best so far, kept as (float32 lower bound, tie key)
pairs, outrank a document that cannot score above the k-th's level and has a smaller
tie key. With integer or quantised weights thousands of
documents tie at the k-th score; the certificate returns about k of them.

Kept as one module: the walk and its window functions share its scratch arrays' layout
and are compiled into one function (inlined: a compiled call would count references to
the tuples of arrays it passes, at every window; benchmarks/RESULTS.md, "Packed
postings"); where the walk is in a list is sparsebench.search.seek_loop's.

The per-posting and per-document decisions are written inline rather than as calls: a
compiled call that passes arrays updates their reference counts both ways, which costs
more than the decision itself (the first floor's heap test among them); the calls made
are per window. The walk is compiled without numba's reference counts, and what it calls
gets its arrays borrowed (sparsebench.core.borrowed; rows_loop lends them): the inlined
helpers of packed lists bind a chunk's arrays anew at every chunk read and every lookup,
and counted, those atomic updates were a large share of the packed walk's time
(benchmarks/RESULTS.md, "Borrowed arrays"). The hot loops index with unsigned positions:
numba tests a signed index for a negative value, to count it from the end, at every
access (unsigned, the window's sums and lookups take less time). What each gained:
benchmarks/RESULTS.md, "Measurements behind the code".
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from sparsebench.core.cache_hints import prefetch
from sparsebench.core.jit import compiled
from sparsebench.search.candidates_loop import (
    DENSE,
    candidate_floor,
    hand_on,
    push_largest,
    query_lists,
    ranked_out,
    still_in,
)
from sparsebench.search.dense_loop import dense_stretch, dense_weight, stretch_weight
from sparsebench.search.dense_rows import LANES
from sparsebench.search.packed_loop import chunk_weight, read_chunk
from sparsebench.search.packed_rows import CHUNK
from sparsebench.search.seek_loop import chunk_span, gallop, packed_end, packed_seek, window_end

_SCAN = 16  # postings a seek compares at once, branch-free, before it gallops
WINDOW = 16384  # documents whose sums are added up term at a time, then walked in order
_FIRST_WINDOW = 1024  # a query's first window, each next one twice as wide up to WINDOW
assert WINDOW < 1 << 16  # a window's slots hold a gathered document's position + 1


@compiled(inline=True)
def _found_in(ids, data, lo, hi, w, cut, least, widen, floor, found, n_found):
    """_found_in_list's pass over ids[lo:hi], data[lo:hi]: the new count found."""
    found_docs, found_sums = found
    for p in range(np.uint64(lo), np.uint64(hi)):
        if np.float64(data[p]) >= cut:
            score = w * np.float64(data[p])
            found_docs[n_found], found_sums[n_found] = ids[p], score
            n_found += (score + least) * widen >= floor
    return n_found


@compiled(inline=True)
def _found_in_dense(dense, packed, place, lo, hi, w, cut, least, widen, floor, found):
    """_found_in_list's pass over a dense row's documents lo..hi-1 (the row at `place`
    among the dense vectors): (the count found, the postings read)."""
    found_docs, found_sums = found
    n_found = 0
    read = 0
    lanes = np.uint64(LANES)
    for first in range(np.uint64(lo) // lanes * lanes, np.uint64(hi), lanes):
        stretch = dense_stretch(packed, place, first)
        for d in range(max(np.uint64(lo), first), min(np.uint64(hi), first + lanes)):
            value = np.float64(stretch_weight(dense, packed, stretch, d))
            read += value != 0.0
            if value != 0.0 and value >= cut:
                score = w * value
                found_docs[n_found], found_sums[n_found] = d, score
                n_found += (score + least) * widen >= floor
    return n_found, read


@compiled(inline=True)
def _found_in_list(postings, packed, dense, chunked, lists, i, stop, least, widen, floor, found):
    """The documents of list i (lists: cursor, end, weight) from its cursor to its
    first id at or past `stop` (where the cursor is left), whose product plus `least`
    (the bounds of the lists to be looked up) may reach the floor, in order, into found
    (documents, sums): (how many, postings read). One essential list needs no window:
    each document's sum is its product. The window's end is found first, and a weight
    below `cut` (the floor's in the list's weights, made lower by far more than its
    rounding) is passed over unread beyond its own byte: most are, once the floor has
    risen. A packed list is read a chunk at a time (chunked: see walk_row); a dense
    list's cursor and end are documents."""
    ids, data = postings[:2]
    first_chunk, _, chunk_ids, chunk_weights = chunked
    cursor, end, weight = lists
    at, last, w = cursor[i], end[i], weight[i]
    cut = (floor / widen - least) / w
    cut -= abs(cut) * 1e-6
    n_found = 0
    if dense is not None and first_chunk[i] <= DENSE:
        past = max(at, min(stop, last))
        base = DENSE - first_chunk[i]
        cursor[i] = past
        return _found_in_dense(dense, packed, base, at, past, w, cut, least, widen, floor, found)
    if packed is not None and first_chunk[i] >= 0:
        past = packed_end(packed, chunked, i, at, last, stop)
        p = at
        while p < past:
            lo, hi, p = chunk_span(packed, chunked, i, p, past, last)
            n_found = _found_in(
                chunk_ids, chunk_weights, lo, hi, w, cut, least, widen, floor, found, n_found
            )
    else:
        past = window_end(ids, at, last, stop)
        n_found = _found_in(ids, data, at, past, w, cut, least, widen, floor, found, n_found)
    cursor[i] = past
    return n_found, past - at


@compiled(inline=True)
def _into_window(ids, data, lo, hi, offset, w, window_sums, window_bits):
    """_found_in_window's addition of ids[lo:hi], data[lo:hi] into the window."""
    for p in range(np.uint64(lo), np.uint64(hi)):  # unsigned: no wraparound tests
        d = np.uint64(ids[p]) - offset
        window_sums[d] += w * np.float64(data[p])
        window_bits[d >> np.uint64(6)] |= np.uint64(1) << (d & np.uint64(63))


@compiled(inline=True)
def _dense_into_window(dense, packed, place, lo, hi, offset, w, window_sums, window_bits):
    """_found_in_window's addition of a dense row's documents lo..hi-1 (the row at
    `place` among the dense vectors) into the window: the postings read."""
    read = np.uint64(0)
    lanes = np.uint64(LANES)
    for first in range(np.uint64(lo) // lanes * lanes, np.uint64(hi), lanes):
        stretch = dense_stretch(packed, place, first)
        for d in range(max(np.uint64(lo), first), min(np.uint64(hi), first + lanes)):
            value = stretch_weight(dense, packed, stretch, d)
            held = np.uint64(value != 0)
            local = d - offset
            window_sums[local] += w * np.float64(value)
            window_bits[local >> np.uint64(6)] |= held << (local & np.uint64(63))
            read += held
    return np.int64(read)


@compiled(inline=True)
def _found_in_window(
    postings, packed, dense, chunked, lists, first, m, start, stop, least, widen, floor,
    window, found,
):  # fmt: skip
    """Lists first..m-1 (lists: cursor, end, weight) from their cursors to their first
    ids at or past `stop` (where the cursors are left), added up term at a time into
    the window's sums, its bitmap marking their documents (window: sums and bitmap for
    the documents from `start`, zero, and left zero); then the marked documents whose
    sum plus `least` may reach the floor, in order, into found (documents, sums):
    (how many, postings read). A packed list is read a chunk at a time."""
    ids, data = postings[:2]
    first_chunk, _, chunk_ids, chunk_weights = chunked
    cursor, end, weight = lists
    window_sums, window_bits = window
    found_docs, found_sums = found
    read = 0
    offset = np.uint64(start)
    for i in range(first, m):
        at, last, w = cursor[i], end[i], weight[i]
        if dense is not None and first_chunk[i] <= DENSE:
            past = max(at, min(stop, last))
            place = DENSE - first_chunk[i]
            read += _dense_into_window(
                dense, packed, place, at, past, offset, w, window_sums, window_bits
            )
        elif packed is not None and first_chunk[i] >= 0:
            past = packed_end(packed, chunked, i, at, last, stop)
            p = at
            while p < past:
                lo, hi, p = chunk_span(packed, chunked, i, p, past, last)
                _into_window(chunk_ids, chunk_weights, lo, hi, offset, w, window_sums, window_bits)
            read += past - at
        else:
            past = window_end(ids, at, last, stop)
            _into_window(ids, data, at, past, offset, w, window_sums, window_bits)
            read += past - at
        cursor[i] = past
    n_found = np.uint64(0)
    for word_at in range(np.uint64((stop - start + 63) >> 6)):
        word = window_bits[word_at]
        if word == 0:
            continue
        window_bits[word_at] = 0
        while word != 0:
            d = (word_at << np.uint64(6)) + np.uint64(trailing_zeros(word))
            word &= word - np.uint64(1)
            score = window_sums[d]
            window_sums[d] = 0.0
            found_docs[n_found], found_sums[n_found] = start + np.int64(d), score
            n_found += np.uint64((score + least) * widen >= floor)
    return np.int64(n_found), read


@compiled(inline=True)
def _read_through(ids, data, lo, hi, offset, w, slots, found_sums):
    """_add_to_found's pass over ids[lo:hi], data[lo:hi]: each posting of a gathered
    document added to its sum."""
    for p in range(np.uint64(lo), np.uint64(hi)):
        slot = slots[np.uint64(ids[p]) - offset]
        if slot != 0:
            found_sums[slot - 1] += w * np.float64(data[p])


@compiled(inline=True)
def _add_dense_to_found(dense, packed, place, w, least, widen, floor, found, n_found):
    """_add_to_found for a dense list (at `place` among the dense vectors): each gathered
    document's weight read at its position."""
    found_docs, found_sums = found
    kept = np.uint64(0)
    read = 0
    for j in range(np.uint64(n_found)):
        doc, score = found_docs[j], found_sums[j]
        value = np.float64(dense_weight(dense, packed, place, doc))
        score += w * value
        read += value != 0.0
        found_docs[kept], found_sums[kept] = doc, score
        kept += np.uint64((score + least) * widen >= floor)
    return np.int64(kept), read


@compiled(inline=True)
def _add_to_found(
    postings, packed, dense, chunked, lists, i, least, widen, floor, found, n_found, window,
    read_through,
):  # fmt: skip
    """List i (lists: cursor, end, weight) added to the window's gathered documents
    (found: documents, in order, and sums; the first n_found), and those whose sum plus
    `least` (the bounds of the lists still to be added) can no longer reach the floor
    dropped, without a branch, in the same pass: (how many are left, postings read).
    Read through the window (window: its slots, one a document, zero and left zero, its
    first document, past its last, and the block's documents) where the list holds at
    most `read_through` postings there per document, else looked up document by
    document; the cursor is left at or before the window's end. A packed list is read
    a chunk at a time, and a lookup passes over whole chunks by their first ids; a
    dense list's weights are read at the documents."""
    ids, data = postings[:2]
    first_chunk, _, chunk_ids, chunk_weights = chunked
    cursor, end, weight = lists
    found_docs, found_sums = found
    slots, start, stop, width = window
    at, last, w = cursor[i], end[i], weight[i]
    if dense is not None and first_chunk[i] <= DENSE:
        cursor[i] = max(at, min(stop, last))
        place = DENSE - first_chunk[i]
        return _add_dense_to_found(dense, packed, place, w, least, widen, floor, found, n_found)
    offset = np.uint64(start)
    kept = np.uint64(0)
    # its postings in the window, estimated from the density of those left: a list
    # looked up is often far from the cache, where finding the window's ends would cost
    # two searches (a packed list's first id here: its chunk's, no higher)
    if at >= last:
        first_id = width
    elif packed is not None and first_chunk[i] >= 0:
        first_id = np.int64(packed[1][first_chunk[i] + at // CHUNK])
    else:
        first_id = np.int64(ids[at])
    in_window = (last - at) * (stop - max(start, first_id)) / max(width - first_id, 1)
    if first_id < stop and in_window <= read_through * n_found:
        # left behind by windows that needed none
        if packed is not None and first_chunk[i] >= 0:
            at = packed_end(packed, chunked, i, at, last, start)
            past = packed_end(packed, chunked, i, at, last, stop)
        else:
            at = window_end(ids, at, last, start)
            past = window_end(ids, at, last, stop)
        for j in range(np.uint64(n_found)):
            slots[np.uint64(found_docs[j]) - offset] = np.uint16(j + 1)
        if packed is not None and first_chunk[i] >= 0:
            p = at
            while p < past:
                lo, hi, p = chunk_span(packed, chunked, i, p, past, last)
                _read_through(chunk_ids, chunk_weights, lo, hi, offset, w, slots, found_sums)
        else:
            _read_through(ids, data, at, past, offset, w, slots, found_sums)
        for j in range(np.uint64(n_found)):
            doc, score = found_docs[j], found_sums[j]
            slots[np.uint64(doc) - offset] = 0
            found_docs[kept], found_sums[kept] = doc, score
            kept += np.uint64((score + least) * widen >= floor)
        cursor[i] = past
        return np.int64(kept), past - at
    if first_id >= stop:
        last = at  # none in the window: the documents are only tested
    read = 0
    if packed is not None and first_chunk[i] >= 0:
        for j in range(np.uint64(n_found)):
            doc, score = found_docs[j], found_sums[j]
            if at < last:
                at, shift, past = packed_seek(packed, chunked, i, at, last, doc)
                if at < past and chunk_ids[np.uint64(shift + at)] == doc:
                    chunk = at // CHUNK
                    count = past - chunk * CHUNK
                    score += w * chunk_weight(packed, first_chunk[i] + chunk, count, at % CHUNK)
                    read += 1
            found_docs[kept], found_sums[kept] = doc, score
            kept += np.uint64((score + least) * widen >= floor)
        cursor[i] = at
        return np.int64(kept), read
    for j in range(np.uint64(n_found)):
        doc, score = found_docs[j], found_sums[j]
        if at + _SCAN <= last:  # _SCAN steps forward at once, then galloping
            ahead = 0
            for step in range(np.uint64(at), np.uint64(at + _SCAN)):
                ahead += ids[step] < doc
            at += ahead
            if ahead == _SCAN and at < last:
                at = gallop(ids, at - 1, last, doc)
        else:
            while at < last and ids[at] < doc:
                at += 1
        if at < last and ids[np.uint64(at)] == doc:
            score += w * np.float64(data[np.uint64(at)])
            read += 1
        found_docs[kept], found_sums[kept] = doc, score
        kept += np.uint64((score + least) * widen >= floor)
    cursor[i] = at
    return np.int64(kept), read


@compiled(inline=True)
def _offered(heap, size, value, doc, excluded):
    """The heap's new size once `value` (of the document `doc`) is offered to it: kept
    if it is among the k largest and the document is not the excluded one (decided
    here: a call costs more than the test)."""
    if (size < len(heap) or value > heap[0]) and doc != excluded:
        return push_largest(heap, size, value)
    return size


@compiled(inline=True)
def _heap_of(ids, data, lo, hi, w, first_doc, excluded, heap, size):
    """_first_floor's pass over ids[lo:hi], data[lo:hi]: the heap's new size."""
    for p in range(lo, hi):
        size = _offered(heap, size, w * np.float64(data[p]), first_doc + ids[p], excluded)
    return size


@compiled(inline=True)
def _heap_of_dense(dense, packed, place, width, w, first_doc, excluded, heap, size):
    """_heap_of over a dense row's documents (at `place` among the dense vectors, `width`
    of them)."""
    lanes = np.uint64(LANES)
    for first in range(np.uint64(0), np.uint64(width), lanes):
        stretch = dense_stretch(packed, place, first)
        for d in range(first, min(np.uint64(width), first + lanes)):
            stored = np.float64(stretch_weight(dense, packed, stretch, d))
            if stored != 0.0:
                size = _offered(heap, size, w * stored, first_doc + np.int64(d), excluded)
    return size


@compiled
def _first_floor(
    floor, heap, rare, bounds, q_weights, lists, excluded, postings, packed, dense, chunked
):
    """A floor before any walk: for each of the query's `rare` terms, the k-th largest
    of its products over the corpus bounds the k-th score from below (weights are
    nonnegative, so a document's score is at least any one of its products, each exact
    in float64). The terms are read largest bound first (each cleared from `rare` as
    it is read: the walk allocates no order), and a term whose bound (query weight
    times its largest weight, `bounds`) is no higher than the floor is not read: none of
    its products could raise it. lists: the query's lists' first postings, past
    their last and first chunks (query_lists); postings: the index's arrays (see
    walk_row); chunked: walk_row's, a packed list unpacked into its slot 0."""
    ids, data, block_docs, _, n_docs = postings
    starts, ends, chunks = lists
    chunk_ids, chunk_weights = chunked[2], chunked[3]
    while True:
        entry = -1  # the rare term of the largest bound left (the first of equal ones)
        for candidate in range(len(rare)):
            if rare[candidate] and (entry < 0 or bounds[candidate] > bounds[entry]):
                entry = candidate
        if entry < 0 or bounds[entry] <= floor:
            break
        rare[entry] = False
        size = 0
        w = q_weights[entry]
        for block in range(starts.shape[1]):
            if starts[entry, block] < 0:
                continue
            first_doc = block * block_docs
            chunk = chunks[entry, block]
            if dense is not None and chunk <= DENSE:
                width = min(block_docs, n_docs - first_doc)
                place = DENSE - chunk
                size = _heap_of_dense(
                    dense, packed, place, width, w, first_doc, excluded, heap, size
                )
                continue
            if packed is None or chunk < 0:
                size = _heap_of(
                    ids,
                    data,
                    starts[entry, block],
                    ends[entry, block],
                    w,
                    first_doc,
                    excluded,
                    heap,
                    size,
                )
                continue
            length = ends[entry, block]
            for offset in range(0, length, CHUNK):
                count = min(CHUNK, length - offset)
                read_chunk(packed, chunk, count, chunk_ids, chunk_weights, 0)
                size = _heap_of(
                    chunk_ids, chunk_weights, 0, count, w, first_doc, excluded, heap, size
                )
                chunk += 1
        if size == len(heap):
            floor = max(floor, candidate_floor(heap[0]))
    return floor


@compiled(counted=False)
def walk_row(row, search, scratch, out_docs, out_sums, used, packed, dense):
    """One query row's candidates, written to out_* from `used` on: (the next free
    position, or -1 if the arrays filled up first; the postings read). row: its terms,
    their weights, its error factor, its floor and tie certificate so far (floor, level,
    tie_floor) and its excluded document; search: (k, rare, read_through, postings,
    tie_keys, block_order), postings being Postings's arrays (ids, data, documents a
    block, and the directory's arrays as query_lists takes them); scratch: rows_loop's
    arrays, the window's sums (zero), its bitmap (zero), the gathered documents and
    sums, and the window's slots (zero), then each list's first chunk, the chunks
    unpacked and their buffers (for a packed list), then query_lists's arrays and each
    term's documents, bound and rareness; packed: the packed rows' arrays
    (packed_rows.PackedRows.arrays()), or None where no row is: its type chooses when
    the walk is compiled, so that a plain index's has no packed branch at all (with
    them it ran 0.87x as fast: benchmarks/RESULTS.md, "Packed postings"); dense: the
    dense rows' vectors (sparsebench.search.dense_rows), or None where no row is, the
    same way, and None again for a row none of whose lists is dense (_walk_blocks).
    Compiled without reference counts (jit.compiled(counted=False)), it allocates
    nothing: its inlined helpers bind arrays at every chunk read and lookup, and
    counted, each binding was a locked increment and decrement (benchmarks/RESULTS.md,
    "Borrowed arrays")."""
    row_terms, row_weights, floor, excluded = row[0], row[1], row[3], row[6]
    k, rare, postings = search[0], search[1], search[3]
    directory = postings[3]
    first_heap = scratch[5]
    chunked = scratch[15:19]
    starts, ends, maxima, chunks = query_lists(row_terms, directory, scratch[19])
    n_terms, n_blocks = starts.shape
    df = scratch[20][:n_terms]  # each term's documents
    term_bounds = scratch[21][:n_terms]  # and the most it adds to a score
    rare_terms = scratch[22][:n_terms]  # and whether it is scored whole for a first floor
    df[:] = 0
    term_bounds[:] = 0.0
    for entry in range(n_terms):
        for block in range(n_blocks):
            if starts[entry, block] >= 0:
                df[entry] += ends[entry, block] - starts[entry, block]
                bound_here = row_weights[entry] * maxima[entry, block]
                term_bounds[entry] = max(term_bounds[entry], bound_here)
    for entry in range(n_terms):
        rare_terms[entry] = k <= df[entry] <= rare
    lists = (starts, ends, chunks)
    floor = _first_floor(
        floor,
        first_heap,
        rare_terms,
        term_bounds,
        row_weights,
        lists,
        excluded,
        postings,
        packed,
        dense,
        chunked,
    )
    lists = (starts, ends, maxima, chunks)
    out = (out_docs, out_sums, used)
    if dense is not None and _any_dense(chunks):
        return _walk_blocks(row, search, scratch, out, packed, dense, lists, floor)
    return _walk_blocks(row, search, scratch, out, packed, None, lists, floor)


@compiled(counted=False)
def _walk_blocks(row, search, scratch, out, packed, dense, lists, floor):
    """walk_row's walk of the blocks from its first floor on (out: out_docs, out_sums,
    used; lists: query_lists's). dense is None where none of the row's lists is dense:
    compiled apart, the walk of such a row has no dense branch (with them, MaxScore on
    packed BM25-like postings ran 0.94x as fast: benchmarks/RESULTS.md, "Bit vectors in
    packed postings")."""
    out_docs, out_sums, used = out
    row_terms, row_weights, factor, _, level, tie_floor, excluded = row
    k, _, read_through, postings, tie_keys, block_order = search
    block_docs = postings[2]
    cursor, end, weight, bound, below = scratch[:5]
    heap = scratch[6:9]  # the k best, packed (candidates_loop.hand_on)
    window = scratch[10:12]  # the window's sums and bitmap, zero
    found = scratch[12:14]  # the window's documents that may reach the floor, their sums
    found_docs, found_sums = found
    slots = scratch[14]  # each of the window's documents' position among them + 1, zero
    # each list's first chunk (-1: not packed), the chunk unpacked in its slot of the
    # buffers (-1: none), and the buffers: CHUNK ids and weights a list
    chunked = scratch[15:19]
    first_chunk, held = chunked[:2]
    walking = (cursor, end, weight)
    n_docs = len(tie_keys)
    read = 0
    first_used = used
    widen = 1.0 + 2.0 * factor
    shrink = 1.0 - 2.0 * factor
    starts, ends, maxima, chunks = lists
    size = 0
    span = _FIRST_WINDOW
    for block in block_order:
        first_doc = block * block_docs
        width = min(block_docs, n_docs - first_doc)
        m = 0
        for entry in range(len(row_terms)):  # the row's lists in this block
            if starts[entry, block] >= 0:
                w = row_weights[entry]
                ub = w * maxima[entry, block]
                at = m  # insertion by bound, ascending
                while at > 0 and bound[at - 1] > ub:
                    cursor[at], end[at] = cursor[at - 1], end[at - 1]
                    weight[at], bound[at] = weight[at - 1], bound[at - 1]
                    if packed is not None or dense is not None:
                        first_chunk[at] = first_chunk[at - 1]
                    at -= 1
                cursor[at], end[at] = starts[entry, block], ends[entry, block]
                weight[at], bound[at] = w, ub
                if packed is not None or dense is not None:
                    first_chunk[at] = chunks[entry, block]
                if dense is not None and chunks[entry, block] <= DENSE:
                    cursor[at], end[at] = 0, width  # a dense list's cursor: a document
                m += 1
        if m == 0:
            continue
        if packed is not None:
            for i in range(m):
                held[i] = -1  # the block's lists: no chunk unpacked yet
        total = 0.0
        for i in range(m):
            total += bound[i]
            below[i] = total
        start = 0
        while start < width:
            essential = 0  # lists essential..m-1 are added up; the others looked up
            while essential < m and below[essential] * widen < floor:
                essential += 1
            if essential == m:
                break  # no document of the block reaches the floor
            stop = min(start + span, width)
            span = min(2 * span, WINDOW)
            least = below[essential - 1] if essential > 0 else 0.0
            if essential == m - 1:
                n_found, window_read = _found_in_list(
                    postings, packed, dense, chunked, walking, essential, stop, least, widen,
                    floor, found,
                )  # fmt: skip
            else:
                n_found, window_read = _found_in_window(
                    postings, packed, dense, chunked, walking, essential, m, start, stop,
                    least, widen, floor, window, found,
                )  # fmt: skip
            read += window_read
            for i in range(essential - 1, -1, -1):  # the largest bound first
                if n_found == 0:
                    break
                n_found, list_read = _add_to_found(
                    postings,
                    packed,
                    dense,
                    chunked,
                    walking,
                    i,
                    below[i - 1] if i > 0 else 0.0,
                    widen,
                    floor,
                    found,
                    n_found,
                    (slots, start, stop, width),
                    read_through,
                )
                read += list_read
            start = stop
            for j in range(n_found):  # their tie keys, far apart: their memory waited for once
                prefetch(tie_keys, first_doc + found_docs[j])
            for j in range(n_found):
                score = found_sums[j]
                global_doc = first_doc + found_docs[j]
                if ranked_out(score * widen, floor, level, tie_floor, tie_keys[global_doc]):
                    continue
                if global_doc == excluded:
                    continue
                if used == len(out_docs):
                    return -1, read  # full: the caller grows the arrays and asks again
                out_docs[used], out_sums[used] = global_doc, score
                used += 1
                size, floor, level, tie_floor = hand_on(
                    global_doc, score, shrink, k, tie_keys, heap, size, floor, level, tie_floor
                )
    used = still_in(out_docs, out_sums, first_used, used, widen, floor, level, tie_floor, tie_keys)
    return used, read


@compiled(inline=True)
def _any_dense(chunks):
    """Whether any of a row's lists is dense in any block (query_lists's chunks)."""
    for entry in range(chunks.shape[0]):
        for block in range(chunks.shape[1]):
            if chunks[entry, block] <= DENSE:
                return True
    return False
