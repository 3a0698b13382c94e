"""The feedback methods, one entry each (a model's `feedback: {method: ...}`): its module
(with `expand` and DEFAULTS), what it is and its source. A new method is a module and an
entry."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sparsebench.core.errors import ConfigError

SHARED = {"cutoff": 50}  # the first retrieval's depth (Anserini's -rerankCutoff)


@dataclass(frozen=True)
class Method:
    name: str
    module: str
    description: str
    source: str

    @property
    def defaults(self) -> dict[str, Any]:
        return {**SHARED, **importlib.import_module(self.module).DEFAULTS}

    def expand(self, *args: Any) -> Any:
        return importlib.import_module(self.module).expand(*args)


METHODS = {
    method.name: method
    for method in (
        Method(
            "rm3",
            "sparsebench.feedback.rm3",
            "the relevance model of the top documents, interpolated with the query",
            "Anserini's Rm3Reranker (-rm3: fbDocs 10, fbTerms 10, originalQueryWeight 0.5)",
        ),
        Method(
            "rocchio",
            "sparsebench.feedback.rocchio",
            "the query plus the mean of the top documents' vectors (less the bottom's)",
            "Anserini's RocchioReranker (-rocchio: topFbDocs 10, topFbTerms 10, alpha 1, "
            "beta 0.75; -rocchio.useNegative: bottomFbDocs 10, gamma 0.15)",
        ),
    )
}


def feedback_settings(feedback: Mapping[str, Any]) -> dict[str, Any]:
    """A model's `feedback` with its method's defaults; keys of another method refused."""
    name = feedback.get("method")
    if name not in METHODS:
        raise ConfigError(f"feedback method {name!r}; known: {', '.join(METHODS)}")
    defaults = METHODS[name].defaults
    unknown = sorted(set(feedback) - set(defaults) - {"method"})
    if unknown:
        raise ConfigError(
            f"feedback method {name} takes {', '.join(sorted(defaults))}, not {', '.join(unknown)}"
        )
    return {"method": name, **defaults, **{k: v for k, v in feedback.items() if k != "method"}}


def methods_table() -> str:
    """The docs' table of the feedback methods, made from METHODS."""
    rows = ["| method | what | settings (defaults) | as |", "|---|---|---|---|"]
    for method in METHODS.values():
        defaults = ", ".join(f"{k}: {v}" for k, v in method.defaults.items())
        rows.append(f"| `{method.name}` | {method.description} | {defaults} | {method.source} |")
    return "\n".join(rows)
