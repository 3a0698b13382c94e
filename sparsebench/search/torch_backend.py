"""The retrieval stage on torch, for CUDA: the same exact top-k as the scipy backend.

The corpus lives on the device as a sparse CSR matrix; a batch of queries is a dense
(vocabulary x batch) block; float64 sums of exact products come chunk by chunk of
documents (a chunk's dense sums bounded by the memory budget) from torch.sparse.mm, in
whatever order the device's kernel adds them. Pass one merges each chunk's torch.topk
into every query's k-th largest lower bound of the exact scores; pass two keeps the
matches whose upper bound reaches it, ties and near-ties included; on the CPU their
float32 scores are settled as in the scipy backend (sparsebench.search.exactscores) and put in
the final order (score, then document id). The run is byte for byte the scipy
backend's. Runs on the CPU too, so tests check it against the scipy backend.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence

import numpy as np
import scipy.sparse as sp

from sparsebench.core.devices import select_device
from sparsebench.search.docids import document_tie_keys, own_documents
from sparsebench.search.exactscores import (
    absolute,
    candidate_floor,
    exact_pair_sums,
    operands,
    settle,
)
from sparsebench.search.postings import Postings
from sparsebench.search.postings_build import as_postings
from sparsebench.search.scipy_backend import check_inputs, check_strategy
from sparsebench.search.topk import RetrievedBatch, rank_candidates

log = logging.getLogger(__name__)


def _to_torch_csr(matrix: sp.csr_matrix, device):
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "sparse CSR support is in beta"
        return torch.sparse_csr_tensor(
            torch.from_numpy(matrix.indptr.astype(np.int64)),
            torch.from_numpy(matrix.indices.astype(np.int64)),
            torch.from_numpy(matrix.data.astype(np.float64)),
            size=matrix.shape,
            device=device,
        )


def _chunk_bounds(chunk, block, factors, start: int, skip):
    """Float64 sums (chunk documents x batch queries), their error widths, and which
    entries are matches: documents sharing a nonzero product with the query, except a
    query's own id when it is excluded."""
    import torch

    matrix, magnitudes = chunk
    sums = torch.sparse.mm(matrix, block[0])
    bases = sums if magnitudes is None else torch.sparse.mm(magnitudes, block[1])
    matches = bases != 0
    if skip is not None:
        local = skip - start
        inside = (local >= 0) & (local < sums.shape[0])
        columns = torch.nonzero(inside).flatten()
        matches[local[columns], columns] = False
    return sums, bases * factors, matches


def retrieve_torch(
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
    device: str = "auto",
    strategy: str = "auto",
) -> Iterator[tuple[int, RetrievedBatch]]:
    """Yield (first query index, results) per batch, as scipy_backend.retrieve does, with
    the same arguments (`threads`: the device's own parallelism is used instead;
    `strategy`: the device searches every posting, whatever the CPU's strategy)."""
    import torch

    target = select_device(device)
    # document-major, chunked by documents on the device
    inverted = as_postings(postings)
    documents = inverted.documents(widen=False)
    check_strategy(strategy)
    n_docs = check_inputs(queries, documents.shape, query_term_weights, doc_ids, query_ids)
    summed = operands(queries, documents, query_term_weights)
    weighted, documents, factors, signed = (
        summed.queries,
        summed.corpus,
        summed.factors,
        summed.signed,
    )
    tie_keys = document_tie_keys(inverted.tie_keys, doc_ids)
    excluded = own_documents(doc_ids, query_ids) if ignore_identical_ids else None
    vocabulary = max(documents.shape[1], 1)
    block_fit = int(max_block_mb * 2**20 // (vocabulary * 8 * (2 if signed else 1)))
    batch = max(1, min(query_batch_size, queries.shape[0], block_fit))
    chunk = max(1, min(n_docs, int(max_block_mb * 2**20 // (batch * 8 * 6))))
    corpus_chunks = [
        (
            start,
            (
                _to_torch_csr(documents[start : start + chunk], target),
                _to_torch_csr(absolute(documents[start : start + chunk]), target)
                if signed
                else None,
            ),
        )
        for start in range(0, n_docs, chunk)
    ]
    log.info(
        "torch retrieval on %s: %d queries per batch, %d documents per chunk", target, batch, chunk
    )
    with torch.inference_mode():
        for first in range(0, queries.shape[0], batch):
            last = min(first + batch, queries.shape[0])
            rows_csr = weighted[first:last]
            dense = rows_csr.T.toarray()  # V x b
            block = (
                torch.from_numpy(dense).to(target),
                torch.from_numpy(np.abs(dense)).to(target) if signed else None,
            )
            row_factors = torch.from_numpy(factors[first:last]).to(target)[None, :]
            skip = None
            if excluded is not None:
                skip = torch.from_numpy(excluded[first:last].astype(np.int64)).to(target)

            # pass one: each query's k-th largest lower bound of the exact scores
            best = None
            for start, matrix in corpus_chunks:
                sums, widths, matches = _chunk_bounds(matrix, block, row_factors, start, skip)
                lower = torch.where(matches, sums - widths, -torch.inf)
                top = torch.topk(lower, min(k, lower.shape[0]), dim=0).values
                merged = top if best is None else torch.cat([best, top])
                best = torch.topk(merged, min(k, merged.shape[0]), dim=0).values
            kth = best[-1] if best.shape[0] == k else torch.full_like(best[0], -torch.inf)
            floor = candidate_floor(kth)
            # pass two: every match whose upper bound reaches it
            rows, cols, values, spans = [], [], [], []
            for start, matrix in corpus_chunks:
                sums, widths, matches = _chunk_bounds(matrix, block, row_factors, start, skip)
                doc, query = torch.nonzero(matches & (sums + widths >= floor), as_tuple=True)
                rows.append(query.cpu().numpy())
                cols.append(doc.cpu().numpy() + start)
                values.append(sums[doc, query].cpu().numpy())
                spans.append(widths[doc, query].cpu().numpy())
            rows_all, cols_all = np.concatenate(rows), np.concatenate(cols)

            def exact(pair_rows: np.ndarray, pair_cols: np.ndarray, part=rows_csr) -> np.ndarray:
                return exact_pair_sums(part, documents, pair_rows, pair_cols, term_major=False)

            scores = settle(
                np.concatenate(values), np.concatenate(spans), rows_all, cols_all, exact
            )
            nonzero = scores != 0
            yield (
                first,
                rank_candidates(
                    rows_all[nonzero],
                    cols_all[nonzero],
                    scores[nonzero],
                    last - first,
                    k,
                    tie_keys,
                ),
            )
