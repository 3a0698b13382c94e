"""Every job of an experiment's pipeline, from the plan: what the cost report lists and
attributes (sparsebench.report.costs), and what tests hold the rules' benchmark files
against.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain

from sparsebench.kinds.fusion import fused_models
from sparsebench.workflow.layout import QUERYSETS, RULES, benchmark_path, partition_shards
from sparsebench.workflow.plan import Plan


@dataclass(frozen=True)
class Job:
    """One job of the pipeline: its rule, wildcards and the reported models it serves."""

    rule: str
    wildcards: dict[str, str]
    dataset: str  # blank for jobs over every dataset; a corpus's datasets, comma-separated
    models: tuple[str, ...]  # blank tuple: every model

    @property
    def benchmark(self) -> str:
        return benchmark_path(self.rule, **self.wildcards)

    def record(self) -> dict[str, str]:
        """The job as a row of the cost table (sparsebench.report.costs.COLUMNS)."""
        w = self.wildcards
        return {
            "rule": self.rule,
            "dataset": self.dataset,
            "model": w.get("model", ""),
            "encoder": w.get("encoder", ""),
            "shard": w.get("shard", w.get("partition", "")),
            "models": ",".join(self.models),
            "benchmark": self.benchmark,
        }


def pipeline_jobs(
    plan: Plan, shards: Mapping[str, int], training: Mapping[str, bool], downloads: bool = True
) -> list[Job]:
    """Every job of the pipeline from download to leaderboard, in pipeline order (the
    report's own jobs excluded). shards: the encoding shards of each corpus (known
    once it is prepared); training: whether a dataset's sweeps choose on a training
    split (known once the dataset is prepared); downloads: list the BEIR downloads."""
    return _in_pipeline_order(
        chain(corpus_jobs(plan, shards, downloads), _query_jobs(plan, shards, training))
    )


def corpus_jobs(plan: Plan, shards: Mapping[str, int], downloads: bool = True) -> list[Job]:
    """The jobs known before any dataset is prepared: downloads, preparation, and each
    corpus's encoding and weighing, in pipeline order. A rule that waits for their
    benchmark files asks for these apart from the rest, so that Snakemake sees a job
    among them to redo (a hard kill left its benchmark file unwritten) before it starts
    the jobs that read that job's outputs."""
    return _in_pipeline_order(_corpus_jobs(plan, shards, downloads))


def _in_pipeline_order(jobs: Iterable[Job]) -> list[Job]:
    found: dict[str, list[Job]] = {rule: [] for rule in RULES}
    for job in jobs:
        if job not in found[job.rule]:
            found[job.rule].append(job)
    return [job for rule in RULES for job in found[rule]]


def _corpus_jobs(plan: Plan, shards: Mapping[str, int], downloads: bool) -> Iterator[Job]:
    if downloads:
        for name in plan.beir_archives:
            users = [
                d for d, e in plan.datasets.items() if e["source"] == "beir" and e["name"] == name
            ]
            yield Job("download_beir", {"name": name}, ",".join(users), ())
    for corpus in plan.corpora.values():
        yield Job("prepare_corpus", {"corpus": corpus.name}, ",".join(corpus.datasets), ())
    for dataset in plan.datasets:
        yield Job("prepare", {"dataset": dataset}, dataset, ())
    for encoder, corpus in plan.encoded_corpora:
        on = ",".join(plan.corpora[corpus].datasets)
        users = tuple(plan.encoding_users(encoder, corpus))
        for shard in range(shards[corpus]):
            wildcards = {"encoder": encoder, "corpus": corpus, "shard": str(shard)}
            yield Job("encode_corpus_shard", wildcards, on, users)
        stack = "stack_shards" if plan.partitions == 1 else "vocabulary"
        yield Job(stack, {"encoder": encoder, "corpus": corpus}, on, users)
    for model, corpus in plan.weighed_corpora:
        on, served = ",".join(plan.corpora[corpus].datasets), (plan.reported_model(model),)
        count = len(partition_shards(shards[corpus], plan.partitions))
        if plan.partitions == 1:
            yield Job("term_weights", {"model": model, "corpus": corpus}, on, served)
            continue
        per_partition = [
            {"model": model, "corpus": corpus, "partition": str(p)} for p in range(count)
        ]
        yield from (Job("partition_statistics", w, on, served) for w in per_partition)
        yield Job("global_statistics", {"model": model, "corpus": corpus}, on, served)
        yield from (Job("partition_postings", w, on, served) for w in per_partition)


def _query_jobs(
    plan: Plan, shards: Mapping[str, int], training: Mapping[str, bool]
) -> Iterator[Job]:
    for model, dataset in plan.run_pairs:
        yield from _pair_jobs(plan, model, dataset, shards, training)
    yield Job("significance", {}, "", ())
    yield Job("leaderboard", {}, "", ())


def querysets(
    plan: Plan, model: str, dataset: str, training: Mapping[str, bool]
) -> tuple[str, ...]:
    """The query sets a model's run is made on: a sweep variant also runs the training
    queries when its sweep chooses on them, and so does every model a fusion among
    such variants fuses (its runs of the training queries are fused)."""
    if _scored_on_split(plan, model, dataset, training) or model in _fused_on_split(
        plan, dataset, training
    ):
        return QUERYSETS
    return ("evaluation",)


def _scored_on_split(plan: Plan, model: str, dataset: str, training: Mapping[str, bool]) -> bool:
    """A sweep variant whose sweep chooses on the dataset's training split."""
    owner = plan.reported_model(model)
    return owner != model and bool(training.get(dataset)) and _chooses_on_split(plan, owner)


def _fused_on_split(plan: Plan, dataset: str, training: Mapping[str, bool]) -> set[str]:
    """The models whose runs of the training queries fusions scored on the split fuse,
    through fusions of fusions."""
    scored = [m for m in plan.models if _scored_on_split(plan, m, dataset, training)]
    return {member for m in scored for member in fused_models(plan.models, m)}


def _chooses_on_split(plan: Plan, tuned: str) -> bool:
    return plan.models[tuned]["sweep"]["method"] != "cv"


def _pair_jobs(
    plan: Plan, model: str, dataset: str, shards: Mapping[str, int], training: Mapping[str, bool]
) -> Iterator[Job]:
    pair, served = {"model": model, "dataset": dataset}, (plan.reported_model(model),)
    rule = plan.kind(model).run_rule
    sets = querysets(plan, model, dataset, training)
    evaluation = (
        "evaluate_tuning" if _scored_on_split(plan, model, dataset, training) else "evaluate"
    )
    if rule != "retrieve":
        yield Job(rule, pair, dataset, served)
        if rule == "fuse" and len(sets) > 1:
            yield Job("fuse_tuning", pair, dataset, served)
        yield Job(evaluation, pair, dataset, served)
        return
    encoder, query_encoder = plan.encoders(model, dataset)
    corpus = plan.corpus_of[dataset]
    count = len(partition_shards(shards[corpus], plan.partitions))
    for queryset in sets:
        wildcards = {
            "encoder": encoder,
            "corpus": corpus,
            "query_encoder": query_encoder,
            "dataset": dataset,
            "queryset": queryset,
        }
        users = tuple(plan.encoding_users(query_encoder, corpus, dataset))
        yield Job("encode_queries", wildcards, dataset, users)
        suffix = "" if queryset == "evaluation" else "_tuning"
        if plan.partitions == 1:
            yield Job(f"retrieve{suffix}", pair, dataset, served)
        else:
            for p in range(count):
                wildcards = {**pair, "partition": str(p), "queryset": queryset}
                yield Job("retrieve_partition", wildcards, dataset, served)
            yield Job(f"merge_runs{suffix}", pair, dataset, served)
    yield Job(evaluation, pair, dataset, served)
