"""Snakemake script of rule report_dataset_costs: sparsebench.report.stages.report_dataset_costs."""

from sparsebench.report import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "report_dataset_costs"):
    stages.report_dataset_costs(
        snakemake.input.table,
        snakemake.wildcards.dataset,
        snakemake.output.png,
        snakemake.output.svg,
    )
