"""Parameter sweeps chosen honestly: on training queries, then scored once on held-out ones.

A model entry may give a parameter as a grid (`{grid: [0.5, 0.9, 1.2]}`) or a range
(`{range: [0.0, 1.0, 0.1]}`, both ends included). Each point of the product of its grids
becomes a variant model (named like `bm25-tuned+k1_0.9+b_0.4`),
with its own jobs; variants that encode documents the same way share their shards.

Without training queries, the choice is made by k-fold cross-validation over the test
queries (as Anserini does for Robust04): the judged queries are split into folds with a
fixed seed; for each fold the point with the best mean metric over the *other* folds is
chosen, and its results on the fold's own queries go into the tuned run. Each query's
score thus comes from a point chosen without it, and the tuned run is evaluated like any
other run (its mean over queries is the held-out score).

This module says what a sweep is (its variants, and whether it chooses on a training
split), which the config's checks and the plan read; sparsebench.tune.selection makes
the choice.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sparsebench.core.errors import ConfigError

SWEEP_KEYS = ("grid", "range")
# auto: the dataset's training split when it has one, else cross-validation;
# split: the training split or an error; cv: cross-validation over the evaluated queries
METHODS = ("auto", "split", "cv")
VARIANT_SEPARATOR = "+"


def is_sweep_value(value: Any) -> bool:
    return isinstance(value, Mapping) and len(value) == 1 and next(iter(value)) in SWEEP_KEYS


def grid_values(spec: Mapping[str, Any], where: str) -> list[float | int]:
    """The points of `{grid: [...]}` or `{range: [start, stop, step]}` (stop included)."""
    if "grid" in spec:
        values = list(spec["grid"])
        if not values or not all(isinstance(v, int | float) for v in values):
            raise ConfigError(f"{where}.grid: a non-empty list of numbers, got {values!r}")
        if len(set(values)) != len(values):
            raise ConfigError(f"{where}.grid: repeated values in {values!r}")
        return values
    bounds = spec["range"]
    if (
        not isinstance(bounds, Sequence)
        or len(bounds) != 3
        or not all(isinstance(v, int | float) for v in bounds)
        or bounds[2] <= 0
        or bounds[1] < bounds[0]
    ):
        raise ConfigError(f"{where}.range: [start, stop, step] with stop >= start and step > 0")
    start, stop, step = bounds
    count = math.floor((stop - start) / step + 1e-9) + 1
    integral = all(isinstance(v, int) for v in bounds)
    values = [start + i * step for i in range(count)]
    return [int(v) for v in values] if integral else [round(v, 10) for v in values]


def _format_value(value: float | int) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


def variant_name(model: str, point: Mapping[str, Any]) -> str:
    """A variant's model name: bm25-tuned+k1_0.9+b_0.4."""
    return "".join(
        f"{VARIANT_SEPARATOR}{key}_{_format_value(value)}" for key, value in point.items()
    ).join([model, ""])


@dataclass(frozen=True)
class Sweep:
    """A swept model: its grids, its variants (name -> point) and how the point is chosen."""

    model: str
    parameters: dict[str, list[float | int]]
    variants: dict[str, dict[str, float | int]]
    metric: str | None
    folds: int
    seed: int
    method: str = "auto"  # auto: a training split when the dataset has one, else cv

    @classmethod
    def from_dict(cls, model: str, entry: Mapping[str, Any]) -> Sweep:
        return cls(
            model=model,
            parameters={k: list(v) for k, v in entry["parameters"].items()},
            variants={k: dict(v) for k, v in entry["variants"].items()},
            metric=entry["metric"],
            folds=int(entry["folds"]),
            seed=int(entry["seed"]),
            method=entry["method"],
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "parameters": self.parameters,
            "variants": self.variants,
            "metric": self.metric,
            "method": self.method,
            "folds": self.folds,
            "seed": self.seed,
        }


def expand_sweep(
    name: str, entry: Mapping[str, Any], primary_metric: str
) -> tuple[Sweep, dict[str, dict[str, Any]]] | None:
    """(the sweep, variant entries) of a model entry with grid or range values; None for a
    plain entry."""
    swept = {key: value for key, value in entry.items() if is_sweep_value(value)}
    for key, value in entry.items():  # one level down: a fusion's weights per run
        if isinstance(value, Mapping) and not is_sweep_value(value):
            swept.update(
                {f"{key}.{sub}": spec for sub, spec in value.items() if is_sweep_value(spec)}
            )
    if not swept:
        if "tune" in entry:
            raise ConfigError(f"config.models.{name}.tune: no parameter has a grid or range")
        return None
    parameters = {
        key: grid_values(spec, f"config.models.{name}.{key}") for key, spec in swept.items()
    }
    tune = dict(entry.get("tune") or {})
    unknown = set(tune) - {"metric", "folds", "seed", "method"}
    if unknown:
        raise ConfigError(f"config.models.{name}.tune: unknown keys {sorted(unknown)}")
    method = tune.get("method", "auto")
    if method not in METHODS:
        raise ConfigError(
            f"config.models.{name}.tune.method: {method!r}; one of {', '.join(METHODS)}"
        )
    folds = tune.get("folds", 5)
    if not isinstance(folds, int) or folds < 2:
        raise ConfigError(f"config.models.{name}.tune.folds: an integer >= 2, got {folds!r}")
    base = without_parameters({k: v for k, v in entry.items() if k != "tune"}, swept)
    variants: dict[str, dict[str, Any]] = {}
    entries: dict[str, dict[str, Any]] = {}
    for values in itertools.product(*parameters.values()):
        point = dict(zip(parameters, values, strict=True))
        variant = variant_name(name, point)
        variants[variant] = point
        entries[variant] = with_point(base, point)
    sweep = Sweep(
        model=name,
        parameters=parameters,
        variants=variants,
        metric=tune.get("metric", primary_metric),  # None: the primary metric, once known
        folds=folds,
        seed=int(tune.get("seed", 42)),
        method=method,
    )
    return sweep, entries


def without_parameters(entry: Mapping[str, Any], parameters: Iterable[str]) -> dict[str, Any]:
    """An entry without its swept parameters: `key`, or `key.sub` for the value under
    `sub` of a mapping (a fusion's `weights.bm25`)."""
    out = dict(entry)
    for name in parameters:
        if name in out:
            del out[name]
            continue
        key, _, sub = name.partition(".")
        if isinstance(out.get(key), Mapping):
            out[key] = {s: v for s, v in out[key].items() if s != sub}
    return out


def with_point(base: Mapping[str, Any], point: Mapping[str, Any]) -> dict[str, Any]:
    """A variant's entry: the base with the point's values (`key.sub` under `key`)."""
    out = dict(base)
    for name, value in point.items():
        key, _, sub = name.partition(".")
        if sub and isinstance(base.get(key), Mapping):
            out[key] = {**out[key], sub: value}
        else:
            out[name] = value
    return out


def describe(sweep: Mapping[str, Any], methods: Mapping[str, str] | None = None) -> str:
    """One line that says how a tuned model was tuned (for the leaderboard); `methods`:
    dataset -> how its point was chosen (from the selection files)."""
    grids = " x ".join(
        f"{name} in {{{', '.join(_format_value(v) for v in values)}}}"
        for name, values in sweep["parameters"].items()
    )
    how = {
        "cv": f"by {sweep['folds']}-fold cross-validation over the evaluated queries "
        f"(seed {sweep['seed']})",
        "split": "on the dataset's training split",
        "auto": "on the dataset's training split when it has one, else by "
        f"{sweep['folds']}-fold cross-validation over the evaluated queries (seed {sweep['seed']})",
    }[sweep["method"]]
    per_dataset = "; ".join(f"{d}: {m}" for d, m in (methods or {}).items())
    return f"{grids} ({len(sweep['variants'])} points), chosen {how} on {sweep['metric']}" + (
        f" [{per_dataset}]" if per_dataset else ""
    )


def uses_training_split(
    model: str, sweep: Mapping[str, Any], dataset_info: Mapping[str, Any]
) -> bool:
    """Whether the sweep of `model` chooses on the dataset's training split (else
    cross-validation, refused here when there are more folds than judged queries: by the
    plan when the dataset's files are at hand, else once prepare has counted them, before
    any variant runs)."""
    split = dataset_info.get("tuning_split")
    if sweep["method"] == "split" and not split:
        raise ConfigError(
            f"config.models.{model}.tune.method: split, but dataset {dataset_info['name']} "
            "has no training split (set the dataset's tuning_split, or use method auto or cv)"
        )
    on_split = sweep["method"] != "cv" and bool(split)
    judged = dataset_info.get("n_judged_queries")
    if not on_split and judged is not None and sweep["folds"] > judged:
        raise ConfigError(
            f"config.models.{model}.tune.folds: {sweep['folds']} folds, but dataset "
            f"{dataset_info['name']} has {judged} judged queries to cross-validate over; "
            f"use at most {judged} folds"
        )
    return on_split
