"""Snakemake script of rule fuse: sparsebench.runs.stages.fuse_runs."""

from sparsebench.runs import stages
from sparsebench.runs.fusion.settings import Fusion
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "fuse", end_process=True):
    fusion = Fusion(**snakemake.params.fusion)  # the plan's, field by field
    stages.fuse_runs(
        dict(zip(fusion.runs, snakemake.input.runs, strict=True)),
        fusion,
        k=snakemake.params.k,
        tag=snakemake.wildcards.model,
        out_run=snakemake.output.run,
    )
