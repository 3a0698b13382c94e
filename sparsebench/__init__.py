"""sparsebench: reproducible evaluation of sparse retrieval models on IR benchmarks."""

from sparsebench.evaluate.metrics import (
    evaluate_retrieval,
    evaluate_retrieval_per_query,
    evaluate_run,
)

__all__ = ["evaluate_retrieval", "evaluate_retrieval_per_query", "evaluate_run"]
