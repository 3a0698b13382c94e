"""How a search runs, never what it finds: the speed settings of the search engine, one
frozen object built once (by a retrieval job from the config's `retrieval` section and
its threads, by a caller of the Python API as it likes) and passed whole through the
retrieval stage (sparsebench.retrieve.stages.retrieve_run), the pair runner and the API.

Every backend, strategy, batch size, block budget and thread count writes the same run
(tests/search/test_order_independence.py), so none of these is a rerun trigger.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LATENCY_QUERIES = 100  # queries timed one at a time, unless the config says otherwise


@dataclass(frozen=True)
class SearchSettings:
    """The speed settings of one search (the config's `retrieval` section, its k and
    partitions aside, and the job's threads)."""

    query_batch_size: int = 256  # queries per batch (a GPU's; the CPU's are of 32 at most)
    max_block_mb: float = 1024  # bound on a batch's widened postings and sums, in MiB
    threads: int = 1  # CPU threads searching batches at once
    backend: str = "auto"  # scipy (CPU), torch (a CUDA device), or auto: torch on CUDA
    device: str = "auto"  # auto, cpu or cuda[:N]
    strategy: str = "auto"  # the CPU's: exhaustive, maxscore, or auto (by the queries)
    latency_queries: int = LATENCY_QUERIES  # searched again one at a time, for latency

    @classmethod
    def from_config(cls, retrieval: Mapping[str, Any], threads: int = 1) -> SearchSettings:
        """The settings of a validated config's `retrieval` section, on `threads`."""
        return cls(
            query_batch_size=retrieval["query_batch_size"],
            max_block_mb=retrieval["max_block_mb"],
            threads=threads,
            backend=retrieval["backend"],
            device=retrieval["device"],
            strategy=retrieval["strategy"],
            latency_queries=retrieval["latency_queries"],
        )

    def engine_options(self) -> dict[str, Any]:
        """The keyword arguments every backend's search takes for them
        (sparsebench.search.scipy_backend.retrieve, torch_backend.retrieve_torch)."""
        return {
            "query_batch_size": self.query_batch_size,
            "max_block_mb": self.max_block_mb,
            "threads": self.threads,
            "device": self.device,
            "strategy": self.strategy,
        }
