"""Snakemake script of rule report_provenance: sparsebench.report.stages.report_provenance."""

from sparsebench.report import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "report_provenance"):
    stages.report_provenance(
        snakemake.input.leaderboard,
        snakemake.input.significance,
        snakemake.output.html,
    )
