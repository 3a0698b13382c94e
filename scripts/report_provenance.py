"""Snakemake script of rule report_provenance: sparsebench.stages.report_provenance."""

from sparsebench import stages
from sparsebench.logs import stage_logging

with stage_logging(snakemake.log[0], "report_provenance"):
    stages.report_provenance(
        snakemake.input.leaderboard,
        snakemake.input.significance,
        snakemake.output.html,
    )
