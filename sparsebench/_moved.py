"""The module names of sparsebench before its subpackages, still importable.

`import sparsebench.metrics` (or `from sparsebench.stages import prepare`) gives a module
holding the public names of the modules that took its place, with a DeprecationWarning
that names them. New code imports from the subpackages: sparsebench's own code never uses
these names (tests/test_package_layout.py), since the code digests of the workflow's
stages read module files, and these modules have none.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings

_STAGES = tuple(
    f"sparsebench.{family}.stages"
    for family in ("data", "encode", "retrieve", "tune", "evaluate", "report", "partitions")
)

MOVED: dict[str, tuple[str, ...]] = {
    "sparsebench.accelerators": ("sparsebench.encode.accelerators",),
    "sparsebench.analysis": ("sparsebench.encode.analysis",),
    "sparsebench.codehash": ("sparsebench.workflow.codehash",),
    "sparsebench.collection": ("sparsebench.data.collection",),
    "sparsebench.comparisons": ("sparsebench.evaluate.comparisons",),
    "sparsebench.config": ("sparsebench.workflow.config", "sparsebench.workflow.params"),
    "sparsebench.costs": ("sparsebench.report.costs",),
    "sparsebench.custom": ("sparsebench.encode.custom",),
    "sparsebench.datasetchecks": ("sparsebench.data.checks",),
    "sparsebench.download": ("sparsebench.data.download",),
    "sparsebench.encoders": ("sparsebench.encode.encoders",),
    "sparsebench.exactscores": ("sparsebench.retrieve.exactscores",),
    "sparsebench.hub": (
        "sparsebench.data.hub",
        "sparsebench.data.miracl",
        "sparsebench.data.mmarco",
    ),
    "sparsebench.irdatasets": ("sparsebench.data.irdatasets",),
    "sparsebench.jobresources": ("sparsebench.workflow.jobresources",),
    "sparsebench.leaderboard": ("sparsebench.evaluate.leaderboard",),
    "sparsebench.logs": ("sparsebench.workflow.logs", "sparsebench.progress"),
    "sparsebench.lucene_porter": ("sparsebench.encode.lucene_porter",),
    "sparsebench.lucene_tokenizer": ("sparsebench.encode.lucene_tokenizer",),
    "sparsebench.measures": ("sparsebench.evaluate.measures",),
    "sparsebench.metrics": ("sparsebench.evaluate.metrics",),
    "sparsebench.prepare": (
        "sparsebench.data.prepare",
        "sparsebench.data.records",
        "sparsebench.data.qrels",
    ),
    "sparsebench.provenance": ("sparsebench.workflow.provenance",),
    "sparsebench.pruning": ("sparsebench.encode.pruning",),
    "sparsebench.ranking": ("sparsebench.evaluate.ranking",),
    "sparsebench.reproduction": ("sparsebench.evaluate.reproduction",),
    "sparsebench.retrieval": ("sparsebench.retrieve.scipy_backend",),
    "sparsebench.retrieval_torch": ("sparsebench.retrieve.torch_backend",),
    "sparsebench.runfile": ("sparsebench.retrieve.runfile",),
    "sparsebench.significance": ("sparsebench.evaluate.significance",),
    "sparsebench.sparse": ("sparsebench.encode.sparse",),
    "sparsebench.splade": ("sparsebench.encode.splade",),
    "sparsebench.stages": _STAGES,
    "sparsebench.stats": ("sparsebench.data.stats",),
    "sparsebench.textfiles": ("sparsebench.data.textfiles",),
    "sparsebench.tuning": ("sparsebench.tune.sweeps",),
    "sparsebench.weighting": ("sparsebench.encode.weighting",),
}


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old names, after every other finder (so a real module always wins)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        targets = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} is now {' and '.join(targets)}; import from there",
            DeprecationWarning,
            stacklevel=2,
        )
        modules = [importlib.import_module(name) for name in targets]
        module = types.ModuleType(spec.name, f"Moved: see {', '.join(targets)}.")
        for source in reversed(modules):  # the first named module wins a shared name
            module.__dict__.update(
                {k: v for k, v in vars(source).items() if not k.startswith("__")}
            )
        return module

    def exec_module(self, module) -> None:
        """The module is complete when created."""


def install() -> None:
    if not any(isinstance(finder, MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(MovedModules())
