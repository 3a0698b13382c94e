"""Exhaustive search's loop for nonnegative weights, compiled (numba): per query and block
of documents, every list of the query's terms is added, term at a time, into a dense
float64 accumulator of the block's documents (512 KiB: it stays in the core's cache),
which one pass then scans for the documents that may reach the query's top k (the
decisions of candidates_loop, as MaxScore's walk makes them).

Against the sparse products of sparsebench.search.products this drops the widened
copies of the lists, the product's output and its partitions: what is left is one
multiply-add into the accumulator a posting, and one comparison a document. A dense row
(sparsebench.search.dense_rows) is added as a vector, all of a query's dense rows over
one stretch of the block at a time, two rows a pass over the stretch's sums, without a
read-modify-write a posting; in packed postings a dense row is a bit vector, unpacked
as it is added.
"""

from __future__ import annotations

import numpy as np

from sparsebench.core.jit import compiled
from sparsebench.search.candidates_loop import (
    DENSE,
    hand_on,
    query_lists,
    ranked_out,
    still_in,
)
from sparsebench.search.dense_loop import bit_stretch, crosses_word, pair_value, word_value
from sparsebench.search.dense_rows import LANES
from sparsebench.search.packed_loop import read_chunk
from sparsebench.search.packed_rows import CHUNK

_CHUNK = LANES  # documents whose sums are tested together before any is looked at


@compiled(inline=True)
def _add_list(sums, ids, data, start, stop, weight):
    """sums[ids[p]] += weight x data[p] over postings start..stop-1. Four postings at a
    time, their loads before their stores: the ids of a list are distinct, so the four
    updates are independent (faster than one at a time). Unsigned positions: numba
    tests a signed index for a negative value at every access (exhaustive search took
    less time once they were unsigned here, and less again in the chunks' test). What
    both gained: benchmarks/RESULTS.md, "Measurements behind the code"."""
    unrolled = np.uint64(start + (stop - start) // 4 * 4)
    one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
    for p in range(np.uint64(start), unrolled, np.uint64(4)):  # unsigned: no wraparound
        d0, d1, d2, d3 = ids[p], ids[p + one], ids[p + two], ids[p + three]
        v0 = weight * np.float64(data[p])
        v1 = weight * np.float64(data[p + one])
        v2 = weight * np.float64(data[p + two])
        v3 = weight * np.float64(data[p + three])
        sums[d0] += v0
        sums[d1] += v1
        sums[d2] += v2
        sums[d3] += v3
    for p in range(unrolled, np.uint64(stop)):
        sums[ids[p]] += weight * np.float64(data[p])


@compiled(inline=True)
def _add_packed_list(sums, packed, chunk, length, weight, chunk_ids, chunk_weights):
    """_add_list over a packed list of `length` postings from chunk `chunk` on, a chunk
    unpacked into chunk_* at a time."""
    for offset in range(0, length, CHUNK):
        count = min(CHUNK, length - offset)
        read_chunk(packed, chunk, count, chunk_ids, chunk_weights, 0)
        _add_list(sums, chunk_ids, chunk_weights, 0, count, weight)
        chunk += 1


@compiled(inline=True)
def _add_dense(sums, dense, base, lo, hi, weight):
    """sums[lo:hi] += weight x a dense row's weights there (the row at `base` in the
    dense vectors): a vector loop, unsigned positions."""
    at = np.uint64(base)
    for d in range(np.uint64(lo), np.uint64(hi)):
        sums[d] += weight * np.float64(dense[at + d])


@compiled(inline=True)
def _add_two_dense(sums, dense, base, other, lo, hi, weight, other_weight):
    """_add_dense of two dense rows in one pass over sums[lo:hi]: a load and a store of
    the sums for two rows (their products summed first: any order gives the score,
    sparsebench.search.exactscores)."""
    at, to = np.uint64(base), np.uint64(other)
    for d in range(np.uint64(lo), np.uint64(hi)):
        sums[d] += weight * np.float64(dense[at + d]) + other_weight * np.float64(dense[to + d])


@compiled(inline=True)
def _add_bits(sums, words, place, lo, hi, weight):
    """sums[lo:hi] += weight x the weights of a bit vector (at `place`) there, lo a
    multiple of LANES, hi at most LANES on: a lane a document, every lane's value at
    the same shift of its word (and of the next, where the values cross into it): a
    vector loop."""
    at, shift, mask = bit_stretch(place, lo)
    first = np.uint64(lo)
    if crosses_word(shift, mask):
        for d in range(np.uint64(0), np.uint64(hi - lo)):
            sums[first + d] += weight * np.float64(pair_value(words, at, d, shift, mask))
    else:
        for d in range(np.uint64(0), np.uint64(hi - lo)):
            sums[first + d] += weight * np.float64(word_value(words, at, d, shift, mask))


@compiled(inline=True)
def _add_two_bits(sums, words, place, other, lo, hi, weight, other_weight):
    """_add_bits of two bit vectors in one pass over sums[lo:hi] (as _add_two_dense)."""
    at, shift, mask = bit_stretch(place, lo)
    to, other_shift, other_mask = bit_stretch(other, lo)
    first = np.uint64(lo)
    if crosses_word(shift, mask) or crosses_word(other_shift, other_mask):
        for d in range(np.uint64(0), np.uint64(hi - lo)):
            value = pair_value(words, at, d, shift, mask)
            other_value = pair_value(words, to, d, other_shift, other_mask)
            sums[first + d] += weight * np.float64(value) + other_weight * np.float64(other_value)
    else:
        for d in range(np.uint64(0), np.uint64(hi - lo)):
            value = word_value(words, at, d, shift, mask)
            other_value = word_value(words, to, d, other_shift, other_mask)
            sums[first + d] += weight * np.float64(value) + other_weight * np.float64(other_value)


@compiled(counted=False)
def _add_bit_rows(sums, dense, places, weights, n, lo, hi):
    """sums[lo:hi] += the n bit vectors at `places` (dense_rows), each times its
    weight, two a pass. A function of its own, not inlined: inlined in scan_row its
    loops ran at less than half the speed (benchmarks/RESULTS.md, "Bit vectors in packed
    postings")."""
    for r in range(0, n - 1, 2):
        _add_two_bits(sums, dense, places[r], places[r + 1], lo, hi, weights[r], weights[r + 1])
    if n % 2:
        _add_bits(sums, dense, places[n - 1], lo, hi, weights[n - 1])


@compiled(counted=False)
def scan_row(row, search, scratch, out_docs, out_sums, used, packed, dense):
    """One query row's candidates, written to out_* from `used` on: (the next free
    position, or -1 if the arrays filled up first; the postings read). Arguments as
    maxscore_loop.walk_row's (`rare` and `read_through` unused); scratch: walk_row's,
    the accumulator, zero, of a block's documents among them; compiled, as the walk is,
    without reference counts. A document whose sum is zero is never handed on (its
    score is zero: topk drops those). The block's plain and packed lists are added
    first, a list at a time; its dense rows (sparsebench.search.dense_rows) then all
    together, a stretch of _CHUNK documents at a time, each stretch tested for
    candidates while it is in the core's cache (scores do not depend on the order in
    which a sum's products are added: sparsebench.search.exactscores)."""
    row_terms, row_weights, factor, floor, level, tie_floor, excluded = row
    k, _, _, postings, tie_keys, block_order = search
    ids, data, block_docs, directory = postings[:4]
    dense_bases, dense_weights = scratch[0], scratch[2]  # the block's dense rows
    heap, sums = scratch[6:9], scratch[9]
    chunk_ids, chunk_weights = scratch[17:19]
    n_docs = len(tie_keys)
    widen = 1.0 + 2.0 * factor
    shrink = 1.0 - 2.0 * factor
    starts, ends, _, chunks = query_lists(row_terms, directory, scratch[19])
    read = 0
    size = 0
    first_used = used
    for block in block_order:
        touched = False
        n_dense = 0
        for entry in range(len(row_terms)):
            start, end = starts[entry, block], ends[entry, block]
            if dense is not None and chunks[entry, block] <= DENSE:
                dense_bases[n_dense] = DENSE - chunks[entry, block]
                dense_weights[n_dense] = row_weights[entry]
                n_dense += 1
            elif packed is not None and chunks[entry, block] >= 0:
                _add_packed_list(
                    sums,
                    packed,
                    chunks[entry, block],
                    end,
                    row_weights[entry],
                    chunk_ids,
                    chunk_weights,
                )
            elif start >= 0:
                _add_list(sums, ids, data, start, end, row_weights[entry])
            if start >= 0:
                read += end - start
                touched = True
        if not touched:
            continue
        first_doc = block * block_docs
        width = min(block_docs, n_docs - first_doc)
        for chunk in range(0, width, _CHUNK):
            last = min(chunk + _CHUNK, width)
            if dense is not None and packed is not None:  # bit vectors
                _add_bit_rows(sums, dense, dense_bases, dense_weights, n_dense, chunk, last)
            elif dense is not None:
                for r in range(0, n_dense - 1, 2):
                    _add_two_dense(
                        sums,
                        dense,
                        dense_bases[r],
                        dense_bases[r + 1],
                        chunk,
                        last,
                        dense_weights[r],
                        dense_weights[r + 1],
                    )
                if n_dense % 2:
                    r = n_dense - 1
                    _add_dense(sums, dense, dense_bases[r], chunk, last, dense_weights[r])
            reaching = False  # a vectorised test first: most chunks hold no candidate
            for d in range(np.uint64(chunk), np.uint64(last)):
                reaching |= sums[d] * widen >= floor
            if reaching:
                for d in range(chunk, last):
                    score = sums[d]
                    doc = first_doc + d
                    if score <= 0.0 or ranked_out(
                        score * widen, floor, level, tie_floor, tie_keys[doc]
                    ):
                        continue
                    if doc == excluded:
                        continue
                    if used == len(out_docs):
                        sums[:] = 0.0
                        return -1, read  # full: the caller grows the arrays and asks again
                    out_docs[used], out_sums[used] = doc, score
                    used += 1
                    size, floor, level, tie_floor = hand_on(
                        doc, score, shrink, k, tie_keys, heap, size, floor, level, tie_floor
                    )
            sums[chunk:last] = 0.0
    used = still_in(out_docs, out_sums, first_used, used, widen, floor, level, tie_floor, tie_keys)
    return used, read
