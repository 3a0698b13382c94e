"""Where the workflow keeps the files of a (model, dataset) pair: .../{model}/{dataset}/{file}
(results/eval/...), read back from the paths the rules pass in.
"""

from __future__ import annotations

from pathlib import Path

from sparsebench.errors import DataError


def files_by_pair(
    models: list[str], datasets: list[str], files: list[str]
) -> dict[tuple[str, str], str]:
    """(model, dataset) -> file, from paths .../{model}/{dataset}/{file} (a run model may
    cover only some datasets)."""
    pairs = {}
    for path in files:
        parts = Path(path).parts
        model, dataset = parts[-3], parts[-2]
        if model not in models or dataset not in datasets:
            raise DataError(f"{path} does not belong to a configured (model, dataset) pair")
        pairs[(model, dataset)] = path
    return pairs
