"""Snakemake script of rule partition_statistics:
sparsebench.partitions.stages.partition_statistics."""

from sparsebench.partitions import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "partition_statistics", end_process=True):
    stages.partition_statistics(
        list(snakemake.input.npz),
        list(snakemake.input.terms),
        snakemake.input.vocab,
        dict(snakemake.params.weighting),
        snakemake.output.statistics,
    )
