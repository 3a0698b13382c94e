"""Snakemake script of rule import_run: sparsebench.runs.stages.import_run."""

from sparsebench.runs import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "import_run", end_process=True):
    stages.import_run(
        snakemake.input.run,
        snakemake.input.corpus,
        snakemake.input.queries,
        snakemake.output.run,
    )
