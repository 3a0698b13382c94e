"""Snakemake script of rule leaderboard: sparsebench.evaluate.stages.leaderboard."""

from sparsebench.evaluate import stages
from sparsebench.workflow.logs import stage_logging
from sparsebench.workflow.provenance import now

started = now()
with stage_logging(snakemake.log[0], "leaderboard"):
    stages.leaderboard(
        models=list(snakemake.params.models),
        datasets=list(snakemake.params.datasets),
        metric=snakemake.params.metric,
        metrics_files=list(snakemake.input.metrics),
        dataset_infos=list(snakemake.input.infos),
        config=dict(snakemake.config),
        outputs=dict(snakemake.output.items()),
        started=started,
        significance_tsv=snakemake.input.significance,
        selections=list(snakemake.input.selections),
    )
