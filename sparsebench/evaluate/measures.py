"""Every standard IR measure, per query, vectorised over all queries of a ranking.

MEASURES is the registry: one entry per measure, with the parameter its name takes (k a
positive integer cutoff, x a recall level in [0, 1]), its formula, its source and how its
per-query values are summarised. Names are parsed and the default list is made from it,
so a new measure is one entry (and, if it needs one, one method of MeasureCalculator).

A query with no relevant document scores 0 on every measure of relevance (gMAP: ln 1e-5);
Judged@k and Unjudged@k count judgments of any grade, relevant or not.

Every measure of relevance also takes, in ir_measures' parameter notation:
  rel=r              relevant from grade r on (binary measures: P(rel=2)@10)
  judged_only=True   on the condensed list, the ranking without the documents the qrels
                     do not list (Sakai, "Alternatives to Bpref", SIGIR 2007; trec_eval -J;
                     ir_measures' judged_only); Sakai's prime says the same: nDCG'@10, MAP'
  unjudged=relevant  as if every unjudged document in the top k (all retrieved, without a
                     cutoff) were relevant with its query's best grade, and one more of the
                     query's relevant documents: with the plain measure (unjudged =
                     non-relevant) it bounds what complete judgments could give. Not always
                     the higher of the two: R, and nDCG's ideal ranking, grow too
JUDGED_AT_10 is computed for every pair whatever the metric list: the leaderboard
shows it beside the primary metric.

Kept as one module: the registry, the calculator its entries call and the grammar of
names read from its entries (P(rel=2)@10 included) depend on each other both ways.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    from sparsebench.evaluate.ranking import RankedJudgments

RECALL_LEVELS = tuple(round(0.1 * i, 1) for i in range(11))
GEO_MEAN_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN
DEFAULT_CUTOFFS = (1, 3, 5, 10, 20, 100, 1000)
JUDGED_AT_10 = "Judged@10"

Parameter = Literal["cutoff", "optional cutoff", "recall level", "none"]


@dataclass(frozen=True)
class Measure:
    """One measure: `name@k` (cutoff), `name` or `name@k` (optional cutoff), `name@x`
    (recall level) or `name` (none); `values` gives its per-query values, `summary` how
    they become one number."""

    name: str
    parameter: Parameter
    formula: str
    source: str
    values: Callable[[MeasureCalculator, int | float | None], np.ndarray]
    summary: Literal["mean", "geometric mean"] = "mean"
    binary: bool = True  # relevant from a grade on: the name takes (rel=r)

    @property
    def takes_cutoff(self) -> bool:
        return self.parameter in ("cutoff", "optional cutoff")

    @property
    def stands_alone(self) -> bool:
        return self.parameter in ("none", "optional cutoff")


def _divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.zeros(np.broadcast(numerator, denominator).shape, dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=np.asarray(denominator) > 0)
    return out


class MeasureCalculator:
    """Per-query values of any measure; shared intermediate arrays are computed once."""

    def __init__(self, ranked: RankedJudgments) -> None:
        self.r = ranked
        self.n = ranked.n_queries
        self._variants: dict[tuple, MeasureCalculator] = {}

    def compute(self, name: str) -> np.ndarray:
        measure, parameter = parse_metric_name(name)
        modifiers = modifiers_of(name)
        calculator = self
        if modifiers.level is not None and modifiers.level != self.r.relevance_level:
            level = modifiers.level
            calculator = calculator._variant(("level", level), lambda r: r.at_level(level))
        if modifiers.condensed:
            calculator = calculator._variant(("condensed",), lambda r: r.condensed())
        if modifiers.optimistic:
            k = parameter if MEASURES[measure].takes_cutoff else None
            calculator = calculator._variant(("optimistic", k), lambda r: r.optimistic(k))
        return MEASURES[measure].values(calculator, parameter)

    def _variant(self, key: tuple, make: Callable) -> MeasureCalculator:
        """The calculator of another view of the ranking (made once)."""
        if key not in self._variants:
            self._variants[key] = MeasureCalculator(make(self.r))
        return self._variants[key]

    # -- shared pieces ------------------------------------------------------------------

    @cached_property
    def num_relevant(self) -> np.ndarray:
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

    def hits_at(self, k: int) -> np.ndarray:
        query, rank, _ = self._relevant_rows
        return self._per_query(query[rank <= k])

    # -- measures (the registry calls these) -------------------------------------------

    def recall(self, k: int) -> np.ndarray:
        return _divide(self.hits_at(k), self.num_relevant)

    def f1(self, k: int) -> np.ndarray:
        precision, recall = self.hits_at(k) / k, self.recall(k)
        return _divide(2 * precision * recall, precision + recall)

    def judged(self, k: int) -> np.ndarray:
        """Of the top min(k, retrieved) documents, the share that has a judgment (any
        grade, negative included, as ir_measures' Judged@k); 0 for a query with none
        retrieved."""
        top = self.r.row_rank <= k
        judged = self._per_query(self.r.row_query[top & self.r.row_judged])
        return _divide(judged, self._per_query(self.r.row_query[top]))

    def unjudged(self, k: int) -> np.ndarray:
        """How many of the top k documents have no judgment."""
        top = (self.r.row_rank <= k) & ~self.r.row_judged
        return self._per_query(self.r.row_query[top])

    def log_average_precision(self) -> np.ndarray:
        return np.log(np.maximum(self.average_precision(None), GEO_MEAN_FLOOR))

    def ndcg(self, k: int, exponential: bool) -> np.ndarray:
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

    def average_precision(self, k: int | None) -> np.ndarray:
        """AP(@k) = (1 / R) * sum over relevant ranks i (<= k) of P@i; R = all relevant."""
        query, rank, hits = self._relevant_rows
        keep = slice(None) if k is None else rank <= k
        return _divide(self._per_query(query[keep], hits[keep] / rank[keep]), self.num_relevant)

    def reciprocal_rank(self, k: int | None) -> np.ndarray:
        """1 / rank of the first relevant document (0 if none, or none within k)."""
        query, rank, hits = self._relevant_rows
        first = hits == 1
        if k is not None:
            first &= rank <= k
        out = np.zeros(self.n)
        out[query[first]] = 1.0 / rank[first]
        return out

    def r_precision(self) -> np.ndarray:
        """Relevant in the top R / R, R = all relevant."""
        query, rank, _ = self._relevant_rows
        within = rank <= self.r.num_relevant[query]
        return _divide(self._per_query(query[within]), self.num_relevant)

    def bpref(self) -> np.ndarray:
        """(1 / R) * sum over retrieved relevant d of 1 - min(n_d, R) / min(N, R): n_d judged
        non-relevant documents ranked above d, N all judged non-relevant (trec_eval)."""
        r = self.r
        judged = np.flatnonzero(r.row_judged)  # only judged rows count: the run's few
        query, grade = r.row_query[judged], r.row_grade[judged]
        nonrel = (grade >= 0) & (grade < r.relevance_level)
        relevant = grade >= r.relevance_level
        # judged non-relevant rows ranked above each row, counted within its query
        seen = np.concatenate([[0], np.cumsum(nonrel)])
        first = np.searchsorted(query, np.arange(self.n))
        above = (seen[:-1] - seen[first[query]])[relevant]
        query = query[relevant]
        num_rel = r.num_relevant[query]
        denominator = np.minimum(r.num_nonrelevant[query], num_rel)
        penalty = _divide(np.minimum(above, num_rel).astype(np.float64), denominator)
        contribution = np.where(above > 0, 1.0 - penalty, 1.0)
        return _divide(self._per_query(query, contribution), self.num_relevant)

    @cached_property
    def _suffix_max_precision(self) -> np.ndarray:
        """For each relevant row: the best precision at its rank or any lower rank."""
        query, rank, hits = self._relevant_rows
        best = hits / rank
        # a running maximum from the end that restarts per query, by doubling: after the
        # step of span s each row holds the best of the 2s rows from it on in its query
        # (exact: no offsets added to the precisions, which would round them)
        span = 1
        while span < len(best):
            same = query[span:] == query[:-span]
            np.maximum(best[:-span], np.where(same, best[span:], 0.0), out=best[:-span])
            if not same.any():
                break
            span *= 2
        return best

    def interpolated_precision(self, level: float) -> np.ndarray:
        """trec_eval's iprec_at_recall: the cutoff is (long)(level * R + 0.9) relevant
        documents; the value is the best precision at or after the rank where that many
        relevant documents have been seen (0 if never; the first one if the cutoff is 0)."""
        query, _, hits = self._relevant_rows
        cutoff = np.floor(level * self.num_relevant + 0.9).astype(np.int64)
        wanted = np.maximum(cutoff, 1)
        pick = hits == wanted[query]
        out = np.zeros(self.n)
        out[query[pick]] = self._suffix_max_precision[pick]
        return out


_TREC_EVAL = "trec_eval 9.0.8 (NIST)"
# the registry, in the order of the default metric list
MEASURES: dict[str, Measure] = {
    m.name: m
    for m in (
        Measure(
            "nDCG",
            "cutoff",
            "DCG@k / IDCG@k, DCG@k = sum over ranks i <= k of grade_i / log2(i + 1); IDCG@k "
            "is DCG@k of the judgments sorted by grade (trec_eval ndcg_cut.k, BEIR)",
            "Jarvelin and Kekalainen, Cumulated gain-based evaluation of IR techniques, ACM "
            "TOIS 20(4), 2002; linear gain as in " + _TREC_EVAL + " and Thakur et al., BEIR, 2021",
            lambda c, k: c.ndcg(k, exponential=False),
            binary=False,
        ),
        Measure(
            "nDCG_exp",
            "cutoff",
            "nDCG@k with the exponential gain 2^grade - 1",
            "Burges et al., Learning to rank using gradient descent, ICML 2005",
            lambda c, k: c.ndcg(k, exponential=True),
            binary=False,
        ),
        Measure(
            "Recall",
            "cutoff",
            "relevant in the top k / all relevant (trec_eval recall.k)",
            _TREC_EVAL,
            lambda c, k: c.recall(k),
        ),
        Measure(
            "R_cap",
            "cutoff",
            "relevant in the top k / min(k, all relevant)",
            "Thakur et al., BEIR: a heterogeneous benchmark for zero-shot evaluation of "
            "information retrieval models, NeurIPS Datasets and Benchmarks 2021",
            lambda c, k: _divide(c.hits_at(k), np.minimum(k, c.num_relevant)),
        ),
        Measure(
            "P",
            "cutoff",
            "relevant in the top k / k (trec_eval P.k)",
            _TREC_EVAL,
            lambda c, k: c.hits_at(k) / k,
        ),
        Measure(
            "Success",
            "cutoff",
            "1 if a relevant document is in the top k, else 0 (trec_eval success.k)",
            _TREC_EVAL,
            lambda c, k: (c.hits_at(k) > 0).astype(np.float64),
        ),
        Measure(
            "F1",
            "cutoff",
            "harmonic mean of P@k and Recall@k (0 when both are 0)",
            "van Rijsbergen, Information Retrieval, 2nd ed., 1979 (the F measure, beta = 1)",
            lambda c, k: c.f1(k),
        ),
        Measure(
            "Judged",
            "cutoff",
            "judged documents in the top min(k, retrieved) / min(k, retrieved), a judgment "
            "of any grade (ir_measures Judged@k, but with ties in trec_eval's order: "
            "ir_measures' own Judged@k puts tied documents in ascending id order); not "
            "relevance: the share of the ranking the judgments can score",
            "Sakai, Alternatives to Bpref, SIGIR 2007 (condensed lists); MacAvaney et al., "
            "ir_measures (Judged@k, from OpenNIR)",
            lambda c, k: c.judged(k),
            binary=False,
        ),
        Measure(
            "Unjudged",
            "cutoff",
            "documents in the top k without a judgment (a count per query; its summary the mean)",
            "the complement of Judged@k, as a count: Thakur et al., BEIR, 2021 (the holes that "
            "dense and learned sparse models find in pooled judgments)",
            lambda c, k: c.unjudged(k),
            binary=False,
        ),
        Measure(
            "MAP",
            "optional cutoff",
            "(1 / R) * sum over relevant ranks i (<= k) of P@i, R = all relevant "
            "(trec_eval map, map_cut.k)",
            "Voorhees and Harman, TREC: Experiment and Evaluation in Information Retrieval, "
            "MIT Press 2005; " + _TREC_EVAL,
            lambda c, k: c.average_precision(k),
        ),
        Measure(
            "MRR",
            "optional cutoff",
            "1 / rank of the first relevant document (within k), 0 if none (trec_eval recip_rank)",
            "Voorhees, The TREC-8 Question Answering Track Report, TREC 1999",
            lambda c, k: c.reciprocal_rank(k),
        ),
        Measure(
            "R-Precision",
            "none",
            "relevant in the top R / R, R = all relevant (trec_eval Rprec)",
            "Voorhees and Harman, TREC: Experiment and Evaluation in Information Retrieval, "
            "MIT Press 2005; " + _TREC_EVAL,
            lambda c, _: c.r_precision(),
        ),
        Measure(
            "bpref",
            "none",
            "(1 / R) * sum over retrieved relevant d of 1 - min(n_d, R) / min(N, R), n_d judged "
            "non-relevant ranked above d, N all judged non-relevant (trec_eval bpref)",
            "Buckley and Voorhees, Retrieval evaluation with incomplete information, SIGIR 2004",
            lambda c, _: c.bpref(),
        ),
        Measure(
            "gMAP",
            "none",
            "per query ln(max(AP, 1e-5)); the summary is exp of their mean (trec_eval gm_map)",
            "Robertson, On GMAP and other transformations, CIKM 2006; Voorhees, The TREC 2005 "
            "Robust Track",
            lambda c, _: c.log_average_precision(),
            summary="geometric mean",
        ),
        Measure(
            "IPrec",
            "recall level",
            "interpolated precision at recall level x: the best precision at or after the rank "
            "where (long)(x * R + 0.9) relevant documents have been seen (trec_eval "
            "iprec_at_recall); 0 on an empty condensed list (judged_only with nothing "
            "judged retrieved), where trec_eval -J divides 0 by 0 and prints NaN",
            "Salton and McGill, Introduction to Modern Information Retrieval, 1983 (11-point "
            "interpolated precision); " + _TREC_EVAL,
            lambda c, x: c.interpolated_precision(float(x)),
        ),
    )
}

_NAMED = re.compile(r"^(?P<measure>[^@]+)@(?P<parameter>.+)$")
_MODIFIED = re.compile(
    r"^(?P<measure>[^('@]+)(?P<prime>')?(?:\((?P<params>[^)]*)\))?(?P<rest>@.*)?$"
)
_CUTOFF = re.compile(r"^[1-9][0-9]*$")
_LEVEL = re.compile(r"^(?:0(?:\.[0-9]+)?|1(?:\.0+)?)$")
# measures of the judgments themselves: no condensed list or optimistic band
_OF_JUDGMENTS = ("Judged", "Unjudged")


@dataclass(frozen=True)
class Modifiers:
    """What a name's parameters change: the relevance level, the condensed list, the
    optimistic reading of unlisted documents."""

    level: int | None = None
    condensed: bool = False
    optimistic: bool = False


def _known_names() -> str:
    forms = {"cutoff": "{}@k", "recall level": "{}@x", "none": "{}", "optional cutoff": "{}[@k]"}
    names = ", ".join(forms[m.parameter].format(m.name) for m in MEASURES.values())
    return (
        f"{names} (k a positive integer cutoff, x a recall level in [0, 1]); a measure of "
        "binary relevance also as name(rel=r), relevant from grade r on (e.g. P(rel=2)@10); "
        "a measure of relevance on the condensed list as name'@k or name(judged_only=True)@k, "
        "and with unjudged documents counted relevant as name(unjudged=relevant)@k"
    )


def _split(name: str) -> tuple[str, Modifiers]:
    """(the name without its modifiers, the modifiers) of a metric name."""
    match = _MODIFIED.match(name)
    if match is None or not (match["prime"] or match["params"] is not None):
        return name, Modifiers()
    base = match["measure"] + (match["rest"] or "")
    measure = MEASURES.get(match["measure"])
    level, condensed, optimistic = None, bool(match["prime"]), False
    for param in filter(None, (p.strip() for p in (match["params"] or "").split(","))):
        key, _, value = param.partition("=")
        if key == "rel":
            if not _CUTOFF.match(value):
                raise ValueError(f"{name!r}: rel= takes a grade of 1 or more, not {value!r}")
            if measure is not None and not measure.binary:
                raise ValueError(
                    f"{name!r}: {match['measure']} does not count documents as relevant from "
                    "a grade on (graded gains, or judgments of any grade), so it takes no rel="
                )
            level = int(value)
        elif key == "judged_only" and value == "True":
            condensed = True
        elif key == "unjudged" and value == "relevant":
            optimistic = True
        else:
            raise ValueError(
                f"{name!r}: unknown parameter {param!r}; a measure takes rel=r, "
                "judged_only=True or unjudged=relevant"
            )
    if (condensed or optimistic) and match["measure"] in _OF_JUDGMENTS:
        raise ValueError(f"{name!r}: {match['measure']} counts judgments; it has no condensed list")
    if condensed and optimistic:
        raise ValueError(f"{name!r}: a condensed list has no unlisted document to count relevant")
    return base, Modifiers(level, condensed, optimistic)


def modifiers_of(name: str) -> Modifiers:
    """The modifiers of a name such as 'P(rel=2)@10', "nDCG'@10" or
    'nDCG(unjudged=relevant)@10' (none for a plain name)."""
    return _split(name)[1]


def optimistic_name(name: str) -> str | None:
    """The name of a measure with unjudged documents relevant (unjudged=relevant): 'nDCG@10' ->
    'nDCG(unjudged=relevant)@10', 'P(rel=2)@10' -> 'P(rel=2,unjudged=relevant)@10'; None
    for a measure that has none (of judgments, or on a condensed list)."""
    match = _MODIFIED.match(name)
    if match is None or match["measure"] in _OF_JUDGMENTS or modifiers_of(name).condensed:
        return None
    params = [p for p in (match["params"] or "").split(",") if p.strip()]
    if "unjudged=relevant" not in params:
        params.append("unjudged=relevant")
    return f"{match['measure']}({','.join(params)}){match['rest'] or ''}"


def relevance_level_of(name: str) -> int | None:
    """The r of a name such as 'P(rel=2)@10' (ir_measures' notation: relevant from grade
    r on, for this measure only), None for a name without one."""
    return modifiers_of(name).level


def parse_metric_name(name: str) -> tuple[str, float | int | None]:
    """Split 'nDCG@10' into ('nDCG', 10), 'MAP' into ('MAP', None), 'IPrec@0.5' into
    ('IPrec', 0.5), 'P(rel=2)@10' into ('P', 10) (its modifiers: modifiers_of).
    Raises ValueError naming the measures there are."""
    given = name
    name = _split(name)[0]
    match = _NAMED.match(name)
    measure = MEASURES.get(match["measure"] if match else name)
    if measure is not None and match is None and measure.stands_alone:
        return measure.name, None
    if measure is not None and match is not None:
        parameter = match["parameter"]
        if measure.takes_cutoff and _CUTOFF.match(parameter):
            return measure.name, int(parameter)
        if measure.parameter == "recall level" and _LEVEL.match(parameter):
            return measure.name, float(parameter)
    raise ValueError(f"unknown metric {given!r}; known: {_known_names()}")


def default_metric_names(cutoffs: Sequence[int] = DEFAULT_CUTOFFS) -> list[str]:
    """Every measure at every cutoff, then the cutoff-free ones and the 11-point curve."""
    names = [
        f"{m.name}@{k}" for m in MEASURES.values() if m.takes_cutoff for k in sorted(set(cutoffs))
    ]
    names += [m.name for m in MEASURES.values() if m.stands_alone]
    names += [
        recall_level_name(level)
        for m in MEASURES.values()
        if m.parameter == "recall level"
        for level in RECALL_LEVELS
    ]
    return names


def recall_level_name(level: float) -> str:
    return f"IPrec@{level:.1f}"


def aggregate(name: str, values: np.ndarray) -> float:
    """The summary over queries: the mean, or for gMAP the geometric mean."""
    if len(values) == 0:
        return float("nan")
    return from_mean(name, float(np.mean(values)))


def from_mean(name: str, mean: float) -> float:
    """The summary of a metric from the mean of its per-query values (a geometric mean's
    per-query values are logarithms: its summary is the exponential of their mean)."""
    geometric = MEASURES[parse_metric_name(name)[0]].summary == "geometric mean"
    return float(np.exp(mean)) if geometric else float(mean)
