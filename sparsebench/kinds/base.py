"""What the workflow asks of a kind of model. A kind is one object (a subclass of
ModelKind, in its own module) listed in sparsebench.kinds.registry: its config schema,
what it encodes on each side, how it weighs the documents, which rule writes its runs and
what its encoding jobs need. Nothing else in the package branches on a kind's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from sparsebench.core.errors import ConfigError
from sparsebench.encode.schemes import SCHEMES

Entry = Mapping[str, Any]
SIDES = ("documents", "queries")
IDF = (
    "The IDF each query term's weight is multiplied by, from the term's document frequency "
    "df and the corpus's N (sparsebench.encode.idf): lucene = ln(1 + (N - df + 0.5) / (df "
    "+ 0.5)), as Lucene and bm25s; classic = log2(N / df); robertson = ln((N - df + 0.5) / "
    "(df + 0.5)), 0 where df > N/2; none = no IDF. Applied at search time: models that "
    "differ only in it share their encoding."
)


def idf_setting(scheme: str, default: str) -> dict[str, Any]:
    """The `idf` key of a kind weighing by `scheme` (sparsebench.encode.schemes): the IDF
    variants the scheme takes, `default` when none is given."""
    return {"enum": list(SCHEMES[scheme].idfs), "default": default, "description": IDF}


class ModelKind:
    """A kind of model. Subclasses set the class attributes and override what applies.

    run_rule says how a model of the kind gets its run of a dataset:
      retrieve    it encodes documents and queries; the corpus is weighed and searched
      import_run  it reads a run someone else made
      fuse        it fuses other models' runs of the dataset
      tune        it composes the runs of its sweep's variants
    """

    name: ClassVar[str]
    description: ClassVar[str]
    # the JSON schema of an entry of this kind (beside `kind`), with its defaults; it may
    # refer to the shared definitions of the config schema (#/$defs/...)
    schema: ClassVar[dict[str, Any]]
    run_rule: ClassVar[str] = "retrieve"
    configurable: ClassVar[bool] = True  # a user writes `kind: <name>` (tuned: made by sweeps)
    # keys of an entry that hold a local path (relative: to the config file naming it), and
    # keys that hold a local path or a hub id (workflow.config.resolve_relative_paths); a
    # dotted key names a nested setting (analyzer.huggingface)
    path_keys: ClassVar[tuple[str, ...]] = ()
    path_or_hub_keys: ClassVar[tuple[str, ...]] = ()
    # keys of an entry that change speed only (runtime): no rerun follows them
    speed_settings: ClassVar[tuple[str, ...]] = ()

    @property
    def encodes(self) -> bool:
        return self.run_rule == "retrieve"

    def problems(self, entry: Entry) -> list[str]:
        """What the schema cannot say about an entry (one line each, without its path)."""
        return self.missing_folders(entry)

    # -- encoding kinds ----------------------------------------------------------------

    def encoding(self, entry: Entry, side: str, language: str) -> dict[str, Any]:
        """What changes the encoded documents (or queries) of a dataset in `language`: the
        settings of its encoding jobs, and (hashed) the name of the encoding."""
        raise ConfigError(f"models of kind {self.name} encode nothing: they are not searched")

    def runtime(self, entry: Entry, side: str) -> dict[str, Any]:
        """Settings that change speed only (batch size, device): never a rerun trigger."""
        return {}

    def weighting(self, entry: Entry) -> dict[str, Any]:
        """What changes the document weights and the IDF (sparsebench.encode.weighting)."""
        raise ConfigError(f"models of kind {self.name} weigh nothing: they are not searched")

    def feedback(self, entry: Entry) -> dict[str, Any] | None:
        """Pseudo-relevance feedback before the search (sparsebench.feedback.methods), with
        its method's defaults; None: the query is searched as encoded."""
        return None

    def pruning(self, entry: Entry) -> dict[str, Any]:
        """Static pruning of each document's weights ({top_k, threshold}; none: {})."""
        return {}

    def model_sources(self, entry: Entry, side: str | None = None) -> list[str]:
        """The model folders or hub ids the kind reads (on one side, or both)."""
        return []

    def missing_folders(self, entry: Entry) -> list[str]:
        """Problems of model sources that are local paths (see is_local_path) with no
        folder there: seen when the config is read, not when the encoding job starts."""
        return [
            f"no model folder {source} (a local path, as it starts with '.', '/' or '~'; "
            "a hub id looks like org/name)"
            for source in self.model_sources(entry)
            if is_local_path(source) and not Path(source).expanduser().is_dir()
        ]

    def encode_threads(self, side: str) -> int:
        return 1

    def hardware(self, entry: Entry) -> str:
        """What an encoding job runs on, for its resource requests (workflow.jobresources):
        lexical (a CPU core), gpu or cpu (a neural encoder on either)."""
        return "lexical"

    # -- every kind ----------------------------------------------------------------------

    def fingerprint(self, entry: Entry, language: str = "en") -> dict[str, Any]:
        """Every setting of a model that changes its results (not batch sizes or devices)."""
        feedback = self.feedback(entry)
        return {
            "documents": self.encoding(entry, "documents", language),
            "queries": self.encoding(entry, "queries", language),
            "weighting": self.weighting(entry),
            **({"feedback": feedback} if feedback else {}),
        }


def is_local_path(value: str) -> bool:
    """A value written as a path ('./m', '../m', '/m', '~/m'), not a hub id ('org/name');
    a value in neither form is a path only where it names something that exists (which
    workflow.config.resolve_relative_paths decides against the config file's folder)."""
    return value.startswith((".", "/", "~")) or Path(value).is_absolute()
