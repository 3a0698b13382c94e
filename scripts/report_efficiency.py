"""Snakemake script of rule report_efficiency: sparsebench.report.stages.report_efficiency."""

from sparsebench.report import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "report_efficiency"):
    stages.report_efficiency(
        snakemake.input.efficiency,
        snakemake.input.metrics,
        snakemake.input.leaderboard,
        metric=snakemake.params.metric,
        models=list(snakemake.params.models),
        datasets=list(snakemake.params.datasets),
        out_png=snakemake.output.png,
        out_svg=snakemake.output.svg,
    )
