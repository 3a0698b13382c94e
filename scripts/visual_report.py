"""Snakemake script of rule visual_report: sparsebench.report.stages.write_report."""

from sparsebench.report import stages
from sparsebench.report.contents import ReportContents
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "visual_report", end_process=True):
    stages.write_report(
        ReportContents.of(snakemake.params.contents),
        [dict(j) for j in snakemake.params.jobs],
        workers=snakemake.threads,
    )
