"""Snakemake script of rule tune: sparsebench.tune.stages.tune."""

from sparsebench.tune import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "tune", end_process=True):
    stages.tune(
        snakemake.wildcards.model,
        snakemake.wildcards.dataset,
        dict(snakemake.params.sweep),
        snakemake.input.info,
        list(snakemake.input.per_query),
        list(snakemake.input.runs),
        dict(snakemake.output.items()),
    )
