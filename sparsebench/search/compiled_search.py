"""Search over the blocked postings in compiled code, for nonnegative weights: MaxScore's
rank-safe dynamic pruning or the exhaustive block scan; either writes the run of the
other, byte for byte, as both hand the same CandidatePool every document that may reach
a row's top k, with its float64 sum.

MaxScore (Turtle and Flood 1995): a score is a sum of products q_t d_t, and with
nonnegative weights q_t times the largest weight of a list (Postings.row_max: a term's
postings in one block of documents) bounds what that list adds to any score. Given a
floor that the k-th score is known to reach, a query's lists in a block whose bounds
sum below the floor are non-essential: a document in none of the other, essential lists
cannot reach the floor and is never looked at. Frequent terms have small bounds, so
their long lists are the ones skipped. Each query is searched a window of documents
at a time, its essential lists added up into the window's sums, and its marked documents
visited in order (sparsebench.search.maxscore_loop).

The block scan (sparsebench.search.blockscan_loop) adds every list of a query's terms
into a dense accumulator of a block's documents and scans it: the whole work of
exhaustive search, without the sparse products' copies (long queries, whose lists
cover most documents, gain nothing from pruning).

The per-document decisions are compiled: in numpy each would cost far more
(benchmarks/RESULTS.md, "Measurements behind the code"). Every bound is inclusive of
rounding (sums are widened by the error factor of sparsebench.search.exactscores), so a
document that could tie the k-th score is never dropped.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from sparsebench.core.arrays import read_only_views
from sparsebench.search.postings import BLOCK_DOCS, Postings
from sparsebench.search.row_directory import DIRECTORY_ARRAYS
from sparsebench.search.topk import CandidatePool

# the terms of a query scored whole for its first floor: those in at most this share of
# the corpus's documents, or _RARE_PER_RESULT per result asked for if more
_RARE_SHARE = 1 / 64
_RARE_PER_RESULT = 8
# MaxScore reads a non-essential list through a window when it holds at most this many
# postings there per document gathered, else it looks each document up in the list:
# what a lookup costs in postings read (benchmarks/RESULTS.md, "MaxScore's non-essential
# lists a list at a time")
READ_THROUGH = 64
_NONE = np.zeros(0, dtype=np.int64)  # no packed rows' first chunks: none is packed


def tie_order(tie_keys: np.ndarray, block_docs: int) -> np.ndarray:
    """The blocks, those holding the largest tie keys first. The walk ranks out a
    document that ties the k-th score with a smaller key than k others, so ties are
    best met largest keys first: corpora whose ids ascend in byte order with their
    position (d00000001, d00000002, ...) give the last block the largest keys, and
    walked first it certifies the ties that the other blocks hold."""
    starts = np.arange(0, len(tie_keys), block_docs)
    return (
        np.argsort(-np.maximum.reduceat(tie_keys, starts), kind="stable") if len(starts) else starts
    )


def import_loops() -> None:
    """Import the compiled searches' modules (numba's dispatchers): a stage
    that calls this at its start-up keeps the imports, which hold the GIL that its
    search threads need, out of its retrieval time."""
    from sparsebench.search import rows_loop  # noqa: F401


def search(
    batch: sp.csr_matrix,
    postings: Postings,
    pool: CandidatePool,
    excluded: np.ndarray | None,
    block_order: np.ndarray,
    pruned: bool,
) -> int:
    """Add to the pool every document that may reach its query row's top k, with its
    float64 sum (batch: weights as exactscores.query_operand makes them, nonnegative),
    by MaxScore if `pruned`, else by the block scan; a row's `excluded` document (-1 for
    none) is never added; the blocks are searched in `block_order` (tie_order). Returns
    the number of postings read."""
    # compiled (or loaded from numba's cache) on first use
    from sparsebench.search.rows_loop import search_rows

    n_rows = batch.shape[0]
    directory = postings.directory
    packed, dense = postings.packed, postings.dense
    if excluded is None:
        excluded = np.full(n_rows, -1, dtype=np.int64)
    counts, docs, sums, read = search_rows(
        None if pruned else np.zeros(BLOCK_DOCS),
        batch.indptr.astype(np.int64),
        batch.indices.astype(np.int64),
        np.asarray(batch.data, dtype=np.float64),
        np.asarray(pool.factors, dtype=np.float64),
        np.asarray(pool.floors, dtype=np.float64),
        np.asarray(excluded, dtype=np.int64),
        pool.k,
        max(_RARE_PER_RESULT * pool.k, int(postings.shape[1] * _RARE_SHARE)),
        READ_THROUGH,
        *read_only_views(postings.ids, postings.data),
        (
            *read_only_views(
                *(np.asarray(getattr(directory, name)) for name in DIRECTORY_ARRAYS),
                postings.row_max,
            ),
            directory.words,
            *read_only_views(
                _NONE if packed is None else packed.row_chunks,
                _NONE if dense is None else dense.positions,
            ),
        ),
        None if packed is None else tuple(read_only_views(*packed.arrays())),
        None if dense is None else read_only_views(dense.values)[0],
        BLOCK_DOCS,
        np.asarray(pool.tie_keys, dtype=np.int64),
        np.asarray(pool.levels, dtype=np.float64),
        np.asarray(pool.tie_floors, dtype=np.int64),
        np.asarray(block_order, dtype=np.int64),
    )
    pool.add_chosen(counts, docs, sums)
    return int(read)
