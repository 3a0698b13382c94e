"""Snakemake script of rule global_statistics: sparsebench.partitions.global_statistics_stage."""

from sparsebench import partitions
from sparsebench.logs import stage_logging

with stage_logging(snakemake.log[0], "global_statistics"):
    partitions.global_statistics_stage(
        list(snakemake.input.partitions),
        dict(snakemake.params.weighting),
        snakemake.input.vocab,
        snakemake.output.statistics,
        snakemake.output.idf,
        snakemake.output.stats,
    )
