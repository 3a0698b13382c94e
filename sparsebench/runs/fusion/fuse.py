"""Run fusion: one ranking per query from several runs of the same queries.

Each input run is put in trec_eval's order (score as a 32-bit float, descending, then
document id descending: the order its evaluation sees), cut to its top `depth`, and its
lines turned into values by the fusion method (sparsebench.runs.fusion.registry lists
them, one module each with its formula and source), from their ranks or from their
scores normalised per query (sparsebench.runs.fusion.norms); the
method then combines the values a document got from the runs that retrieved it into its
fused score (definitions as in ranx's fuse, which the tests hold them to). A query that
some runs lack is fused from the runs that hold it (ranx refuses runs of different
queries); a run that lists a document twice for a query is refused, as trec_eval
refuses it.

A document's values are combined in ascending order, not in the order of the runs: the
same values give the same fused score to the last bit whatever order the config lists
the runs in, so documents whose values are the same (RRF of ranks 1, 2 and 7 in three
runs, in any arrangement) tie exactly, and their tie falls by document id. The fused run
keeps the top k of each query by fused score (float64, written in full) descending, then
document id descending: trec_eval's order wherever the scores differ as 32-bit floats,
which is how trec_eval reads them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.arrays import group_ranks
from sparsebench.core.errors import DataError
from sparsebench.runs.fusion.registry import method_of
from sparsebench.runs.fusion.settings import Fusion


def _ranks(queries: pa.Array, scores: np.ndarray, docs: pa.Array) -> tuple[np.ndarray, ...]:
    """(order, rank, lines of the query) of lines sorted by query, `scores` descending
    and document id descending; rank and lines per sorted line."""
    order = pc.sort_indices(
        pa.table({"q": queries, "s": scores, "d": docs}),
        sort_keys=[("q", "ascending"), ("s", "descending"), ("d", "descending")],
    ).to_numpy()
    encoded = pc.dictionary_encode(queries.take(order))  # codes ascend with the queries
    codes = encoded.indices.to_numpy().astype(np.int64)
    n_queries = len(encoded.dictionary)
    return order, group_ranks(codes, n_queries), np.bincount(codes, minlength=n_queries)[codes]


def _ordered(run: pd.DataFrame, float32: bool, limit: int | None) -> pd.DataFrame:
    """A run (query_id, doc_id, score) by query, score descending (compared as 32-bit
    floats if `float32`) and document id descending, each query cut to `limit` lines,
    with the 1-based rank of each line and the number of lines its query keeps."""
    queries = pa.array(run["query_id"].astype(object), pa.string())
    docs = pa.array(run["doc_id"].astype(object), pa.string())
    scores = np.asarray(run["score"], dtype=np.float64)
    order, rank, lines = _ranks(queries, scores.astype(np.float32) if float32 else scores, docs)
    keep = rank <= (limit if limit is not None else np.inf)
    return pd.DataFrame(
        {
            "query_id": queries.take(order).to_numpy(zero_copy_only=False)[keep],
            "doc_id": docs.take(order).to_numpy(zero_copy_only=False)[keep],
            "score": scores[order][keep],
            "rank": rank[keep],
            "count": np.minimum(lines, limit if limit is not None else lines)[keep],
        }
    )


def trec_order(run: pd.DataFrame, depth: int | None = None) -> pd.DataFrame:
    """A run in trec_eval's order (scores as 32-bit floats), each query cut to its top
    `depth`, with ranks and the number of lines each query keeps (see _ordered)."""
    return _ordered(run, float32=True, limit=depth)


def fuse(runs: Mapping[str, pd.DataFrame], fusion: Fusion, k: int) -> pd.DataFrame:
    """The fused run (query_id, doc_id, score, rank) of `runs` (name -> run), the top k
    of each query in trec_eval's order."""
    missing = [name for name in fusion.runs if name not in runs]
    if missing:
        raise DataError(f"fusion: no run of {missing}")
    method = method_of(fusion.method)
    parts = []
    for name in fusion.runs:
        _refuse_repeats(name, runs[name])
        ranked = trec_order(runs[name], fusion.depth)
        value = method.values(ranked, fusion.norm, fusion.weight(name), fusion.k)
        _refuse_non_finite(name, ranked, value, fusion)
        parts.append(
            pd.DataFrame(
                {"query_id": ranked["query_id"], "doc_id": ranked["doc_id"], "value": value}
            )
        )
    lines = pd.concat(parts, ignore_index=True)
    pairs = lines.groupby(["query_id", "doc_id"], sort=False).ngroup().to_numpy()
    lines = lines.iloc[np.lexsort((lines["value"].to_numpy(), pairs))]  # ascending values
    grouped = lines.groupby(["query_id", "doc_id"], sort=False)["value"]
    fused = method.combine(grouped).reset_index(name="score")
    return top_k(fused, k)


def _refuse_repeats(name: str, run: pd.DataFrame) -> None:
    """Refuse a run that lists a document twice for a query: its lines would be fused
    twice, and trec_eval refuses such a run."""
    repeated = run.duplicated(["query_id", "doc_id"])
    if repeated.any():
        query, doc = run[["query_id", "doc_id"]].iloc[repeated.to_numpy().nonzero()[0][0]]
        raise DataError(
            f"fusion: the run of {name!r} lists document {doc!r} more than once for query "
            f"{query!r} ({int(repeated.sum())} repeated lines); trec_eval refuses such a run"
        )


def _refuse_non_finite(name: str, ranked: pd.DataFrame, value: np.ndarray, fusion: Fusion) -> None:
    """Refuse values that are not numbers (a normalisation overflowing on scores near
    float64's limit): pandas' sums would take a NaN for a missing value, silently."""
    bad = ~np.isfinite(value)
    if bad.any():
        query = ranked["query_id"].to_numpy()[bad.nonzero()[0][0]]
        raise DataError(
            f"fusion by {fusion.method} (norm {fusion.norm}): the run of {name!r} gives "
            f"{int(bad.sum())} values that are not finite (first in query {query!r}); are "
            "its scores far enough from float64's limit?"
        )


def top_k(run: pd.DataFrame, k: int) -> pd.DataFrame:
    """The top k of each query of a run with float64 scores (score descending, document
    id descending), ranks from 1."""
    return _ordered(run, float32=False, limit=k).drop(columns="count")
