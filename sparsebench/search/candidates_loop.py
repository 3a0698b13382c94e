"""Compiled pieces shared by the two searches that hand topk.CandidatePool their
candidates from compiled code (sparsebench.search.compiled_search): finding a query's
lists, and the decision, for a document whose float64 sum is known, whether it may
reach the query's top k.

The decision is topk's, made per document: with error factor c, a sum s bounds the exact
score by s (1 -+ 2c); a document whose upper bound is below the row's floor, or that
the tie certificate ranks out, is dropped, and every other one is handed on and its
lower bound joins the k best so far, kept as (float32 lower bound, tie key) pairs
(packed in one uint64 each, so that keeping them compares one number a step). Once k
are kept the smallest pair is the certificate, and its level raises the floor
(exactscores.candidate_floor), so a document that could tie the k-th score is always
handed on unless k others outrank it.
"""

from __future__ import annotations

import numpy as np

from sparsebench.core import arrays
from sparsebench.core.jit import compiled
from sparsebench.search import exactscores
from sparsebench.search.row_directory import GROUP_RECORD, LONG, ROW_GROUP

candidate_floor = compiled(exactscores.candidate_floor)
_bits_set = compiled(inline=True)(arrays.bits_set)


@compiled
def pair_less(level, key, other_level, other_key):
    return level < other_level or (level == other_level and key < other_key)


_SIGN = np.uint32(0x80000000)
DENSE = -2  # query_lists's chunk of a dense list: this less its place (DenseRows.positions)


@compiled(inline=True)
def packed_pair(level, key, cell, cell_bits):
    """A (float32 level, tie key) pair as one uint64 that orders as the pairs do: the
    level's bits made ascending (sign flipped, or all bits if negative, as
    arrays.descending_score_keys orders scores the other way) above the key
    (tie keys fit 32 bits). cell, cell_bits: a float32 array of one and its uint32 view,
    the way to a float's bits here."""
    cell[0] = level
    bits = cell_bits[0]
    ordered = ~bits if bits & _SIGN else bits | _SIGN
    return (np.uint64(ordered) << np.uint64(32)) | np.uint64(key)


@compiled(inline=True)
def unpacked_pair(packed, cell, cell_bits):
    """(level as float64, tie key) of a packed_pair."""
    ordered = np.uint32(packed >> np.uint64(32))
    cell_bits[0] = ordered ^ _SIGN if ordered & _SIGN else ~ordered
    return np.float64(cell[0]), np.int64(packed & np.uint64(0xFFFFFFFF))


@compiled
def push_largest(heap, size, value):
    """Keep the k largest values in a min-heap of k (the first floor's products, the
    packed pairs), the hole moved rather than swapped; returns the new size. The heap
    is 4-ary: half the levels of a binary one, and the least of four children found by
    comparisons without branches (faster than a binary heap, each of whose levels is a
    branch that goes either way: benchmarks/RESULTS.md, "Measurements behind the code")."""
    k = len(heap)
    if size < k:
        at = size
        while at > 0:
            parent = (at - 1) >> 2
            if heap[parent] <= value:
                break
            heap[at] = heap[parent]
            at = parent
        heap[at] = value
        return size + 1
    if value <= heap[0]:
        return size
    at = 0
    while True:
        child = 4 * at + 1
        if child + 3 < k:
            first, second = heap[child], heap[child + 1]
            third, fourth = heap[child + 2], heap[child + 3]
            low = child if first <= second else child + 1
            high = child + 2 if third <= fourth else child + 3
            least_low, least_high = min(first, second), min(third, fourth)
            least = min(least_low, least_high)
            child = low if least_low <= least_high else high
        elif child < k:  # the last, partial family
            least = heap[child]
            for other in range(child + 1, k):
                if heap[other] < least:
                    child, least = other, heap[other]
        else:
            break
        if least >= value:
            break
        heap[at] = least
        at = child
    heap[at] = value
    return size


_NIBBLES_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)
_NIBBLE_ONES = np.uint64(0x1111111111111111)
_BYTE_ONES = np.uint64(0x0101010101010101)


@compiled(inline=True)
def _codes_below(word, count):
    """The sum of a code word's first `count` codes (0-16), and how many are LONG."""
    if count < 16:
        word &= (np.uint64(1) << np.uint64(4 * count)) - np.uint64(1)
    pairs = (word & _NIBBLES_LOW) + ((word >> np.uint64(4)) & _NIBBLES_LOW)
    total = np.int64((pairs * _BYTE_ONES) >> np.uint64(56))
    long = word & (word >> np.uint64(1)) & (word >> np.uint64(2)) & (word >> np.uint64(3))
    return total, np.int64(_bits_set(long & _NIBBLE_ONES))  # a bit a code whose 4 are set


@compiled(inline=True)
def query_lists(q_terms, directory, lists):
    """Each of a query's terms' list in each block (terms x blocks): its first posting,
    past its last (-1 both where the block lacks the term), its largest weight (0
    there) and its first chunk if it is packed (sparsebench.search.packed_rows), DENSE
    less its position in the dense vectors if it is dense (sparsebench.search.
    dense_rows), -1 if neither (a packed or dense list's postings are then counted from
    0), found once, for the first floor and the walk, as RowDirectory finds them
    (sparsebench.search.row_directory). directory: its arrays (DIRECTORY_ARRAYS'
    order), then the rows' largest weights, the words of a block's bitmap and the
    packed rows' first chunks (PackedRows.row_chunks; empty if none is packed) and the
    LONG rows' positions in the dense vectors (DenseRows.positions: -1 where a row is
    not dense; empty if none is). A row's start adds up the codes before it in its
    group's record a word at a time (nibbles summed in place), then, for each LONG code
    among them, its long length beyond LONG (or, for a LONG row kept apart, packed or
    dense, takes back what its code added). Written into `lists` (four arrays of at
    least as many rows as terms and a column a block: the searches allocate nothing),
    whose first rows are returned."""
    block_rows, term_words, word_rows, groups, long_lengths, row_max, words = directory[:7]
    row_chunks, dense_at = directory[7:9]
    packed = len(row_chunks) > 0
    dense = len(dense_at) > 0
    n_blocks = len(block_rows) - 1
    n_terms = len(q_terms)
    starts, ends = lists[0][:n_terms], lists[1][:n_terms]
    maxima, chunks = lists[2][:n_terms], lists[3][:n_terms]
    starts[:] = -1
    ends[:] = -1
    maxima[:] = 0.0
    chunks[:] = -1
    for block in range(n_blocks):
        for entry in range(len(q_terms)):
            term = q_terms[entry]
            at = block * words + (term >> 6)
            word = term_words[at]
            bit = np.uint64(term & 63)
            if (word >> bit) & np.uint64(1) == 0:
                continue
            below = np.int64(_bits_set(word & ((np.uint64(1) << bit) - np.uint64(1))))
            row = block_rows[block] + np.int64(word_rows[at]) + below
            group = row // ROW_GROUP
            place = row - group * ROW_GROUP
            record = group * GROUP_RECORD  # first posting, long rows before, two code words
            low, high = groups[record + 2], groups[record + 3]
            total, long = _codes_below(low, min(place, 16))
            more, more_long = _codes_below(high, max(place - 16, 0))
            total += more + place  # each code is its length less one
            long += more_long
            first_long = np.int64(groups[record + 1])
            if packed:  # the LONG rows before it hold no postings here
                total -= long * (LONG + 1)
            else:
                for at_long in range(first_long, first_long + long):
                    if dense and dense_at[at_long] >= 0:
                        total -= LONG + 1
                    else:
                        total += np.int64(long_lengths[at_long]) - LONG
            code = ((high if place >= 16 else low) >> np.uint64(4 * (place & 15))) & 15
            size = np.int64(code) + 1
            starts[entry, block] = np.int64(groups[record]) + total
            if code == LONG:
                rank = first_long + long
                size = np.int64(long_lengths[rank]) + 1
                if dense and dense_at[rank] >= 0:
                    starts[entry, block] = 0
                    chunks[entry, block] = DENSE - dense_at[rank]
                elif packed:
                    starts[entry, block] = 0
                    chunks[entry, block] = row_chunks[rank]
            ends[entry, block] = starts[entry, block] + size
            maxima[entry, block] = np.float64(row_max[row])
    return starts, ends, maxima, chunks


@compiled
def grown(array, used):
    bigger = np.empty(max(2 * len(array), 16), dtype=array.dtype)
    bigger[:used] = array[:used]
    return bigger


@compiled(inline=True)
def ranked_out(upper, floor, level, tie_floor, tie_key):
    """Whether a document whose exact score is at most `upper` (its sum widened) and
    whose tie key is `tie_key` cannot reach the row's top k: below the floor, or ranked
    out by the tie certificate (level, tie_floor)."""
    return upper < floor or (np.float32(upper) <= level and tie_key < tie_floor)


@compiled(inline=True)
def hand_on(doc, score, shrink, k, tie_keys, heap, size, floor, level, tie_floor):
    """Keep a handed-on document's lower bound (its sum shrunk) among the k best pairs
    of the heap (packed pairs, and packed_pair's float cell) of `size`; once k are kept
    the smallest is the certificate, whose level raises the floor. Returns the new
    (size, floor, level, tie_floor). Inlined where it is called: a compiled call that
    passes arrays costs more than the decision."""
    pairs, cell, cell_bits = heap
    packed = packed_pair(np.float32(score * shrink), tie_keys[doc], cell, cell_bits)
    size = push_largest(pairs, size, packed)
    if size == k:
        least_level, least_key = unpacked_pair(pairs[0], cell, cell_bits)
        if pair_less(level, tie_floor, least_level, least_key):
            level, tie_floor = least_level, least_key
            floor = max(floor, candidate_floor(level))
    return size, floor, level, tie_floor


@compiled
def still_in(out_docs, out_sums, start, end, widen, floor, level, tie_floor, tie_keys):
    """A row's candidates out_*[start:end], in order, cut to those that its final floor
    and tie certificate leave in: those handed on before they rose may be ranked out
    now, as topk.CandidatePool would rank them out (a tenth of the candidates at k = 10
    on 1M BM25-like documents, a quarter at k = 1000). Returns the new end."""
    at = start
    for j in range(start, end):
        doc, score = out_docs[j], out_sums[j]
        if not ranked_out(score * widen, floor, level, tie_floor, tie_keys[doc]):
            out_docs[at], out_sums[at] = doc, score
            at += 1
    return at
