"""Snakemake script of rule report_precision_recall:
sparsebench.report.stages.report_precision_recall."""

from sparsebench.report import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "report_precision_recall"):
    stages.report_precision_recall(
        snakemake.wildcards.dataset,
        list(snakemake.params.models),
        list(snakemake.input.metrics),
        snakemake.output.png,
        snakemake.output.svg,
    )
