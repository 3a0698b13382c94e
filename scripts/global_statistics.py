"""Snakemake script of rule global_statistics: sparsebench.partitions.stages.global_statistics."""

from sparsebench.partitions import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "global_statistics", end_process=True):
    stages.global_statistics(
        list(snakemake.input.partitions),
        dict(snakemake.params.weighting),
        snakemake.input.vocab,
        snakemake.output.statistics,
        snakemake.output.idf,
        snakemake.output.stats,
    )
