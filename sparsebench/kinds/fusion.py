"""Fusion of other models' runs (`kind: fusion`): hybrid BM25 + SPLADE and the like, a
model whose run of a dataset fuses its members' runs of that dataset
(sparsebench.retrieve.fusion)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from sparsebench.errors import ConfigError
from sparsebench.kinds.base import Entry, ModelKind
from sparsebench.retrieve.fusion import METHODS, NORMS, RRF_K, fusion_of


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
            "method": {"enum": list(METHODS), "default": "rrf"},
            "norm": {
                "enum": list(NORMS),
                "default": "min-max",
                "description": "Per query and run, before combsum, combmnz, combmax, wsum.",
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
                "description": "wsum: a weight per fused model (1 when not given).",
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


def check_fusions(models: Mapping[str, Mapping[str, Any]]) -> None:
    """Across a config's models (sweeps expanded): a fusion fuses models of the config,
    never itself (not even through another fusion), and a sweep of one chooses by
    cross-validation: its points need only the members' runs of the evaluated queries."""

    def members(name: str) -> list[str]:
        entry = models[name]
        entry = entry.get("base", entry) if entry["kind"] == "tuned" else entry
        return list(entry["runs"]) if entry["kind"] == "fusion" else []

    for name, entry in models.items():
        unknown = [m for m in members(name) if m not in models]
        if unknown:
            raise ConfigError(
                f"config.models.{name}.runs: {unknown} are not models; models: {', '.join(models)}"
            )
        if entry["kind"] == "tuned" and members(name) and entry["sweep"]["method"] != "cv":
            raise ConfigError(
                f"config.models.{name}.tune.method: a fusion's sweep chooses by cross-validation "
                "over the evaluated queries (set tune: {method: cv})"
            )
    for name in models:
        seen, todo = set(), members(name)
        while todo:
            member = todo.pop()
            if member == name:
                raise ConfigError(f"config.models.{name}.runs: the fusion fuses itself")
            if member not in seen:
                seen.add(member)
                todo += members(member)
