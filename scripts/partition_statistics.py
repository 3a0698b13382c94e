"""Snakemake script of rule partition_statistics: sparsebench.partitions.statistics_stage."""

from sparsebench import partitions
from sparsebench.logs import stage_logging

with stage_logging(snakemake.log[0], "partition_statistics"):
    partitions.statistics_stage(
        list(snakemake.input.npz),
        list(snakemake.input.terms),
        snakemake.input.vocab,
        dict(snakemake.params.weighting),
        snakemake.output.statistics,
    )
