"""Snakemake script of rule leaderboard: sparsebench.evaluate.stages.leaderboard."""

from sparsebench.core.provenance import now
from sparsebench.evaluate import stages
from sparsebench.workflow.logs import stage_logging

started = now()
with stage_logging(snakemake.log[0], "leaderboard", end_process=True):
    stages.leaderboard(
        pairs=[tuple(p) for p in snakemake.params.pairs],
        models=list(snakemake.params.models),
        datasets=list(snakemake.params.datasets),
        metrics_files=list(snakemake.input.metrics),
        dataset_infos=list(snakemake.input.infos),
        corpus_infos=list(snakemake.input.corpus_infos),
        experiment=dict(snakemake.params.experiment),
        searched=[dict(pair) for pair in snakemake.params.searched],
        outputs=dict(snakemake.output.items()),
        started=started,
        significance_tsv=snakemake.input.significance,
        selections=list(snakemake.input.selections),
        manifests=list(snakemake.input.manifests),
        cost_sources=dict(snakemake.params.costs),
    )
