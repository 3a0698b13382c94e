"""Snakemake script of rule report_costs: sparsebench.report.stages.report_costs."""

from sparsebench.report import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "report_costs"):
    stages.report_costs(
        [dict(job) for job in snakemake.params.jobs],
        snakemake.output.table,
        snakemake.output.png,
        snakemake.output.svg,
    )
