"""Compiled pieces shared by the two searches that hand topk.CandidatePool their
candidates from compiled code (sparsebench.retrieve.compiled_search): finding a query's
lists, and the decision, for a document whose float64 sum is known, whether it may
reach the query's top k.

The decision is topk's, made per document: with error factor c, a sum s bounds the exact
score by s (1 -+ 2c); a document whose upper bound is below the row's floor, or that
the tie certificate ranks out, is dropped, and every other one is handed on and its
lower bound joins the k best so far, kept as (float32 lower bound, tie key) pairs. Once
k are kept the smallest pair is the certificate, and its level raises the floor
(exactscores.candidate_floor), so a document that could tie the k-th score is always
handed on unless k others outrank it.
"""

from __future__ import annotations

import numpy as np

from sparsebench.jit import compiled
from sparsebench.retrieve import exactscores

candidate_floor = compiled(exactscores.candidate_floor)


@compiled
def pair_less(level, key, other_level, other_key):
    return level < other_level or (level == other_level and key < other_key)


@compiled
def pair_push(levels, keys, size, level, key):
    """Keep the k largest (level, key) pairs in a min-heap; returns the new size."""
    k = len(levels)
    if size < k:
        at = size
        levels[at], keys[at] = level, key
        while at > 0:
            parent = (at - 1) // 2
            if not pair_less(levels[at], keys[at], levels[parent], keys[parent]):
                break
            levels[parent], levels[at] = levels[at], levels[parent]
            keys[parent], keys[at] = keys[at], keys[parent]
            at = parent
        return size + 1
    if not pair_less(levels[0], keys[0], level, key):
        return size
    levels[0], keys[0] = level, key
    at = 0
    while True:
        left, least = 2 * at + 1, at
        if left < k and pair_less(levels[left], keys[left], levels[least], keys[least]):
            least = left
        right = left + 1
        if right < k and pair_less(levels[right], keys[right], levels[least], keys[least]):
            least = right
        if least == at:
            return size
        levels[least], levels[at] = levels[at], levels[least]
        keys[least], keys[at] = keys[at], keys[least]
        at = least


@compiled
def query_lists(q_terms, block_rows, terms):
    """The row of each of a query's terms in each block (terms x blocks; -1 where the
    block lacks the term): found once, for the first floor and the walk."""
    rows = np.full((len(q_terms), len(block_rows) - 1), -1, dtype=np.int64)
    for block in range(len(block_rows) - 1):
        lo, hi = block_rows[block], block_rows[block + 1]
        for entry in range(len(q_terms)):
            a, b = lo, hi
            while a < b:
                middle = (a + b) // 2
                if terms[middle] < q_terms[entry]:
                    a = middle + 1
                else:
                    b = middle
            if a < hi and terms[a] == q_terms[entry]:
                rows[entry, block] = a
    return rows


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
    of the heap (levels, tie keys) of `size`; once k are kept the smallest is the
    certificate, whose level raises the floor. Returns the new (size, floor, level,
    tie_floor). Inlined where it is called: a compiled call that passes arrays costs
    more than the decision."""
    heap_levels, heap_keys = heap
    size = pair_push(heap_levels, heap_keys, size, np.float32(score * shrink), tie_keys[doc])
    if size == k and pair_less(level, tie_floor, heap_levels[0], heap_keys[0]):
        level, tie_floor = heap_levels[0], heap_keys[0]
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
