"""Snakemake script of checkpoint prepare: sparsebench.data.stages.prepare."""

from pathlib import Path

from sparsebench.data import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "prepare"):
    stages.prepare(
        snakemake.wildcards.dataset,
        dict(snakemake.params.entry),
        Path(snakemake.output.info).parent,
        documents=snakemake.input.documents,
        corpus=snakemake.params.corpus,
        archive=snakemake.input.get("archive"),
    )
