"""The compiled pass over a batch's query rows (numba): each row searched by MaxScore's
walk (maxscore_loop.walk_row) or the exhaustive block scan (blockscan_loop.scan_row),
its candidates appended to shared arrays that grow between rows (a row that fills them
is searched again), so that no array is reassigned inside a row's loops. The rows'
searches are compiled without reference counts and allocate nothing: their scratch
arrays are made here, once a batch, and lent to them borrowed
(sparsebench.core.borrowed), so that what they call counts no reference either.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from sparsebench.core.borrowed import borrowed
from sparsebench.core.jit import compiled
from sparsebench.search.blockscan_loop import scan_row
from sparsebench.search.candidates_loop import grown
from sparsebench.search.maxscore_loop import WINDOW, walk_row
from sparsebench.search.packed_rows import CHUNK


@compiled
def search_rows(
    sums,
    q_indptr,
    q_terms,
    q_weights,
    factors,
    floors,
    excluded,
    k,
    rare,
    read_through,
    ids,
    data,
    directory,
    packed,
    dense,
    block_docs,
    tie_keys,
    levels,
    tie_floors,
    block_order,
):
    """Candidates of each query row: (row counts, global document ids, float64 sums,
    postings read), rows in order, each row's documents ascending within a block and
    its blocks in `block_order`.

    sums: None for MaxScore's walk, else the block scan's accumulator (zero, a block's
    documents long). Its type chooses the search when the function is compiled: each
    search is a function of its own, laid out for its loops alone (compiled as one
    function with a switch, the block scan ran slower: benchmarks/RESULTS.md,
    "Measurements behind the code"). q_*: the rows' terms and weights (a CSR batch,
    weights as exactscores.query_operand makes them, nonnegative); factors: each row's
    error factor; floors: each row's floor so far, levels and tie_floors its tie
    certificate (as topk.CandidatePool keeps them; tie_keys: every document's tie key);
    excluded: a document per row never returned (-1: none); rare: the most documents a
    term may have to be scored whole for MaxScore's first floor; read_through: how many
    postings of a non-essential list in a window MaxScore reads through per gathered
    document, rather than look each up (compiled_search.READ_THROUGH); block_order: the
    order in which the blocks are searched (their largest tie keys first: see
    compiled_search.tie_order); ids, data: Postings's; directory: the arrays by which
    candidates_loop.query_lists finds lists; packed: the packed rows' arrays
    (packed_rows.PackedRows.arrays()), or None if no row is packed; dense: the dense
    rows' vectors (dense_rows.DenseRows.values), or None if no row is dense (their
    types, too, choose what is compiled: maxscore_loop.walk_row)."""
    n_rows = len(q_indptr) - 1
    counts = np.zeros(n_rows, dtype=np.int64)
    out_docs = np.empty(1024, dtype=np.int64)
    out_sums = np.empty(1024, dtype=np.float64)
    used = 0
    read = 0
    most = 0
    for row in range(n_rows):
        most = max(most, q_indptr[row + 1] - q_indptr[row])
    cell = np.empty(1, dtype=np.float32)
    n_blocks = len(directory[0]) - 1
    scratch = (
        np.empty(most, dtype=np.int64),  # each list's cursor
        np.empty(most, dtype=np.int64),  # and end
        np.empty(most, dtype=np.float64),  # its query weight
        np.empty(most, dtype=np.float64),  # its bound
        np.empty(most, dtype=np.float64),  # sums of the bounds up to each list
        np.empty(k, dtype=np.float64),  # the first floor's heap
        np.empty(k, dtype=np.uint64),  # the heap of the k best, packed pairs
        cell,  # a float32 and its bits (candidates_loop.packed_pair)
        cell.view(np.uint32),
        sums,
        np.zeros(WINDOW, dtype=np.float64),  # MaxScore's window: its sums
        np.zeros(WINDOW // 64, dtype=np.uint64),  # and which of its documents they hold
        np.empty(WINDOW, dtype=np.int64),  # the window's documents that may reach the floor
        np.empty(WINDOW, dtype=np.float64),  # and their sums
        np.zeros(WINDOW, dtype=np.uint16),  # and their positions + 1, at their documents
        np.empty(most, dtype=np.int64),  # each list's first chunk if it is packed
        np.empty(most, dtype=np.int64),  # and the chunk unpacked in its slot
        np.empty(most * CHUNK, dtype=np.uint16),  # the slots: a chunk's ids
        np.empty(most * CHUNK, dtype=data.dtype),  # and its weights
        (  # each term's list in each block (candidates_loop.query_lists)
            np.empty((most, n_blocks), dtype=np.int64),  # its first posting
            np.empty((most, n_blocks), dtype=np.int64),  # past its last
            np.empty((most, n_blocks), dtype=np.float64),  # its largest weight
            np.empty((most, n_blocks), dtype=np.int64),  # its first chunk
        ),
        np.empty(most, dtype=np.int64),  # each term's documents
        np.empty(most, dtype=np.float64),  # the most it adds to a score
        np.empty(most, dtype=np.bool_),  # whether it is scored whole for a first floor
    )
    postings = (ids, data, block_docs, directory, len(tie_keys))
    search = (k, rare, read_through, postings, tie_keys, block_order)
    row = 0
    while row < n_rows:
        first, last = q_indptr[row], q_indptr[row + 1]
        row_state = (
            q_terms[first:last],
            q_weights[first:last],
            factors[row],
            floors[row],
            levels[row],
            tie_floors[row],
            excluded[row],
        )
        # borrowed: the counted functions the searches call (push_largest at every
        # push, still_in) count no reference to them
        arguments = borrowed((row_state, search, scratch, out_docs, out_sums, used))
        written, row_read = _search_row(sums, arguments, borrowed(packed), borrowed(dense))
        if written < 0:  # grow the arrays and search the row again
            out_docs, out_sums = grown(out_docs, used), grown(out_sums, used)
            continue
        counts[row] = written - used
        used = written
        read += row_read
        row += 1
    return counts, out_docs[:used], out_sums[:used], read


def _search_row(sums, arguments, packed, dense):
    """MaxScore's walk of a row (sums None) or the block scan's: the search that sums'
    type names, chosen when search_rows is compiled (_search_row_by_type)."""


@overload(_search_row, inline="always")
def _search_row_by_type(sums, arguments, packed, dense):
    """Only the search that sums' type names is compiled: a branch on `sums is None`
    would compile both, as numba prunes such a branch only where the value is None (the
    block scan's search_rows compiled MaxScore's walk too, whole, never to call it:
    benchmarks/RESULTS.md, "`sparsebench compile` in half the time")."""
    if isinstance(sums, types.NoneType):
        return lambda sums, arguments, packed, dense: walk_row(*arguments, packed, dense)
    return lambda sums, arguments, packed, dense: scan_row(*arguments, packed, dense)
