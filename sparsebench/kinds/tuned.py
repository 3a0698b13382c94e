"""A tuned model: the run of the sweep variant chosen on training queries, or composed
by cross-validation (sparsebench.tune). Made by the config's validation from a model
with grid or range values, never written by hand."""

from __future__ import annotations

from typing import Any, ClassVar

from sparsebench.kinds.base import Entry, ModelKind


class Tuned(ModelKind):
    name = "tuned"
    description = "The chosen point of a parameter sweep."
    run_rule = "tune"
    configurable = False
    schema: ClassVar[dict[str, Any]] = {}  # not configurable: validation writes it

    def fingerprint(self, entry: Entry, language: str = "en") -> dict[str, Any]:
        return {"base": entry["base"], "sweep": entry["sweep"]}


TUNED_KIND = Tuned()
