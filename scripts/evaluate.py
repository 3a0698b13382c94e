"""Snakemake script of rule evaluate: sparsebench.evaluate.stages.evaluate (+ its manifest)."""

from sparsebench.evaluate import stages
from sparsebench.workflow.logs import stage_logging
from sparsebench.workflow.provenance import now

started = now()
with stage_logging(snakemake.log[0], "evaluate"):
    stages.evaluate(
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
        dict(snakemake.config["models"][snakemake.wildcards.model]),
        dict(snakemake.params.evaluation),
        snakemake.input.info,
        snakemake.input.run,
        snakemake.output.metrics,
        started,
    )
