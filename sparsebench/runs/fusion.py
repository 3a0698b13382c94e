"""Run fusion: one ranking per query from several runs of the same queries.

Each input run is put in trec_eval's order (score as a 32-bit float, descending, then
document id descending: the order its evaluation sees), cut to its top `depth`, and its
scores normalised per query; the fused score of a document is then, over the runs that
retrieved it (definitions as in ranx's fuse, which the tests hold them to):

- rrf: sum of 1 / (k + rank), rank 1-based (Cormack, Clarke and Buettcher, SIGIR 2009;
  k = 60); scores play no part beyond the order;
- combsum: sum of the normalised scores; combmnz: that sum times the number of runs that
  retrieved the document; combmax: their maximum (Fox and Shaw, TREC-2, 1993);
- wsum: sum of weight x normalised score (a weight per run).

Normalisations, per query and run over its top `depth`: min-max (s - min) / (max - min),
z-score (s - mean) / standard deviation (of the population), sum (s - min) / (sum - n min),
rank 1 - (rank - 1) / n, none; a denominator below 1e-9 counts as 1e-9 (ranx). The fused
run keeps the top k of each query, in trec_eval's order (score descending, document id
descending), so its ties fall as in every other run here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.arrays import group_ranks
from sparsebench.core.errors import ConfigError, DataError

METHODS = ("rrf", "combsum", "combmnz", "combmax", "wsum")
NORMS = ("min-max", "z-score", "sum", "rank", "none")
RRF_K = 60
_FLOOR = 1e-9  # ranx's smallest denominator


@dataclass(frozen=True)
class Fusion:
    """How runs are fused (a `kind: fusion` model's settings)."""

    runs: tuple[str, ...]
    method: str = "rrf"
    norm: str = "min-max"
    k: float = RRF_K
    weights: Mapping[str, float] = field(default_factory=dict)
    depth: int | None = None  # None: each run whole

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ConfigError(f"fusion method {self.method!r}; one of {', '.join(METHODS)}")
        if self.norm not in NORMS:
            raise ConfigError(f"fusion norm {self.norm!r}; one of {', '.join(NORMS)}")
        if len(self.runs) < 2 or len(set(self.runs)) != len(self.runs):
            raise ConfigError(f"fusion needs two or more distinct runs, got {list(self.runs)}")
        unknown = sorted(set(self.weights) - set(self.runs))
        if unknown:
            raise ConfigError(f"fusion weights name runs it does not fuse: {unknown}")
        if self.weights and self.method != "wsum":
            raise ConfigError(f"fusion weights are for method wsum, not {self.method}")
        if self.k < 0 or (self.depth is not None and self.depth < 1):
            raise ConfigError("fusion k must be >= 0 and depth >= 1")

    def weight(self, run: str) -> float:
        return float(self.weights.get(run, 1.0))


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


def normalized(ranked: pd.DataFrame, norm: str) -> np.ndarray:
    """The scores of a run in trec_order, normalised per query."""
    scores = ranked["score"].to_numpy(dtype=np.float64)
    if norm == "none":
        return scores
    if norm == "rank":
        return 1.0 - (ranked["rank"].to_numpy() - 1) / ranked["count"].to_numpy()
    groups = ranked.groupby("query_id", sort=False)["score"]
    if norm == "z-score":  # two passes, as numpy's std
        deviation = scores - groups.transform("mean").to_numpy()
        squares = pd.Series(deviation**2, index=ranked.index).groupby(
            ranked["query_id"], sort=False
        )
        return deviation / np.maximum(np.sqrt(squares.transform("mean").to_numpy()), _FLOOR)
    low = groups.transform("min").to_numpy()
    if norm == "min-max":
        return (scores - low) / np.maximum(groups.transform("max").to_numpy() - low, _FLOOR)
    total = groups.transform("sum").to_numpy()
    return (scores - low) / np.maximum(total - low * ranked["count"].to_numpy(), _FLOOR)


def fuse(runs: Mapping[str, pd.DataFrame], fusion: Fusion, k: int) -> pd.DataFrame:
    """The fused run (query_id, doc_id, score, rank) of `runs` (name -> run), the top k
    of each query in trec_eval's order."""
    missing = [name for name in fusion.runs if name not in runs]
    if missing:
        raise DataError(f"fusion: no run of {missing}")
    parts = []
    for name in fusion.runs:
        ranked = trec_order(runs[name], fusion.depth)
        if fusion.method == "rrf":
            value = 1.0 / (fusion.k + ranked["rank"].to_numpy(dtype=np.float64))
        else:
            value = normalized(ranked, fusion.norm) * (
                fusion.weight(name) if fusion.method == "wsum" else 1.0
            )
        parts.append(
            pd.DataFrame(
                {"query_id": ranked["query_id"], "doc_id": ranked["doc_id"], "value": value}
            )
        )
    lines = pd.concat(parts, ignore_index=True)
    grouped = lines.groupby(["query_id", "doc_id"], sort=False)["value"]
    if fusion.method == "combmax":
        fused = grouped.max()
    elif fusion.method == "combmnz":
        fused = grouped.sum() * grouped.count()
    else:
        fused = grouped.sum()
    fused = fused.reset_index(name="score")
    return top_k(fused, k)


def top_k(run: pd.DataFrame, k: int) -> pd.DataFrame:
    """The top k of each query of a run with float64 scores, in trec_eval's order over
    them (score descending, document id descending), ranks from 1."""
    return _ordered(run, float32=False, limit=k).drop(columns="count")


def fusion_of(entry: Mapping) -> Fusion:
    """The Fusion of a `kind: fusion` model entry."""
    return Fusion(
        runs=tuple(entry["runs"]),
        method=entry.get("method", "rrf"),
        norm=entry.get("norm", "min-max"),
        k=float(entry.get("k", RRF_K)),
        weights=dict(entry.get("weights") or {}),
        depth=entry.get("depth"),
    )
