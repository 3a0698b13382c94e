"""sparsebench: reproducible evaluation of sparse retrieval models on IR benchmarks.

The package mirrors the workflow (workflow/rules/*.smk): data/, encode/, retrieve/,
tune/, evaluate/, report/ and partitions/ each hold the `stages` their rule file runs and
the code behind them; workflow/ holds the config, provenance and code digests around
them. docs/ARCHITECTURE.md maps each rule to its script and its module.
"""

from sparsebench import _moved
from sparsebench.evaluate.metrics import (
    evaluate_retrieval,
    evaluate_retrieval_per_query,
    evaluate_run,
)

_moved.install()

__all__ = ["evaluate_retrieval", "evaluate_retrieval_per_query", "evaluate_run"]
