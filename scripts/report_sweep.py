"""Snakemake script of rule report_sweep: sparsebench.report.stages.report_sweep."""

from sparsebench.report import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "report_sweep"):
    stages.report_sweep(
        snakemake.wildcards.model,
        snakemake.wildcards.dataset,
        snakemake.input.surface,
        snakemake.input.selection,
        snakemake.output.png,
        snakemake.output.svg,
    )
