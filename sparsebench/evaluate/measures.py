"""Every standard IR measure, per query, vectorised over all queries of a ranking.

Names (k a positive integer cutoff, x a recall level in [0, 1]):

  nDCG@k       trec_eval ndcg_cut.k: grade as linear gain, log2(rank + 1) discount (BEIR)
  nDCG_exp@k   the same with exponential gain 2^grade - 1
  Recall@k     trec_eval recall.k: relevant in the top k / all relevant
  R_cap@k      BEIR's capped recall: relevant in the top k / min(k, all relevant)
  P@k          trec_eval P.k: relevant in the top k / k
  Success@k    trec_eval success.k: 1 if a relevant document is in the top k
  F1@k         harmonic mean of P@k and Recall@k
  MAP, MAP@k   trec_eval map, map_cut.k: precision at each relevant rank (up to k) / all relevant
  MRR, MRR@k   trec_eval recip_rank: 1 / rank of the first relevant document (within k)
  R-Precision  trec_eval Rprec: precision at rank R = number of relevant documents
  bpref        trec_eval bpref: judged non-relevant documents ranked above each relevant one
  gMAP         trec_eval gm_map: per query ln(max(AP, 1e-5)); the mean is exp(mean)
  IPrec@x      trec_eval iprec_at_recall: interpolated precision at recall level x

A query with no relevant document scores 0 on every measure (gMAP: ln 1e-5).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from sparsebench.evaluate.ranking import RankedJudgments

CUTOFF_MEASURES = ("nDCG", "nDCG_exp", "Recall", "R_cap", "P", "Success", "F1", "MAP", "MRR")
PLAIN_MEASURES = ("MAP", "MRR", "R-Precision", "bpref", "gMAP")
RECALL_LEVELS = tuple(round(0.1 * i, 1) for i in range(11))
GEO_MEAN_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN
DEFAULT_CUTOFFS = (1, 3, 5, 10, 20, 100, 1000)

_WITH_CUTOFF = re.compile(r"^(nDCG_exp|nDCG|Recall|R_cap|P|Success|F1|MAP|MRR)@([1-9][0-9]*)$")
_RECALL_LEVEL = re.compile(r"^IPrec@((?:0(?:\.[0-9]+)?)|(?:1(?:\.0+)?))$")


def parse_metric_name(name: str) -> tuple[str, float | int | None]:
    """Split 'nDCG@10' into ('nDCG', 10), 'MAP' into ('MAP', None), 'IPrec@0.5' into
    ('IPrec', 0.5). Raises ValueError naming the measures there are."""
    match = _WITH_CUTOFF.match(name)
    if match:
        return match.group(1), int(match.group(2))
    if name in PLAIN_MEASURES:
        return name, None
    match = _RECALL_LEVEL.match(name)
    if match:
        return "IPrec", float(match.group(1))
    raise ValueError(
        f"unknown metric {name!r}; known: {', '.join(m + '@k' for m in CUTOFF_MEASURES)}, "
        f"{', '.join(PLAIN_MEASURES)}, IPrec@x (x a recall level in [0, 1])"
    )


def default_metric_names(cutoffs: Sequence[int] = DEFAULT_CUTOFFS) -> list[str]:
    """Every measure at every cutoff, then the cutoff-free ones and the 11-point curve."""
    names = [f"{m}@{k}" for m in CUTOFF_MEASURES for k in sorted(set(cutoffs))]
    names += list(PLAIN_MEASURES)
    names += [recall_level_name(level) for level in RECALL_LEVELS]
    return names


def recall_level_name(level: float) -> str:
    return f"IPrec@{level:.1f}"


def aggregate(name: str, values: np.ndarray) -> float:
    """The summary over queries: the mean, or for gMAP the geometric mean."""
    if len(values) == 0:
        return float("nan")
    return from_mean(name, float(np.mean(values)))


def from_mean(name: str, mean: float) -> float:
    """The summary of a metric from the mean of its per-query values (gMAP's per-query
    values are logarithms, so its summary is the exponential of their mean)."""
    return float(np.exp(mean)) if name == "gMAP" else float(mean)


def _divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.zeros(np.broadcast(numerator, denominator).shape, dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=np.asarray(denominator) > 0)
    return out


class MeasureCalculator:
    """Per-query values of any measure; shared intermediate arrays are computed once."""

    def __init__(self, ranked: RankedJudgments) -> None:
        self.r = ranked
        self.n = ranked.n_queries

    def compute(self, name: str) -> np.ndarray:
        measure, k = parse_metric_name(name)
        if measure in ("nDCG", "nDCG_exp"):
            return self._ndcg(k, exponential=measure == "nDCG_exp")
        if measure == "Recall":
            return _divide(self._hits_at(k), self._num_rel)
        if measure == "R_cap":
            return _divide(self._hits_at(k), np.minimum(k, self._num_rel))
        if measure == "P":
            return self._hits_at(k) / k
        if measure == "Success":
            return (self._hits_at(k) > 0).astype(np.float64)
        if measure == "F1":
            precision, recall = self._hits_at(k) / k, _divide(self._hits_at(k), self._num_rel)
            return _divide(2 * precision * recall, precision + recall)
        if measure == "MAP":
            return self._average_precision(k)
        if measure == "MRR":
            return self._reciprocal_rank(k)
        if measure == "R-Precision":
            return self._r_precision()
        if measure == "bpref":
            return self._bpref()
        if measure == "gMAP":
            return np.log(np.maximum(self._average_precision(None), GEO_MEAN_FLOOR))
        return self._interpolated_precision(float(k))

    # -- shared pieces ------------------------------------------------------------------

    @cached_property
    def _num_rel(self) -> np.ndarray:
        return self.r.num_relevant.astype(np.float64)

    @cached_property
    def _relevant(self) -> np.ndarray:
        """Row mask: grade >= relevance_level."""
        return self.r.row_grade >= self.r.relevance_level

    @cached_property
    def _relevant_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query, rank, hits so far) of each relevant retrieved row, in rank order."""
        query = self.r.row_query[self._relevant]
        rank = self.r.row_rank[self._relevant]
        starts = np.searchsorted(query, np.arange(self.n))
        hits = np.arange(1, len(query) + 1) - starts[query]
        return query, rank, hits

    def _per_query(self, query: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        return np.bincount(query, weights=weights, minlength=self.n).astype(np.float64)

    def _hits_at(self, k: int) -> np.ndarray:
        query, rank, _ = self._relevant_rows
        return self._per_query(query[rank <= k])

    # -- measures -----------------------------------------------------------------------

    def _ndcg(self, k: int, exponential: bool) -> np.ndarray:
        """DCG@k / IDCG@k, DCG@k = sum over ranks i <= k of gain(grade_i) / log2(i + 1),
        gain = grade (or 2^grade - 1); IDCG@k is DCG@k of the judgments sorted by grade."""
        r = self.r

        def gain(grade: np.ndarray) -> np.ndarray:
            positive = np.maximum(grade, 0.0)
            return np.exp2(positive) - 1.0 if exponential else positive

        top = r.row_rank <= k
        dcg = self._per_query(
            r.row_query[top], gain(r.row_grade[top]) / np.log2(r.row_rank[top] + 1.0)
        )
        ideal = r.ideal_rank <= k
        idcg = self._per_query(
            r.ideal_query[ideal], gain(r.ideal_grade[ideal]) / np.log2(r.ideal_rank[ideal] + 1.0)
        )
        return _divide(dcg, idcg)

    def _average_precision(self, k: int | None) -> np.ndarray:
        """AP(@k) = (1 / R) * sum over relevant ranks i (<= k) of P@i; R = all relevant."""
        query, rank, hits = self._relevant_rows
        keep = slice(None) if k is None else rank <= k
        return _divide(self._per_query(query[keep], hits[keep] / rank[keep]), self._num_rel)

    def _reciprocal_rank(self, k: int | None) -> np.ndarray:
        """1 / rank of the first relevant document (0 if none, or none within k)."""
        query, rank, hits = self._relevant_rows
        first = hits == 1
        if k is not None:
            first &= rank <= k
        out = np.zeros(self.n)
        out[query[first]] = 1.0 / rank[first]
        return out

    def _r_precision(self) -> np.ndarray:
        """Relevant in the top R / R, R = all relevant."""
        query, rank, _ = self._relevant_rows
        within = rank <= self.r.num_relevant[query]
        return _divide(self._per_query(query[within]), self._num_rel)

    def _bpref(self) -> np.ndarray:
        """(1 / R) * sum over retrieved relevant d of 1 - min(n_d, R) / min(N, R): n_d judged
        non-relevant documents ranked above d, N all judged non-relevant (trec_eval)."""
        r = self.r
        nonrel = r.row_judged & (r.row_grade >= 0) & (r.row_grade < r.relevance_level)
        # judged non-relevant rows ranked above each row, counted within its query
        before = np.cumsum(nonrel) - nonrel
        starts = np.searchsorted(r.row_query, np.arange(self.n))
        base = np.concatenate([[0], np.cumsum(nonrel)])[starts]
        above = (before - base[r.row_query])[self._relevant]
        query = r.row_query[self._relevant]
        num_rel = r.num_relevant[query]
        denominator = np.minimum(r.num_nonrelevant[query], num_rel)
        penalty = _divide(np.minimum(above, num_rel).astype(np.float64), denominator)
        contribution = np.where(above > 0, 1.0 - penalty, 1.0)
        return _divide(self._per_query(query, contribution), self._num_rel)

    @cached_property
    def _suffix_max_precision(self) -> np.ndarray:
        """For each relevant row: the best precision at its rank or any lower rank."""
        query, rank, hits = self._relevant_rows
        precision = hits / rank
        # reversed running max that restarts per query: offset each query above the
        # previous ones (precision <= 1) so the maximum never crosses a query boundary
        offset = 2.0 * (self.n - query[::-1])
        running = np.maximum.accumulate(precision[::-1] + offset) - offset
        return running[::-1]

    def _interpolated_precision(self, level: float) -> np.ndarray:
        """trec_eval's iprec_at_recall: the cutoff is (long)(level * R + 0.9) relevant
        documents; the value is the best precision at or after the rank where that many
        relevant documents have been seen (0 if never; the first one if the cutoff is 0)."""
        query, _, hits = self._relevant_rows
        cutoff = np.floor(level * self._num_rel + 0.9).astype(np.int64)
        wanted = np.maximum(cutoff, 1)
        pick = hits == wanted[query]
        out = np.zeros(self.n)
        out[query[pick]] = self._suffix_max_precision[pick]
        return out
