"""The retrieval stage on torch, for CUDA: the same exact top-k as the scipy backend.

The corpus lives on the device as a sparse CSR matrix; a batch of queries is a dense
(vocabulary x batch) block; scores come chunk by chunk of documents (a chunk's dense
scores bounded by the memory budget) from torch.sparse.mm. Pass one merges each chunk's
torch.topk into every query's exact k-th score; pass two keeps the matches at or above
it, ties included, and the final order (score, then document id) is made on the CPU as
in the scipy backend. Runs on the CPU too, so tests check it against the scipy backend.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence

import numpy as np
import scipy.sparse as sp

from sparsebench.retrieval import RetrievedBatch, check_inputs, rank_candidates, tie_break_keys

log = logging.getLogger(__name__)


def _to_torch_csr(matrix: sp.csr_matrix, device):
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "sparse CSR support is in beta"
        return torch.sparse_csr_tensor(
            torch.from_numpy(matrix.indptr.astype(np.int64)),
            torch.from_numpy(matrix.indices.astype(np.int64)),
            torch.from_numpy(matrix.data.astype(np.float32)),
            size=matrix.shape,
            device=device,
        )


def _chunk_scores(matrix, block, start: int, skip):
    """Scores (chunk documents x batch queries); a query's own id, if excluded, scores 0."""
    import torch

    scores = torch.sparse.mm(matrix, block)
    if skip is not None:
        local = skip - start
        inside = (local >= 0) & (local < scores.shape[0])
        columns = torch.nonzero(inside).flatten()
        scores[local[columns], columns] = 0.0
    return scores


def retrieve_torch(
    queries: sp.csr_matrix,
    documents: sp.csr_matrix,
    query_term_weights: np.ndarray,
    k: int,
    doc_ids: Sequence[str],
    query_ids: Sequence[str],
    query_batch_size: int = 256,
    max_block_mb: float = 1024,
    ignore_identical_ids: bool = False,
    device: str = "auto",
) -> Iterator[tuple[int, RetrievedBatch]]:
    """Yield (first query index, results) per batch, as sparsebench.retrieval.retrieve."""
    import pandas as pd
    import torch

    from sparsebench.splade import select_device

    target = select_device(device)
    n_docs = check_inputs(queries, documents.shape, query_term_weights, doc_ids, query_ids)
    weighted = sp.csr_matrix(queries.multiply(query_term_weights[None, :].astype(np.float32)))
    tie_keys = tie_break_keys(doc_ids)
    excluded = pd.Index(doc_ids).get_indexer(list(query_ids)) if ignore_identical_ids else None
    batch = max(1, min(query_batch_size, queries.shape[0]))
    chunk = max(1, min(n_docs, int(max_block_mb * 2**20 // (batch * 4 * 3))))
    corpus_chunks = [
        (start, _to_torch_csr(documents[start : start + chunk], target))
        for start in range(0, n_docs, chunk)
    ]
    log.info(
        "torch retrieval on %s: %d queries per batch, %d documents per chunk", target, batch, chunk
    )
    with torch.inference_mode():
        for first in range(0, queries.shape[0], batch):
            last = min(first + batch, queries.shape[0])
            block = torch.from_numpy(weighted[first:last].T.toarray()).to(target)  # V x b
            skip = None
            if excluded is not None:
                skip = torch.from_numpy(excluded[first:last].astype(np.int64)).to(target)

            # pass one: each query's exact k-th score over all chunks
            best = None
            for start, matrix in corpus_chunks:
                scores = _chunk_scores(matrix, block, start, skip)
                top = torch.topk(scores, min(k, scores.shape[0]), dim=0).values
                best = (
                    top
                    if best is None
                    else torch.topk(
                        torch.cat([best, top]), min(k, best.shape[0] + top.shape[0]), dim=0
                    ).values
                )
            kth = best[-1] if best.shape[0] == k else torch.full_like(best[0], -float("inf"))
            # pass two: every match at or above it
            rows, cols, values = [], [], []
            for start, matrix in corpus_chunks:
                scores = _chunk_scores(matrix, block, start, skip)
                doc, query = torch.nonzero((scores >= kth) & (scores != 0), as_tuple=True)
                rows.append(query.cpu().numpy())
                cols.append(doc.cpu().numpy() + start)
                values.append(scores[doc, query].cpu().numpy())
            yield (
                first,
                rank_candidates(
                    np.concatenate(rows),
                    np.concatenate(cols),
                    np.concatenate(values),
                    last - first,
                    k,
                    tie_keys,
                ),
            )
