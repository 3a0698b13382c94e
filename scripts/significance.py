"""Snakemake script of rule significance: sparsebench.evaluate.stages.significance."""

from sparsebench.evaluate import stages
from sparsebench.workflow.logs import stage_logging
from sparsebench.workflow.provenance import now

started = now()

with stage_logging(snakemake.log[0], "significance"):
    stages.significance(
        models=list(snakemake.params.models),
        datasets=list(snakemake.params.datasets),
        per_query_files=list(snakemake.input.per_query),
        config=dict(snakemake.config),
        out_tsv=snakemake.output.table,
        out_md=snakemake.output.markdown,
        out_manifest=snakemake.output.manifest,
        started=started,
        out_intervals=snakemake.output.intervals,
    )
