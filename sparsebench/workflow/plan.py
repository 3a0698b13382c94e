"""The plan of an experiment, computed once from the validated config and read by the rule
files, the cost report and the Python API: every corpus and the datasets that read it,
every document and query encoding, every model's jobs and every output path.

Datasets that name the same documents share one corpus (sparsebench.data.corpora): it is
prepared once and encoded once per document encoding, and each model weighs it once.
Queries, judgments, runs and metrics stay per dataset.

Wildcards name what a job needs and the plan gives it by key: `{corpus}` the corpus, its
source and its datasets; `{encoder}` an encoding's settings; `{model}` the model's entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sparsebench.core.errors import ConfigError
from sparsebench.core.hashing import stable_hash
from sparsebench.data.corpora import check_languages, corpus_identity, corpus_label
from sparsebench.kinds.base import ModelKind
from sparsebench.kinds.registry import kind_of
from sparsebench.kinds.run import run_path
from sparsebench.kinds.splade import local_files
from sparsebench.runs.fusion.settings import Fusion, fusion_of
from sparsebench.workflow.config import is_variant, significance_metrics, tuning_metrics
from sparsebench.workflow.layout import (
    ENCODED,
    ENCODED_QUERIES,
    WEIGHTS,
    n_shards,
    partition_problem,
    partition_shards,
)

# --- what the plan holds ------------------------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    """The documents one or more datasets read."""

    name: str
    identity: dict[str, Any]  # what chooses the documents: the rerun trigger of prepare_corpus
    language: str
    datasets: tuple[str, ...]
    entry: dict[str, Any]  # the entry of the first dataset that reads it (its source)
    sample_of: str | None = None  # a subsample: the corpus it is drawn from

    @property
    def documents(self) -> str:
        """The corpus whose documents the datasets' judgments are checked against."""
        return self.sample_of or self.name


@dataclass(frozen=True)
class Encoding:
    """How one side (documents or queries) of a model is encoded."""

    name: str
    side: str
    settings: dict[str, Any]  # what changes the vectors: the rerun trigger
    runtime: dict[str, Any]  # what changes speed only (batch size, device)
    model_files: tuple[str, ...]  # local model files: inputs, so that new weights rerun
    threads: int
    hardware: str  # lexical, cpu or gpu (workflow.jobresources)
    documents: str | None = None  # a query encoding: the document encoding's vocabulary


def corpus_name(identity: dict[str, Any]) -> str:
    """`{label}-{hash}`: readable, and the same for every dataset that reads the corpus."""
    return f"{corpus_label(identity)}-{stable_hash(identity)[:10]}"


def encoding_name(kind: str, settings: Any) -> str:
    """`{kind}-{hash}`: models that encode alike share the name, hence the files."""
    return f"{kind}-{stable_hash(settings)[:12]}"


class Plan:
    """Everything the workflow will do for a validated config."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.config = config
        self.datasets: dict[str, dict[str, Any]] = dict(config["datasets"])
        self.models: dict[str, dict[str, Any]] = dict(config["models"])
        self.shard_size = int(config["corpus"]["shard_size"])
        self.partitions = int(config["retrieval"]["partitions"])
        # documents retrieved per query, by every model (a model has no k of its own: a
        # fusion's `k` is RRF's constant)
        self.k = int(config["retrieval"]["k"])
        self.corpora, self.corpus_of = self._corpora()
        self.encodings: dict[str, Encoding] = {}
        self.query_encodings: dict[str, Encoding] = {}
        self._pair_encodings: dict[tuple[str, str], tuple[str, str]] = {}
        for model, dataset in self.run_pairs:
            if self.kind(model).encodes:
                self._plan_encodings(model, dataset)

    # -- corpora -------------------------------------------------------------------------

    def _corpora(self) -> tuple[dict[str, Corpus], dict[str, str]]:
        found: dict[str, dict[str, Any]] = {}
        corpus_of: dict[str, str] = {}
        for dataset, entry in self.datasets.items():
            identity = corpus_identity(entry)
            name = corpus_name(identity)
            corpus_of[dataset] = name
            known = found.setdefault(name, {"identity": identity, "entry": entry, "languages": {}})
            known["languages"][dataset] = entry.get("language", "en")
            if "sample_of" in identity:  # the full corpus is prepared too, to draw from
                full = {k: v for k, v in entry.items() if k != "subsample"}
                base = corpus_identity(full)
                base_name = corpus_name(base)
                known["sample_of"] = base_name
                found.setdefault(base_name, {"identity": base, "entry": full, "languages": {}})
        check_languages(
            {name: known["languages"] for name, known in found.items() if known["languages"]}
        )
        corpora = {
            name: Corpus(
                name=name,
                identity=known["identity"],
                language=next(
                    iter(known["languages"].values()), known["entry"].get("language", "en")
                ),
                datasets=tuple(known["languages"]),
                entry=known["entry"],
                sample_of=known.get("sample_of"),
            )
            for name, known in found.items()
        }
        return corpora, corpus_of

    def corpus(self, dataset: str) -> Corpus:
        return self.corpora[self.corpus_of[dataset]]

    def readers(self, corpus: str) -> list[dict[str, Any]]:
        """The entries of the datasets that read the documents of `corpus` (a full corpus:
        its subsamples' datasets too), whose files are checked before it is fetched."""
        return [self.datasets[d] for d in self.datasets if self.corpus(d).documents == corpus]

    def language(self, dataset: str) -> str:
        return self.datasets[dataset].get("language", "en")

    # -- models --------------------------------------------------------------------------

    def kind(self, model: str) -> ModelKind:
        return kind_of(self.models[model])

    @cached_property
    def reported_models(self) -> list[str]:
        """Models on the leaderboard and in the significance tests: all but sweep variants."""
        return [m for m, entry in self.models.items() if not is_variant(entry)]

    def models_run_by(self, rule: str) -> list[str]:
        """The models whose runs `rule` writes (retrieve, import_run or tune)."""
        return [m for m in self.models if self.kind(m).run_rule == rule]

    @cached_property
    def evaluated_pairs(self) -> list[tuple[str, str]]:
        """(model, dataset) of every reported pair, except datasets an external run has no
        file for."""
        return [(m, d) for m in self.reported_models for d in self.datasets if self.has_run(m, d)]

    def has_run(self, model: str, dataset: str) -> bool:
        """Whether a model gets a run of a dataset: not an external run without a file
        there, nor a fusion (or a sweep of one) of a model without a run there."""
        return _entry_has_run(self.models, self.models[model], dataset)

    @cached_property
    def run_pairs(self) -> list[tuple[str, str]]:
        """(model, dataset) of every run made: the evaluated pairs, and after each tuned
        model's pair, its variants' on that dataset."""
        pairs = []
        for model, dataset in self.evaluated_pairs:
            pairs.append((model, dataset))
            if self.kind(model).run_rule == "tune":
                pairs += [(v, dataset) for v in self.variants(model)]
        return pairs

    def sweeps_on(self, dataset: str) -> dict[str, dict[str, Any]]:
        """The sweep of every tuned model evaluated on the dataset, by model."""
        tuned = set(self.models_run_by("tune"))
        pairs = [m for m, d in self.evaluated_pairs if m in tuned and d == dataset]
        return {m: self.models[m]["sweep"] for m in pairs}

    def variants(self, model: str) -> list[str]:
        """The variants of a tuned model, in grid order."""
        return list(self.models[model]["sweep"]["variants"])

    def reported_model(self, model: str) -> str:
        """The model a run counts for in the costs: a variant's tuned model, else itself."""
        return self.models[model].get("variant_of") or model

    # -- encodings -----------------------------------------------------------------------

    def _plan_encodings(self, model: str, dataset: str) -> None:
        entry, kind, language = self.models[model], self.kind(model), self.language(dataset)
        encodings = []
        for side in ("documents", "queries"):
            settings = kind.encoding(entry, side, language)
            named = settings
            if side == "queries":
                named = {"documents": encodings[0].name, "queries": settings}
            encoding = Encoding(
                name=encoding_name(settings["kind"], named),
                side=side,
                settings=settings,
                runtime=kind.runtime(entry, side),
                model_files=tuple(
                    f for source in kind.model_sources(entry, side) for f in local_files(source)
                ),
                threads=kind.encode_threads(side),
                hardware=kind.hardware(entry),
                documents=encodings[0].name if side == "queries" else None,
            )
            table = self.encodings if side == "documents" else self.query_encodings
            table.setdefault(encoding.name, encoding)
            encodings.append(encoding)
        self._pair_encodings[(model, dataset)] = (encodings[0].name, encodings[1].name)

    def encoders(self, model: str, dataset: str) -> tuple[str, str]:
        """(document encoding, query encoding) of a model on a dataset."""
        try:
            return self._pair_encodings[(model, dataset)]
        except KeyError:
            raise ConfigError(f"model {model} encodes nothing on {dataset}") from None

    def encoding(self, name: str) -> Encoding:
        return self.encodings.get(name) or self.query_encodings[name]

    @cached_property
    def encoded_corpora(self) -> list[tuple[str, str]]:
        """(document encoding, corpus) of every encoding of a corpus, in plan order."""
        found = {
            (self.encoders(m, d)[0], self.corpus_of[d]): None
            for m, d in self.run_pairs
            if self.kind(m).encodes
        }
        return list(found)

    @cached_property
    def weighed_corpora(self) -> list[tuple[str, str]]:
        """(model, corpus) of every corpus a model weighs."""
        found = {(m, self.corpus_of[d]): None for m, d in self.run_pairs if self.kind(m).encodes}
        return list(found)

    def encoding_users(self, encoder: str, corpus: str, dataset: str | None = None) -> list[str]:
        """The reported models that use a document (or query) encoding on a corpus (on
        one of its datasets)."""
        users = [
            self.reported_model(m)
            for m, d in self.run_pairs
            if self.kind(m).encodes
            and self.corpus_of[d] == corpus
            and dataset in (None, d)
            and encoder in self.encoders(m, d)
        ]
        return list(dict.fromkeys(users))

    # -- paths of a pair -----------------------------------------------------------------

    def weighed_encoding(self, model: str, corpus: str) -> str:
        """The document encoding of the corpus that a model weighs."""
        dataset = next(d for m, d in self.run_pairs if m == model and self.corpus_of[d] == corpus)
        return self.encoders(model, dataset)[0]

    def encoded(self, model: str, dataset: str, name: str) -> str:
        """A file of the corpus encoding a model searches on a dataset."""
        encoder, _ = self.encoders(model, dataset)
        return f"{ENCODED.format(encoder=encoder, corpus=self.corpus_of[dataset])}/{name}"

    def encoded_queries(self, model: str, dataset: str, name: str, queryset: str) -> str:
        encoder, query_encoder = self.encoders(model, dataset)
        folder = ENCODED_QUERIES.format(
            encoder=encoder,
            corpus=self.corpus_of[dataset],
            query_encoder=query_encoder,
            dataset=dataset,
            queryset=queryset,
        )
        return f"{folder}/{name}"

    def weights(self, model: str, dataset: str, name: str) -> str:
        """A file of the model's weighing of the dataset's corpus."""
        return f"{WEIGHTS.format(model=model, corpus=self.corpus_of[dataset])}/{name}"

    # -- settings each rule declares -----------------------------------------------------

    def weighting(self, model: str) -> dict[str, Any]:
        return self.kind(model).weighting(self.models[model])

    def feedback(self, model: str) -> dict[str, Any] | None:
        """How a model's queries are expanded before their search (sparsebench.feedback:
        its method's settings); None: no feedback."""
        return self.kind(model).feedback(self.models[model])

    def fusion(self, model: str) -> Fusion:
        """How a fusion model (`kind: fusion`, or a sweep's point of one) fuses its
        members' runs."""
        return fusion_of(self.models[model])

    def fingerprint(self, model: str, dataset: str | None = None) -> dict[str, Any]:
        language = self.language(dataset) if dataset else "en"
        return self.kind(model).fingerprint(self.models[model], language)

    def retrieval_settings(self, dataset: str) -> dict[str, Any]:
        """What changes a run file (batch size and memory budget only change speed)."""
        return {
            "k": self.k,
            "ignore_identical_ids": bool(self.datasets[dataset]["ignore_identical_ids"]),
        }

    @cached_property
    def searched_pairs(self) -> list[dict[str, Any]]:
        """How each evaluated pair searched here made its run, as the reproduction check
        holds it against published figures: model, dataset, the settings of its document
        encoding and its weighting."""
        return [
            {
                "model": model,
                "dataset": dataset,
                "documents": self.encoding(self.encoders(model, dataset)[0]).settings,
                "weighting": self.weighting(model),
            }
            for model, dataset in self.evaluated_pairs
            if self.kind(model).encodes
        ]

    def evaluation_settings(self, dataset: str) -> dict[str, Any]:
        """What changes the metric files of `dataset` (its relevance level may be its own)."""
        from sparsebench.evaluate.measures import (
            JUDGED_AT_10,
            default_metric_names,
            optimistic_name,
        )

        evaluation = self.config["evaluation"]
        cutoffs = sorted(int(k) for k in evaluation["cutoffs"])
        # Judged@10 and the primary metric's optimistic end: the leaderboard shows both
        upper = optimistic_name(evaluation["primary_metric"])
        extra = [JUDGED_AT_10, *([upper] if upper else [])]
        extra += significance_metrics(self.config) + tuning_metrics(self.config)
        return {
            "cutoffs": cutoffs,
            "metrics": list(dict.fromkeys(default_metric_names(cutoffs) + extra)),
            "query_set": evaluation["query_set"],
            "relevance_level": int(
                self.datasets[dataset].get("relevance_level", evaluation["relevance_level"])
            ),
        }

    def partition_groups(self, corpus: str, n_docs: int) -> list[range]:
        """The encoding shards of each of the corpus's `retrieval.partitions` partitions,
        once its size is known (prepare_corpus); more partitions than shards is refused,
        before any partition job, rather than quietly running fewer."""
        problem = partition_problem(corpus, n_docs, self.partitions, self.shard_size)
        if problem:
            raise ConfigError(problem)
        return partition_shards(n_shards(n_docs, self.shard_size), self.partitions)

    @cached_property
    def beir_archives(self) -> list[str]:
        """The BEIR archives the datasets read, by name."""
        names = [e["name"] for e in self.datasets.values() if e["source"] == "beir"]
        return list(dict.fromkeys(names))

    def beir_entry(self, name: str) -> dict[str, Any]:
        """The first dataset entry that reads the BEIR archive `name`."""
        for entry in self.datasets.values():
            if entry["source"] == "beir" and entry["name"] == name:
                return entry
        raise ConfigError(f"no BEIR dataset named {name!r} in the config")


def _entry_has_run(models: Mapping[str, Any], entry: Mapping[str, Any], dataset: str) -> bool:
    from pathlib import Path

    rule = kind_of(entry).run_rule
    if rule == "import_run":
        return Path(run_path(entry, dataset)).expanduser().is_file()
    if rule == "fuse":
        return all(_entry_has_run(models, models[m], dataset) for m in entry["runs"])
    if rule == "tune":
        return _entry_has_run(models, entry["base"], dataset)
    return True
