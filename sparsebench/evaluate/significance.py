"""Paired significance tests between two systems' per-query values on the same queries.

Tests (two-sided): paired t-test (scipy.stats.ttest_rel), Wilcoxon signed-rank
(scipy.stats.wilcoxon with scipy's defaults: zero differences dropped, exact or normal
approximation chosen by scipy), sign test (exact binomial test on wins vs losses, ties
dropped), paired bootstrap test (queries resampled with replacement from the differences
centred on zero) and Fisher's randomization test (the sign of each query's difference
flipped at random). Monte Carlo p-values are (1 + hits) / (1 + resamples), never 0.

Every random draw comes from a generator seeded by the seed in config and the names of
the comparison, so a report is byte-identical on rerun and adding a model does not move
the p-values of the others. When every difference is zero, tests that would divide by
zero report statistic 0 and p = 1 (no evidence of a difference).
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from sparsebench.core.errors import DataError
from sparsebench.evaluate.procedures import CORRECTIONS, TESTS

_BLOCK = 1000  # resamples drawn at once: memory is block x queries


@dataclass(frozen=True)
class Comparison:
    """One test of a model against a baseline on one metric."""

    test: str
    statistic: float
    p: float
    delta: float  # mean(model - baseline)
    ci_low: float  # 95% bootstrap percentile interval of delta
    ci_high: float
    wins: int
    ties: int
    losses: int
    n_queries: int

    def as_row(self) -> dict:
        return asdict(self)


def comparison_seed(seed: int, *names: str) -> np.random.SeedSequence:
    """A seed derived from the configured seed and the comparison's names."""
    digest = hashlib.sha256("\x1f".join(names).encode("utf-8")).digest()
    return np.random.SeedSequence([seed, int.from_bytes(digest[:8], "little")])


def align(model: pd.Series, baseline: pd.Series, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Values of both systems on the same queries, in the same order; refuses query sets
    that differ (the runs were evaluated on different topics or splits) or hold < 2."""
    if not model.index.is_unique or not baseline.index.is_unique:
        raise DataError(f"{what}: per-query values list a query twice")
    missing_in_model = baseline.index.difference(model.index)
    missing_in_baseline = model.index.difference(baseline.index)
    if len(missing_in_model) or len(missing_in_baseline):
        raise DataError(
            f"{what}: the two runs were evaluated on different query sets "
            f"({len(model)} and {len(baseline)} queries, {len(missing_in_model)} only in the "
            f"baseline, {len(missing_in_baseline)} only in the model, e.g. "
            f"{(list(missing_in_model) + list(missing_in_baseline))[:3]}); compare runs "
            "evaluated on the same qrels and query set"
        )
    if len(model) < 2:
        raise DataError(f"{what}: {len(model)} query; a paired test needs at least 2")
    order = baseline.index.sort_values()
    return (model.reindex(order).to_numpy(np.float64), baseline.reindex(order).to_numpy(np.float64))


def _monte_carlo_p(hits: int, resamples: int) -> float:
    return (1 + hits) / (1 + resamples)


def _resampled_means(
    differences: np.ndarray, resamples: int, rng: np.random.Generator, randomize_signs: bool
) -> np.ndarray:
    """Means of `resamples` resamples of the differences, drawn in blocks: queries drawn
    with replacement (bootstrap) or each difference's sign flipped at random."""
    n = len(differences)
    means = np.empty(resamples)
    for start in range(0, resamples, _BLOCK):
        size = (min(start + _BLOCK, resamples) - start, n)
        if randomize_signs:
            sample = (rng.integers(0, 2, size=size, dtype=np.int8) * 2 - 1) * differences
        else:
            sample = differences[rng.integers(0, n, size=size)]
        means[start : start + size[0]] = sample.mean(axis=1)
    return means


def _bootstrap_means(
    differences: np.ndarray, resamples: int, rng: np.random.Generator
) -> np.ndarray:
    return _resampled_means(differences, resamples, rng, randomize_signs=False)


def _randomization_means(
    differences: np.ndarray, resamples: int, rng: np.random.Generator
) -> np.ndarray:
    return _resampled_means(differences, resamples, rng, randomize_signs=True)


def mean_interval(
    values: np.ndarray, resamples: int, rng: np.random.Generator, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of per-query values (queries drawn with
    replacement `resamples` times): how far the mean could move on other queries."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1 or len(values) == 0:
        raise DataError("a bootstrap interval needs a 1-d array of at least one value")
    tail = 50 * (1 - level)
    low, high = np.percentile(_bootstrap_means(values, resamples, rng), [tail, 100 - tail])
    return float(low), float(high)


def _exceeds(null_means: np.ndarray, observed: float) -> int:
    # a tolerance keeps ties with the observed value (e.g. identical runs) counted
    return int((np.abs(null_means) >= abs(observed) - 1e-12).sum())


def paired_tests(
    model: np.ndarray,
    baseline: np.ndarray,
    tests: Sequence[str] = TESTS,
    resamples: int = 10_000,
    seed: np.random.SeedSequence | int = 0,
) -> list[Comparison]:
    """Run each test on aligned per-query values; see the module docstring."""
    model = np.asarray(model, dtype=np.float64)
    baseline = np.asarray(baseline, dtype=np.float64)
    if model.shape != baseline.shape or model.ndim != 1:
        raise DataError("paired tests need two aligned 1-d arrays of per-query values")
    if len(model) < 2:
        raise DataError(f"{len(model)} query; a paired test needs at least 2")
    differences = model - baseline
    delta = float(differences.mean())
    wins, losses = int((differences > 0).sum()), int((differences < 0).sum())
    ties = len(differences) - wins - losses
    seeds = np.random.SeedSequence(seed).spawn(3) if isinstance(seed, int) else seed.spawn(3)
    interval_rng, bootstrap_rng, randomization_rng = (np.random.default_rng(s) for s in seeds)
    interval = mean_interval(differences, resamples, interval_rng)
    constant = bool(np.all(differences == differences[0]))

    from scipy import stats  # here: every evaluate job imports this module, few test

    results = []
    for test in tests:
        if test in ("t-test", "wilcoxon"):
            # all differences zero: scipy would divide by zero; there is no evidence
            no_difference = (constant and delta == 0) if test == "t-test" else wins + losses == 0
            statistic, p = (
                (0.0, 1.0)
                if no_difference
                else _scipy_test(
                    stats.ttest_rel if test == "t-test" else stats.wilcoxon, model, baseline
                )
            )
        elif test == "sign":
            statistic = float(wins)
            p = 1.0 if wins + losses == 0 else float(stats.binomtest(wins, wins + losses).pvalue)
        elif test == "bootstrap":
            null = _bootstrap_means(differences - delta, resamples, bootstrap_rng)
            statistic, p = delta, _monte_carlo_p(_exceeds(null, delta), resamples)
        elif test == "randomization":
            null = _randomization_means(differences, resamples, randomization_rng)
            statistic, p = delta, _monte_carlo_p(_exceeds(null, delta), resamples)
        else:
            raise ValueError(f"unknown test {test!r}; known: {', '.join(TESTS)}")
        results.append(
            Comparison(
                test,
                statistic,
                min(max(p, 0.0), 1.0),
                delta,
                float(interval[0]),
                float(interval[1]),
                wins,
                ties,
                losses,
                len(differences),
            )
        )
    return results


def _scipy_test(test, model: np.ndarray, baseline: np.ndarray) -> tuple[float, float]:
    """(statistic, p) of a scipy.stats paired test, quiet about near-constant input."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        outcome = test(model, baseline)
    return float(outcome.statistic), float(outcome.pvalue)


def adjust_p_values(p: Sequence[float], method: str = "holm") -> np.ndarray:
    """Family-wise error correction: Holm-Bonferroni (step-down), Bonferroni, or none."""
    values = np.asarray(p, dtype=np.float64)
    m = len(values)
    if method == "none" or m == 0:
        return values.copy()
    if method == "bonferroni":
        return np.minimum(values * m, 1.0)
    if method == "holm":
        order = np.argsort(values, kind="stable")
        stepped = np.maximum.accumulate(values[order] * (m - np.arange(m)))
        adjusted = np.empty(m)
        adjusted[order] = np.minimum(stepped, 1.0)
        return adjusted
    raise ValueError(f"unknown correction {method!r}; known: {', '.join(CORRECTIONS)}")
