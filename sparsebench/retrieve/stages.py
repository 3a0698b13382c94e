"""The retrieval stage (rules retrieve and retrieve_partition in
workflow/rules/retrieve.smk and partitions.smk): a TREC run per (model, dataset), searched.
Runs made from other runs (imported, fused) are sparsebench.runs.stages's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from sparsebench.core.csrfiles import load_csr
from sparsebench.core.devices import cuda_available, select_device
from sparsebench.core.errors import ConfigError, DataError
from sparsebench.core.fileio import atomic_path, read_line_array, read_lines
from sparsebench.core.progress import progress
from sparsebench.feedback.expansion import Feedback
from sparsebench.retrieve import costs
from sparsebench.runs.runfile import RunLines, compiled_writer_needed
from sparsebench.search import compiled_search
from sparsebench.search.postings import load_postings
from sparsebench.search.scipy_backend import compiled_loops_possible, retrieve
from sparsebench.search.settings import SearchSettings
from sparsebench.search.topk import RetrievedBatch

log = logging.getLogger(__name__)

_READ_AHEAD = 4  # batches searched ahead of the one being written


def backend_name(backend: str, device: str) -> str:
    """'auto' is torch when a CUDA device is there (and not refused), else scipy."""
    if backend != "auto":
        return backend
    if device == "cpu":
        return "scipy"
    return "torch" if cuda_available() else "scipy"


def resolved_device(backend: str, device: str) -> str:
    """The device a backend searched on: the CPU for scipy, torch's choice for torch."""
    if backend == "scipy":
        return "cpu"
    return str(select_device(device))


def backend(name: str) -> Callable[..., Iterator[tuple[int, RetrievedBatch]]]:
    """The retrieval function of a backend; both take the same arguments
    (sparsebench.search.scipy_backend.retrieve)."""
    if name == "torch":
        from sparsebench.search.torch_backend import retrieve_torch

        return retrieve_torch
    if name == "scipy":
        return retrieve
    raise ConfigError(f"unknown retrieval backend {name!r}; known: scipy, torch")


def load_compiled_code(
    backend: str, k: int, feedback: Feedback | None, n_queries: int, n_docs: int
) -> None:
    """Load the compiled code the search will run, before it starts: the searches'
    modules when a search to depth k (or feedback's first) may run them, and numba's
    runtime (started by loading the compiled line writer) for them or for a run longer
    than numpy writes (runs.runfile). A small run loads neither, and its job never
    imports numba (benchmarks/RESULTS.md, "A job's start-up"); a large one charges the
    loading to the stage's start-up, not to its first lines or batch."""
    depths = [k] if feedback is None else [k, feedback.first_depth()]
    loops = backend == "scipy" and any(compiled_loops_possible(d, n_docs) for d in depths)
    if loops or compiled_writer_needed(n_queries * min(k, n_docs)):
        from sparsebench.runs.text import load_compiled

        load_compiled()
    if loops:
        compiled_search.import_loops()


def retrieve_run(
    postings_path: str | Path,
    idf_path: str | Path,
    queries_npz: str | Path,
    query_ids_path: str | Path,
    doc_ids_path: str | Path,
    out_run: str | Path,
    k: int,
    tag: str,
    ignore_identical_ids: bool = False,
    search: SearchSettings | None = None,
    out_cost: str | Path | None = None,
    feedback: Feedback | None = None,
) -> None:
    """Write the TREC run of every encoded query over the postings (term_weights'
    postings.npz), queries in id order, and (to `out_cost`) what the search cost
    (sparsebench.retrieve.costs). `search` (default: SearchSettings()) says how the search
    runs: the backend (scipy on CPU threads, or torch on a CUDA device), the CPU strategy
    (exhaustive or MaxScore), the batch settings and the latency sample; they change
    speed, not results. `feedback`: the queries are first expanded from their first
    retrieval's top documents (sparsebench.feedback), then searched."""
    search = search or SearchSettings()
    timer = costs.StageTimer()
    if not Path(idf_path).exists():
        raise DataError(f"missing IDF file {idf_path}: run the term_weights stage first")
    postings = load_postings(postings_path)
    term_idf = np.load(idf_path)
    if term_idf.shape != (postings.shape[0],) or not np.all(np.isfinite(term_idf)):
        raise DataError(
            f"{idf_path}: IDF of shape {term_idf.shape} does not fit a vocabulary of "
            f"{postings.shape[0]} terms (or holds non-finite values)"
        )
    query_ids = np.array(read_lines(query_ids_path), dtype=object)
    queries = load_csr(queries_npz)
    order = np.argsort(query_ids, kind="stable")
    query_ids, queries = query_ids[order], queries[order]
    doc_ids = read_line_array(doc_ids_path)
    name = backend_name(search.backend, search.device)
    engine = backend(name)
    timer.lap("load")
    load_compiled_code(name, k, feedback, len(query_ids), len(doc_ids))
    timer.lap("startup")

    if feedback is not None:  # the first retrieval keeps self-hits, as Anserini's
        first = queries
        queries = feedback.expanded(
            first,
            order,
            doc_ids,
            lambda depth: engine(
                first, postings, term_idf, depth, doc_ids, query_ids, **search.engine_options()
            ),
        )

    def searched(rows: np.ndarray | slice, how: SearchSettings):
        return engine(
            queries[rows],
            postings,
            term_idf,
            k,
            doc_ids,
            query_ids[rows],
            ignore_identical_ids=ignore_identical_ids,
            **how.engine_options(),
        )

    timer.lap("load")
    n_lines = 0
    batches = searched(slice(None), search)
    # the search starts at once; the lines' ids, the file and the progress bar are made
    # while it searches the first batch, and lines are written while it makes the next
    with timer.alongside("retrieval", batches, "write", _READ_AHEAD) as made:
        lines = RunLines(query_ids, doc_ids, tag)
        with (
            atomic_path(out_run) as tmp,
            open(tmp, "wb") as handle,
            progress(len(query_ids), "retrieving", unit="query") as bar,
        ):
            for start, batch in made:
                handle.writelines(lines.retrieved_chunks(start, batch))
                n_lines += len(batch.ranks)
                bar.update(batch.n_queries)
    timer.lap("write")
    seconds = timer.seconds
    log.info(
        "wrote %d run lines for %d queries to %s; compiled code loaded in %.2f s, loading "
        "%.2f s, retrieval %.2f s (%.1f queries/s, %d threads), writing %.2f s beyond the "
        "retrieval's",
        n_lines,
        len(query_ids),
        out_run,
        seconds["startup"],
        seconds["load"],
        seconds["retrieval"],
        len(query_ids) / max(seconds["retrieval"], 1e-9),
        search.threads,
        seconds["write"],
    )
    if out_cost is None:
        return
    rows = costs.latency_sample(len(query_ids), search.latency_queries)
    one_at_a_time = replace(search, query_batch_size=1, threads=1)
    latencies = costs.single_query_latencies(
        lambda r: searched(r, one_at_a_time), rows, costs.latency_budget(seconds["retrieval"])
    )
    log.info(
        "single-query latency over %d queries: median %.2f ms",
        len(latencies),
        np.median(latencies) if len(latencies) else float("nan"),
    )
    device = resolved_device(name, search.device)
    machine = costs.machine_record(search.threads, name, device, search.query_batch_size)
    record = costs.cost_record(
        postings, postings_path, queries, term_idf, latencies, seconds, machine
    )
    costs.write_cost(out_cost, record)
