"""Exact top-k retrieval on the CPU over the postings, a block of documents at a time
(sparsebench.search.postings).

Per block of 65,536 documents each query's sums touch only the lists of its terms there,
their accumulators stay in the CPU's cache, and they are float64 sums of exact products
for the block's documents only. Nonnegative weights are searched in compiled code
(sparsebench.search.compiled_search: MaxScore pruning or the exhaustive block scan);
weights of both signs by sparse products of a query batch with the block's lists
(sparsebench.search.products). The top k over the blocks are gathered as they come
(sparsebench.search.topk), their float32 scores settled so that no summation order
changes them (sparsebench.search.exactscores).

Only documents that share a term with the query and score nonzero are retrieved.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.core.threads import ordered_map
from sparsebench.search import compiled_search
from sparsebench.search.docids import document_tie_keys, own_documents
from sparsebench.search.exactscores import absolute, exact_pair_sums, operands
from sparsebench.search.postings import BLOCK_DOCS, Postings
from sparsebench.search.postings_build import as_postings
from sparsebench.search.products import BYTES_PER_POSTING, Lists, batch_rows, block_product
from sparsebench.search.topk import CandidatePool, RetrievedBatch

log = logging.getLogger(__name__)


STRATEGIES = ("auto", "exhaustive", "maxscore")
_PRUNED_QUERY_TERMS = 16  # auto: MaxScore for queries of at most this many terms on average
_PRUNED_MAX_SHARE = 0.03  # and k at most this share of the documents (deeper, floors too low)
_PRUNED_MIN_TIGHTNESS = 0.5  # and bounds this close to what postings add (Postings.bound_tightness)
# The most queries of a batch on the CPU, whatever query_batch_size allows (a GPU's batch):
# the products' sums stay in the cache (faster than larger batches: benchmarks/RESULTS.md,
# "Measurements behind the code"), and the retrieve stage writes a batch's lines while
# the next ones are searched (it waits for the last batch only).
_CPU_BATCH_QUERIES = 32


def check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        known = ", ".join(STRATEGIES)
        raise ConfigError(f"unknown retrieval strategy {strategy!r}; known: {known}")


def chosen_strategy(
    strategy: str,
    queries: sp.csr_matrix,
    signed: bool,
    k: int,
    n_docs: int,
    tightness: Callable[[], float] = lambda: 1.0,
) -> str:
    """The strategy that searches: MaxScore needs nonnegative weights (a list's largest
    weight bounds what it adds only then); "auto" takes it for short queries, a k that
    is a small share of the corpus and bounds close to what the postings add
    (`tightness`, called only then: Postings.bound_tightness), where it skips frequent
    terms' long lists.
    It searches exhaustively long queries (learned sparse ones, which touch most lists
    of a block anyway), runs deep for their corpus (k=1000 of SciFact's 5,183
    documents) and learned weights, whose long tails leave loose bounds that pass most
    documents on to lookups even for short queries (inference-free SPLADE's)
    (benchmarks/RESULTS.md, "MaxScore pruning")."""
    check_strategy(strategy)
    if signed:
        if strategy == "maxscore":
            log.info(
                "weights of both signs: MaxScore has no bounds for them, searching exhaustively"
            )
        return "exhaustive"
    if strategy == "auto":
        mean_terms = queries.nnz / max(queries.shape[0], 1)
        short = mean_terms <= _PRUNED_QUERY_TERMS and _shallow(k, n_docs)
        return "maxscore" if short and tightness() >= _PRUNED_MIN_TIGHTNESS else "exhaustive"
    return strategy


def scanned(signed: bool, k: int, n_docs: int) -> bool:
    """Whether exhaustive search is compiled_search's block scan rather than sparse
    products. The scan needs nonnegative weights, and pays for k up to the share of the
    corpus that MaxScore takes: deeper (k = 1000 of SciFact's 5,183 documents), most
    matches are candidates, and their selection one at a time (a heap) costs more than
    the products' partitions; at k = 150, 3% of it, the scan is still faster than the
    products (benchmarks/RESULTS.md, "Measurements behind the code")."""
    return not signed and _shallow(k, n_docs)


def compiled_loops_possible(k: int, n_docs: int) -> bool:
    """Whether a search to depth k may run compiled loops (MaxScore or the block scan),
    for a stage to import them before it starts (compiled_search.import_loops)."""
    return _shallow(k, n_docs)


def _shallow(k: int, n_docs: int) -> bool:
    """k is a small share of the corpus: the depth at which the compiled searches pay."""
    return k <= _PRUNED_MAX_SHARE * n_docs


def check_inputs(
    queries: sp.csr_matrix,
    document_shape: tuple[int, int],
    query_term_weights: np.ndarray,
    doc_ids: Sequence[str],
    query_ids: Sequence[str],
) -> int:
    """Refuse matrices and id lists that do not belong together; return the document count."""
    n_docs, vocab = document_shape
    if queries.shape[1] != vocab or len(query_term_weights) != vocab:
        raise DataError(
            f"vocabulary sizes differ: queries {queries.shape[1]}, documents {vocab}, "
            f"IDF {len(query_term_weights)}; were they encoded by the same model?"
        )
    if len(doc_ids) != n_docs or len(query_ids) != queries.shape[0]:
        raise DataError("id lists do not match the matrices they label")
    return n_docs


def retrieve(
    queries: sp.csr_matrix,
    postings: Postings | sp.csr_matrix,
    query_term_weights: np.ndarray,
    k: int,
    doc_ids: Sequence[str],
    query_ids: Sequence[str],
    query_batch_size: int = 256,
    max_block_mb: float = 1024,
    ignore_identical_ids: bool = False,
    threads: int = 1,
    device: str = "cpu",
    strategy: str = "auto",
) -> Iterator[tuple[int, RetrievedBatch]]:
    """Yield (first query index, results) for consecutive batches of queries, in order.

    queries: (Q x V) query weights; postings: (V x N) document weights, term-major (rows
    are posting lists; sparsebench.search.postings); query_term_weights: (V,) multiplied
    into the query weights (the IDF). With threads > 1 batches are scored in parallel
    (the compiled searches, sparse products and partitions release the GIL). `device`:
    the CPU only (the torch backend takes the same arguments for a CUDA device).
    `strategy`: every posting of the queries' terms ("exhaustive") or MaxScore pruning
    ("maxscore", sparsebench.search.compiled_search), the same results either way;
    "auto" chooses by query length and k's share of the corpus (see chosen_strategy).
    """
    if device not in ("auto", "cpu"):
        raise ConfigError(f"the scipy backend runs on the CPU, not {device!r}")
    inverted = as_postings(postings)
    n_docs = check_inputs(queries, inverted.shape[::-1], query_term_weights, doc_ids, query_ids)
    summed = operands(queries, inverted, query_term_weights)
    weighted, factors = summed.queries, summed.factors
    tie_keys = document_tie_keys(inverted.tie_keys, doc_ids)
    excluded = None
    if ignore_identical_ids:
        excluded = own_documents(doc_ids, query_ids)
    # each of the threads' batches: half for the touched postings, half for the sums
    budget = max_block_mb * 2**20 / max(threads, 1) / 2
    rows_per_batch = batch_rows(
        min(n_docs, BLOCK_DOCS), min(query_batch_size, _CPU_BATCH_QUERIES), budget
    )
    chosen = chosen_strategy(
        strategy, weighted, summed.signed, k, n_docs, lambda: inverted.bound_tightness
    )
    pruned = chosen == "maxscore"
    in_compiled = pruned or scanned(summed.signed, k, n_docs)
    block_order = compiled_search.tie_order(tie_keys, BLOCK_DOCS) if in_compiled else None
    how_exhaustive = "block scan" if in_compiled else "sparse products"
    widened: list[Lists | None] = [None] * inverted.n_blocks
    if not in_compiled and inverted.nnz * BYTES_PER_POSTING <= budget:  # widened whole: once
        for block in range(inverted.n_blocks):
            lists = inverted.block_lists(block)
            widened[block] = lists, absolute(lists) if summed.signed else None
    log.info(
        "retrieving top %d for %d queries over %d documents in %d blocks (%s), %d queries "
        "per batch, %d threads",
        k,
        queries.shape[0],
        n_docs,
        inverted.n_blocks,
        "MaxScore pruning" if pruned else f"exhaustive, {how_exhaustive}",
        rows_per_batch,
        threads,
    )

    def run(start: int) -> tuple[int, RetrievedBatch]:
        stop = min(start + rows_per_batch, queries.shape[0])
        batch = weighted[start:stop]
        pool = CandidatePool(k, factors[start:stop], summed.signed, tie_keys)
        magnitudes = absolute(batch) if summed.signed else None
        skipped = None if excluded is None else excluded[start:stop]
        if in_compiled:
            compiled_search.search(batch, inverted, pool, skipped, block_order, pruned)
        else:
            for block in range(inverted.n_blocks):
                products = block_product(batch, inverted, block, budget, widened[block], magnitudes)
                if products is not None:
                    pool.add(products[0], block * BLOCK_DOCS, products[1], skipped)

        def exact(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
            return exact_pair_sums(batch, inverted, rows, cols, term_major=True)

        return start, pool.top_k(tie_keys, exact)

    # bounded: at most threads + 1 batches in memory
    yield from ordered_map(run, range(0, queries.shape[0], rows_per_batch), threads)
