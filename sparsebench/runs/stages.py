"""The stages whose runs come from other runs, not from a search (rules import_run and
fuse in workflow/rules/retrieve.smk): an external run checked against the dataset, and a
fusion of models' runs (sparsebench.runs.fusion).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path
from sparsebench.runs.fusion.fuse import fuse
from sparsebench.runs.fusion.settings import Fusion
from sparsebench.runs.runfile import format_run_lines, read_run

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


def fuse_runs(
    runs: Mapping[str, str | Path], fusion: Fusion, k: int, tag: str, out_run: str | Path
) -> None:
    """A `kind: fusion` model's run of a dataset: its members' runs (model -> run file)
    fused as `fusion` says, the top k of each query, scores written in full (float64)."""
    fused = fuse({name: read_run(path) for name, path in runs.items()}, fusion, k)
    lines = format_run_lines(
        fused["query_id"].to_numpy(),
        fused["doc_id"].to_numpy(),
        fused["rank"].to_numpy(),
        fused["score"].to_numpy(),
        tag,
        digits=17,
    )
    with atomic_path(out_run) as tmp:
        Path(tmp).write_bytes(lines)
    log.info(
        "fused %s by %s (norm %s): %d lines, %d queries",
        ", ".join(fusion.runs),
        fusion.method,
        fusion.norm,
        len(fused),
        fused["query_id"].nunique(),
    )
