"""The retrieval stages (rules in workflow/rules/retrieve.smk): a TREC run per (model,
dataset), searched here or imported from elsewhere.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.sparse as sp

from sparsebench.encode.accelerators import cuda_available
from sparsebench.errors import DataError
from sparsebench.fileio import atomic_path, load_csr, read_lines
from sparsebench.progress import progress
from sparsebench.retrieve.runfile import read_run, write_retrieved
from sparsebench.retrieve.scipy_backend import retrieve

log = logging.getLogger(__name__)


def import_run(
    run_path: str | Path, corpus: str | Path, queries: str | Path, out_run: str | Path
) -> None:
    """Check an external TREC run against the dataset and put it where the workflow's own
    runs go: every document and query id must occur in the dataset."""
    run = read_run(run_path)
    checks = (
        ("doc_id", corpus, "doc_id", "documents"),
        ("query_id", queries, "query_id", "queries"),
    )
    for column, table, key, what in checks:
        known = pq.read_table(table, columns=[key]).column(key)
        ids = pa.array(run[column].unique().astype(object), type=pa.string())
        unknown = ids.filter(pc.invert(pc.is_in(ids, value_set=known))).to_pylist()
        if unknown:
            raise DataError(
                f"{run_path}: {len(unknown)} {what} ids do not occur in the dataset (e.g. "
                f"{', '.join(map(repr, unknown[:5]))}); is it a run of another collection?"
            )
    with atomic_path(out_run) as tmp:
        tmp.write_bytes(Path(run_path).read_bytes())
    log.info("imported %s: %d lines, %d queries", run_path, len(run), run["query_id"].nunique())


def _backend_name(backend: str, device: str) -> str:
    """'auto' is torch when a CUDA device is there (and not refused), else scipy."""
    if backend != "auto":
        return backend
    if device == "cpu":
        return "scipy"
    return "torch" if cuda_available() else "scipy"


def _retrieval_backend(backend: str, device: str):
    """The retrieval function for `backend` (auto: torch on CUDA when present)."""
    if _backend_name(backend, device) == "torch":
        from sparsebench.retrieve.torch_backend import retrieve_torch

        def run(*args, threads: int = 1, **kwargs):
            return retrieve_torch(*args, **kwargs)

        return run

    def run_scipy(*args, device: str = "auto", **kwargs):
        return retrieve(*args, **kwargs)

    return run_scipy


def retrieve_run(
    weights: str | Path,
    idf_path: str | Path,
    queries_npz: str | Path,
    query_ids_path: str | Path,
    doc_ids_path: str | Path,
    out_run: str | Path,
    k: int,
    tag: str,
    ignore_identical_ids: bool = False,
    query_batch_size: int = 256,
    max_block_mb: float = 1024,
    threads: int = 1,
    backend: str = "auto",
    device: str = "auto",
) -> None:
    """Write the TREC run of every encoded query, queries in id order. The backend
    (scipy on CPU threads, or torch on a CUDA device) changes speed, not results.
    `weights` is the document-major matrix, or its term-major copy (postings.npz: one
    copy of the corpus in memory, no transposition) for the scipy backend."""
    matrix = load_csr(weights)  # postings.npz is already the float64 retrieval sums in
    term_major = Path(weights).name.startswith("postings")
    if term_major and _backend_name(backend, device) == "torch":
        matrix, term_major = sp.csr_matrix(matrix.T), False
    vocab_size = matrix.shape[0] if term_major else matrix.shape[1]
    if not Path(idf_path).exists():
        raise DataError(f"missing IDF file {idf_path}: run the term_weights stage first")
    term_idf = np.load(idf_path)
    if term_idf.shape != (vocab_size,) or not np.all(np.isfinite(term_idf)):
        raise DataError(
            f"{idf_path}: IDF of shape {term_idf.shape} does not fit a vocabulary of "
            f"{vocab_size} terms (or holds non-finite values)"
        )
    query_ids = np.array(read_lines(query_ids_path), dtype=object)
    queries = load_csr(queries_npz)
    order = np.argsort(query_ids, kind="stable")
    query_ids, queries = query_ids[order], queries[order]
    doc_ids = np.array(read_lines(doc_ids_path), dtype=object)
    n_lines = 0
    with (
        atomic_path(out_run) as tmp,
        open(tmp, "w", encoding="utf-8", newline="\n") as handle,
        progress(len(query_ids), "retrieving", unit="query") as bar,
    ):
        for start, batch in _retrieval_backend(backend, device)(
            queries,
            None if term_major else matrix,
            term_idf,
            k,
            doc_ids,
            query_ids,
            query_batch_size=query_batch_size,
            max_block_mb=max_block_mb,
            ignore_identical_ids=ignore_identical_ids,
            threads=threads,
            device=device,
            **({"postings": matrix} if term_major else {}),
        ):
            n_lines += write_retrieved(handle, start, batch, query_ids, doc_ids, tag)
            bar.update(batch.n_queries)
    log.info("wrote %d run lines for %d queries to %s", n_lines, len(query_ids), out_run)
