"""What the figures show, read from the workflow's result files."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_json
from sparsebench.evaluate.comparisons import read_per_query
from sparsebench.evaluate.measures import RECALL_LEVELS, recall_level_name
from sparsebench.evaluate.significance import align


def precision_recall(metrics_files: Mapping[str, str | Path]) -> pd.DataFrame:
    """Interpolated precision at the 11 standard recall levels (rows) of each model
    (columns, in the order given), from the models' metrics.json on one dataset."""
    names = [recall_level_name(level) for level in RECALL_LEVELS]
    columns = {}
    for model, path in metrics_files.items():
        means = read_json(path)
        missing = [n for n in names if n not in means]
        if missing:
            raise DataError(
                f"{path} has no {', '.join(missing)}: a precision-recall curve needs "
                "IPrec@0.0 ... IPrec@1.0, which evaluate writes with the default metrics"
            )
        columns[model] = [float(means[n]) for n in names]
    if not columns:
        raise DataError("no model to draw a precision-recall curve of")
    return pd.DataFrame(columns, index=pd.Index(RECALL_LEVELS, name="recall"))


def query_differences(model: pd.Series, baseline: pd.Series, what: str) -> pd.Series:
    """model - baseline on each query, largest gain first (equal differences in query id
    order); the two must cover the same queries."""
    a, b = align(model, baseline, what)  # aligned on the sorted query ids
    ids = baseline.index.sort_values()
    differences = a - b
    order = np.lexsort((np.arange(len(differences)), -differences))
    return pd.Series(differences[order], index=ids[order], name="difference")


def read_query_differences(
    model_file: str | Path, baseline_file: str | Path, metric: str, what: str
) -> pd.Series:
    """query_differences of one metric, from two per_query.tsv files."""
    model = read_per_query(model_file, [metric])[metric]
    baseline = read_per_query(baseline_file, [metric])[metric]
    return query_differences(model, baseline, what)


def comparison_row(
    table: pd.DataFrame, model: str, baseline: str, dataset: str, metric: str, test: str
) -> pd.Series | None:
    """The significance table's row of one comparison by one test, if it was made."""
    rows = table[
        (table["model"] == model)
        & (table["baseline"] == baseline)
        & (table["dataset"] == dataset)
        & (table["metric"] == metric)
        & (table["test"] == test)
    ]
    return rows.iloc[0] if len(rows) else None
