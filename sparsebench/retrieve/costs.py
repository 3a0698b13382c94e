"""What a retrieval costs, measured where it runs: the index it searches, the non-zeros of
documents and queries, FLOPS, the postings each query touches, and the stage's own
timings (loading, batched retrieval, writing, and single-query latency on a sample).

FLOPS as the SPLADE papers define it (Paria et al., ICLR 2020; Formal et al., SIGIR
2021): the expected number of multiplications of a query-document dot product,
sum_j p_q(j) p_d(j), where p_q(j) (p_d(j)) is the share of the queries (documents) in
which term j is non-zero. Over the evaluated queries Q and the corpus D that is
sum_q sum_d |q & d| / (|Q| |D|) = the mean number of postings a query's terms hold,
divided by |D|: FLOPS follows from the postings touched per query.

A cost record (results/costs/{model}/{dataset}.json) keeps what partitions add up:
the histogram of the documents' non-zeros, per-query non-zeros, postings touched and
latencies, and the seconds, so that merge_runs combines its partitions' records exactly
(`combined`); `summary` turns a record into the row of results/efficiency.tsv.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from sparsebench.core.devices import cpu_name
from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_json, write_json
from sparsebench.core.threads import ReadAhead
from sparsebench.search.exactscores import query_operand
from sparsebench.search.postings import Postings

SCHEMA = "sparsebench-retrieval-cost-1"
# the single-query timing stops, after LATENCY_MINIMUM queries, once it has taken this share
# of the batched search's time or LATENCY_FLOOR_SECONDS, whichever is longer
LATENCY_SHARE = 0.1
LATENCY_FLOOR_SECONDS = 1.0
LATENCY_MINIMUM = 10


def nonzeros_histogram(postings: Postings) -> dict[int, int]:
    """How many documents have each number of non-zero weights, block by block (memory
    bounded by a block, not the corpus)."""
    counts = np.zeros(1, dtype=np.int64)
    for block in range(postings.n_blocks):
        _, ids, _ = postings.block_postings(block)
        here = np.bincount(np.bincount(ids, minlength=postings.block_width(block)))
        counts = np.pad(counts, (0, max(0, len(here) - len(counts))))
        counts[: len(here)] += here
    return {int(v): int(counts[v]) for v in np.flatnonzero(counts)}


def index_record(postings: Postings, path: str | Path) -> dict[str, Any]:
    """The index part of a cost record: its size and its documents' non-zeros."""
    histogram = nonzeros_histogram(postings)
    return {
        "documents": int(postings.shape[1]),
        "terms": int(postings.shape[0]),
        "postings": int(postings.nnz),
        "index_bytes": Path(path).stat().st_size,
        "document_nonzeros": {str(k): v for k, v in sorted(histogram.items())},
    }


def query_record(
    queries: sp.csr_matrix, term_weights: np.ndarray, frequencies: np.ndarray
) -> dict[str, Any]:
    """The query part of a cost record: each query's non-zero weights (after the term
    weights, as retrieval multiplies them) and the postings its terms hold."""
    weighted = query_operand(queries, term_weights)
    pattern = sp.csr_matrix(
        (np.ones(weighted.nnz), weighted.indices, weighted.indptr), shape=weighted.shape
    )
    touched = pattern @ frequencies.astype(np.float64)  # exact: integers below 2**53
    return {
        "queries": int(weighted.shape[0]),
        "query_nonzeros": np.diff(weighted.indptr).tolist(),
        "postings_touched": touched.astype(np.int64).tolist(),
    }


def latency_sample(n_queries: int, size: int) -> np.ndarray:
    """The queries timed one at a time: `size` of them spread evenly over the id order
    (all when there are fewer), the same in every partition, in a fixed shuffled order so
    that a timing cut short still covers the whole id range."""
    if size <= 0 or n_queries == 0:
        return np.zeros(0, dtype=np.int64)
    spread = np.unique(np.linspace(0, n_queries - 1, min(size, n_queries)).round())
    return np.random.default_rng(0).permutation(spread.astype(np.int64))


def latency_budget(retrieval_seconds: float) -> float:
    """Seconds the single-query timing may take: a share of the batched search's time,
    so that on a large corpus the sample never costs the stage much more than that."""
    return max(LATENCY_SHARE * retrieval_seconds, LATENCY_FLOOR_SECONDS)


def single_query_latencies(
    search: Callable[[np.ndarray], Iterator[Any]],
    rows: np.ndarray,
    budget_seconds: float = float("inf"),
) -> np.ndarray:
    """Milliseconds per query, each searched alone (`search` of query rows yields once
    per row), in the order of `rows`: the first row is searched once more before the
    clock starts, so that no timing holds the search's set-up. The timing stops once
    the timed searches add up to `budget_seconds` and LATENCY_MINIMUM queries are timed."""
    if len(rows) == 0:
        return np.zeros(0)
    for _ in search(rows[:1]):
        pass
    searches = search(rows)
    out: list[float] = []
    spent = 0.0
    while spent < budget_seconds or len(out) < LATENCY_MINIMUM:
        start = time.perf_counter()
        if next(searches, None) is None:
            break
        seconds = time.perf_counter() - start
        out.append(seconds * 1e3)
        spent += seconds
    return np.array(out)


class StageTimer:
    """The retrieval stage's own clock: seconds spent loading, searching and writing.
    The search runs in a thread of its own while the stage writes the lines of earlier
    batches, so its seconds are the time spent making batches, and the writing's those
    that the stage took beyond them (next to nothing when the lines are written while
    the search goes on)."""

    def __init__(self) -> None:
        self.seconds = {"startup": 0.0, "load": 0.0, "retrieval": 0.0, "write": 0.0}
        self._mark = time.perf_counter()

    def lap(self, what: str) -> None:
        """Charge the time since the last lap to `what`."""
        now = time.perf_counter()
        self.seconds[what] += now - self._mark
        self._mark = now

    @contextmanager
    def alongside(
        self, made: str, items: Iterable[Any], rest: str, depth: int
    ) -> Iterator[Iterator[Any]]:
        """The items of an iterator, made in a thread of their own from the moment the
        block is entered, up to `depth` ahead, while the caller prepares and then uses
        earlier ones (threads.ReadAhead): the time spent making them is charged to
        `made`, the rest of the time since the last lap until the block ends to `rest`."""
        before = self.seconds[made]
        with ReadAhead(self._making(made, items), depth) as ahead:
            yield iter(ahead)
        now = time.perf_counter()
        making = self.seconds[made] - before
        self.seconds[rest] += max(now - self._mark - making, 0.0)
        self._mark = now

    def _making(self, what: str, items: Iterable[Any]) -> Iterator[Any]:
        """The items, the time spent in making each (not the time it is held) charged
        to `what`."""
        made = iter(items)
        while True:
            start = time.perf_counter()
            item = next(made, _END)
            self.seconds[what] += time.perf_counter() - start
            if item is _END:
                return
            yield item


_END = object()


def cost_record(
    postings: Postings,
    postings_path: str | Path,
    queries: sp.csr_matrix,
    term_weights: np.ndarray,
    latency_ms: Iterable[float],
    seconds: dict[str, float],
    machine: dict[str, Any],
) -> dict[str, Any]:
    """The cost record of one search (per-query lists in the order of `queries`)."""
    return {
        "schema": SCHEMA,
        **index_record(postings, postings_path),
        **query_record(queries, term_weights, postings.document_frequencies()),
        "latency_ms": [float(t) for t in latency_ms],
        "seconds": dict(seconds),
        **machine,
    }


def write_cost(path: str | Path, record: dict[str, Any]) -> None:
    write_json(path, record)


def read_cost(path: str | Path) -> dict[str, Any]:
    record = read_json(path)
    if record.get("schema") != SCHEMA:
        raise DataError(f"{path}: not a retrieval cost record of this version ({SCHEMA})")
    return record


def machine_record(threads: int, backend: str, device: str, batch_size: int) -> dict[str, Any]:
    """Where and how the retrieval ran."""
    return {
        "cpu": cpu_name(),
        "cpu_count": os.cpu_count(),
        "threads": threads,
        "backend": backend,
        "device": device,
        "query_batch_size": batch_size,
    }


def combined(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The record of a search split over partitions (the same queries, each partition's
    documents): sizes and seconds add up, a query's postings touched and latency add up
    over the partitions (searched one after another), its non-zeros are the same."""
    if not records:
        raise DataError("no partition cost records to combine")
    first = records[0]
    if any(r["queries"] != first["queries"] for r in records):
        raise DataError("partition cost records of different query sets")
    out = dict(first)
    for key in ("documents", "postings", "index_bytes"):
        out[key] = sum(r[key] for r in records)
    histogram: dict[str, int] = {}
    for r in records:
        for value, count in r["document_nonzeros"].items():
            histogram[value] = histogram.get(value, 0) + count
    out["document_nonzeros"] = dict(sorted(histogram.items(), key=lambda kv: int(kv[0])))
    out["postings_touched"] = np.sum([r["postings_touched"] for r in records], axis=0).tolist()
    # the partitions timed the same queries in the same order, each as many as its budget
    # allowed: the queries all of them timed
    timed = min(len(r["latency_ms"]) for r in records)
    out["latency_ms"] = np.sum([r["latency_ms"][:timed] for r in records], axis=0).tolist()
    out["seconds"] = {what: sum(r["seconds"][what] for r in records) for what in first["seconds"]}
    out["partitions"] = len(records)
    return out


def combine_files(paths: list[str | Path], out: str | Path) -> None:
    """The cost record of a search split over partitions, from theirs."""
    write_cost(out, combined([read_cost(p) for p in paths]))


def histogram_median(histogram: dict[str, int]) -> float:
    """The median of the values a histogram counts (the mean of the two middle ones for
    an even count, as numpy's median)."""
    values = np.array([int(v) for v in histogram], dtype=np.int64)
    counts = np.array(list(histogram.values()), dtype=np.int64)
    order = np.argsort(values)
    values, ends = values[order], np.cumsum(counts[order])
    total = int(ends[-1]) if len(ends) else 0
    if total == 0:
        return float("nan")
    low = values[np.searchsorted(ends, (total - 1) // 2, side="right")]
    high = values[np.searchsorted(ends, total // 2, side="right")]
    return (float(low) + float(high)) / 2


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """A cost record as one row of results/efficiency.tsv."""
    histogram = record["document_nonzeros"]
    n_docs = record["documents"]
    doc_total = sum(int(v) * c for v, c in histogram.items())
    touched = np.array(record["postings_touched"], dtype=np.float64)
    nonzeros = np.array(record["query_nonzeros"], dtype=np.float64)
    latency = np.array(record["latency_ms"], dtype=np.float64)
    seconds = record["seconds"]
    n_queries = record["queries"]

    def stat(values: np.ndarray, how: Callable[[np.ndarray], Any]) -> float:
        return float(how(values)) if len(values) else float("nan")

    return {
        "documents": n_docs,
        "postings": record["postings"],
        "index_mb": record["index_bytes"] / 2**20,
        "doc_nonzeros_mean": doc_total / n_docs if n_docs else float("nan"),
        "doc_nonzeros_median": histogram_median(histogram),
        "queries": n_queries,
        "query_nonzeros_mean": stat(nonzeros, np.mean),
        "query_nonzeros_median": stat(nonzeros, np.median),
        "flops": stat(touched, np.mean) / n_docs if n_docs else float("nan"),
        "postings_touched_mean": stat(touched, np.mean),
        "postings_touched_p50": stat(touched, lambda v: np.percentile(v, 50)),
        "postings_touched_p99": stat(touched, lambda v: np.percentile(v, 99)),
        "queries_per_second": n_queries / seconds["retrieval"]
        if seconds["retrieval"]
        else float("nan"),
        "latency_mean_ms": stat(latency, np.mean),
        "latency_p50_ms": stat(latency, lambda v: np.percentile(v, 50)),
        "latency_p99_ms": stat(latency, lambda v: np.percentile(v, 99)),
        "latency_queries": len(latency),
        "startup_seconds": seconds["startup"],
        "load_seconds": seconds["load"],
        "retrieval_seconds": seconds["retrieval"],
        "write_seconds": seconds["write"],
        "threads": record["threads"],
        "query_batch_size": record["query_batch_size"],
        "backend": record["backend"],
        "device": record["device"],
        "cpu": record["cpu"],
        "partitions": record.get("partitions", 1),
    }
