"""Snakemake script of rule fuse: sparsebench.retrieve.stages.fuse_runs."""

from sparsebench.retrieve import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "fuse"):
    stages.fuse_runs(
        dict(zip(snakemake.params.members, snakemake.input.runs, strict=True)),
        snakemake.params.entry,
        k=snakemake.params.k,
        tag=snakemake.wildcards.model,
        out_run=snakemake.output.run,
    )
