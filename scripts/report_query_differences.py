"""Snakemake script of rule report_query_differences:
sparsebench.report.stages.report_query_differences."""

from sparsebench.report import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "report_query_differences"):
    stages.report_query_differences(
        snakemake.wildcards.model,
        snakemake.wildcards.dataset,
        snakemake.input.model,
        snakemake.input.baseline,
        snakemake.input.significance,
        snakemake.params.metric,
        dict(snakemake.params.significance),
        snakemake.output.png,
        snakemake.output.svg,
    )
