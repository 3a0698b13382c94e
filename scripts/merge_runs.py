"""Snakemake script of rule merge_runs: sparsebench.partitions.merge_runs."""

from sparsebench import partitions
from sparsebench.logs import stage_logging

with stage_logging(snakemake.log[0], "merge_runs"):
    partitions.merge_runs(
        list(snakemake.input.runs),
        snakemake.input.query_ids,
        snakemake.output.run,
        k=snakemake.params.k,
        tag=snakemake.wildcards.model,
    )
