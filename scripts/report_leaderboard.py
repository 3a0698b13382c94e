"""Snakemake script of rule report_leaderboard: sparsebench.report.stages.report_leaderboard."""

from sparsebench.report import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "report_leaderboard"):
    stages.report_leaderboard(
        snakemake.input.table,
        snakemake.input.intervals,
        snakemake.input.significance,
        models=list(snakemake.params.models),
        datasets=list(snakemake.params.datasets),
        metric=snakemake.params.metric,
        settings=dict(snakemake.params.significance),
        out_html=snakemake.output.html,
        out_png=snakemake.output.png,
        out_svg=snakemake.output.svg,
    )
