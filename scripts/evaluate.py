"""Snakemake script of rules evaluate and evaluate_tuning: sparsebench.evaluate.stages.evaluate
(+ its manifest)."""

from sparsebench.core.provenance import now
from sparsebench.evaluate import stages
from sparsebench.workflow.logs import stage_logging

started = now()
with stage_logging(snakemake.log[0], snakemake.rule, end_process=True):
    coverage = stages.evaluate(
        snakemake.input.run,
        snakemake.input.qrels,
        dict(snakemake.params.evaluation),
        snakemake.output.metrics,
        snakemake.output.per_query,
    )
    stages.evaluation_manifest(
        snakemake.output.manifest,
        snakemake.wildcards.model,
        snakemake.wildcards.dataset,
        dict(snakemake.params.model),
        dict(snakemake.params.fingerprint),
        dict(snakemake.params.evaluation),
        snakemake.input.info,
        snakemake.input.corpus_info,
        snakemake.input.run,
        snakemake.output.metrics,
        snakemake.output.per_query,
        started,
        coverage,
    )
