"""Fusion of other models' runs (`kind: fusion`): hybrid BM25 + SPLADE and the like, a
model whose run of a dataset fuses its members' runs of that dataset
(sparsebench.runs.fusion: its methods and norms are those the registry there lists)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from sparsebench.core.errors import ConfigError
from sparsebench.kinds.base import Entry, ModelKind
from sparsebench.runs.fusion.norms import NORMS
from sparsebench.runs.fusion.registry import METHODS, normalising, weighted
from sparsebench.runs.fusion.rrf import RRF_K
from sparsebench.runs.fusion.settings import fusion_of


class FusionKind(ModelKind):
    name = "fusion"
    description = "The fusion of other models' runs of each dataset (RRF, CombSUM, ...)."
    run_rule = "fuse"
    schema: ClassVar[dict[str, Any]] = {
        "required": ["runs"],
        "properties": {
            "runs": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 2,
                "uniqueItems": True,
                "description": "The models whose runs are fused (two or more).",
            },
            "method": {
                "enum": list(METHODS),
                "default": "rrf",
                "description": "How the values a document gets from the runs that retrieved "
                f"it (its ranks, or for {', '.join(normalising())} its scores normalised by "
                "`norm`) combine into its fused score; formulas on the fusion methods page.",
            },
            "norm": {
                "enum": list(NORMS),
                "default": "min-max",
                "description": f"Per query and run, before {', '.join(normalising())}.",
            },
            "k": {
                "type": "number",
                "minimum": 0,
                "default": RRF_K,
                "description": "RRF's constant: 1 / (k + rank).",
            },
            "weights": {
                "type": "object",
                "additionalProperties": {"type": "number"},
                "description": f"{', '.join(weighted())}: a weight per fused model (1 when "
                "not given).",
            },
            "depth": {
                "type": "integer",
                "minimum": 1,
                "description": "The top of each run that is fused (default: all of it).",
            },
        },
    }

    def problems(self, entry: Entry) -> list[str]:
        try:
            fusion_of(entry)
        except ConfigError as error:
            return [str(error)]
        return []

    def fingerprint(self, entry: Entry, language: str = "en") -> dict[str, Any]:
        fusion = fusion_of(entry)
        return {
            "fusion": {
                "runs": list(fusion.runs),
                "method": fusion.method,
                "norm": fusion.norm,
                "k": fusion.k,
                "weights": dict(sorted(fusion.weights.items())),
                "depth": fusion.depth,
            }
        }


FUSION_KIND = FusionKind()


def members(models: Mapping[str, Mapping[str, Any]], name: str) -> list[str]:
    """The models a fusion (or a sweep of one) fuses; none for another model."""
    entry = models[name]
    entry = entry.get("base", entry) if entry["kind"] == "tuned" else entry
    return list(entry["runs"]) if entry["kind"] == "fusion" else []


def fused_models(models: Mapping[str, Mapping[str, Any]], name: str) -> list[str]:
    """Every model a fusion reaches, through fusions of fusions (itself if it loops)."""
    found: list[str] = []
    todo = members(models, name)
    while todo:
        member = todo.pop()
        if member not in found and member in models:
            found.append(member)
            todo += members(models, member)
    return found


def check_fusions(models: Mapping[str, Mapping[str, Any]], run_rules: Mapping[str, str]) -> None:
    """Across a config's models (sweeps expanded): a fusion fuses models of the config,
    never itself (not even through another fusion); a sweep of one that may choose on a
    training split fuses only models searched here (they run the training queries).
    `run_rules`: each model's kind's run_rule."""
    for name in models:
        unknown = [m for m in members(models, name) if m not in models]
        if unknown:
            raise ConfigError(
                f"config.models.{name}.runs: {unknown} are not models; models: {', '.join(models)}"
            )
    for name, entry in models.items():
        reached = fused_models(models, name)
        if name in reached:
            raise ConfigError(f"config.models.{name}.runs: the fusion fuses itself")
        if entry["kind"] == "tuned" and reached and entry["sweep"]["method"] != "cv":
            unsearched = [m for m in reached if run_rules[m] not in ("retrieve", "fuse")]
            if unsearched:
                raise ConfigError(
                    f"config.models.{name}.tune.method: choosing on a training split fuses "
                    f"the runs of the training queries, which {unsearched} do not have (runs "
                    "made elsewhere, tuned models); set tune: {method: cv}"
                )
