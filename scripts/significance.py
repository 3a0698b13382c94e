"""Snakemake script of rule significance: sparsebench.evaluate.stages.significance."""

from sparsebench.core.provenance import now
from sparsebench.evaluate import stages
from sparsebench.workflow.logs import stage_logging

started = now()

with stage_logging(snakemake.log[0], "significance", end_process=True):
    stages.significance(
        pairs=[tuple(p) for p in snakemake.params.pairs],
        models=list(snakemake.params.models),
        datasets=list(snakemake.params.datasets),
        per_query_files=list(snakemake.input.per_query),
        settings=dict(snakemake.params.settings),
        experiment=dict(snakemake.params.experiment),
        out_tsv=snakemake.output.table,
        out_md=snakemake.output.markdown,
        out_manifest=snakemake.output.manifest,
        started=started,
        out_intervals=snakemake.output.intervals,
        manifests=list(snakemake.input.manifests),
    )
