"""Snakemake script of rule leaderboard: sparsebench.stages.leaderboard."""

from sparsebench import stages
from sparsebench.logs import stage_logging
from sparsebench.provenance import now

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
