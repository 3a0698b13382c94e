"""Snakemake script of rule merge_runs: sparsebench.partitions.stages.merge_runs."""

from sparsebench.partitions import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "merge_runs", end_process=True):
    stages.merge_runs(
        list(snakemake.input.runs),
        snakemake.input.query_ids,
        snakemake.output.run,
        k=snakemake.params.k,
        tag=snakemake.wildcards.model,
        part_costs=list(snakemake.input.costs),
        out_cost=snakemake.output.cost,
    )
