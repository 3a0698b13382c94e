"""Snakemake script of checkpoint prepare: sparsebench.data.stages.prepare."""

from pathlib import Path

from sparsebench.data import stages
from sparsebench.tune.sweeps import uses_training_split
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "prepare", end_process=True):
    summary = stages.prepare(
        snakemake.wildcards.dataset,
        dict(snakemake.params.entry),
        Path(snakemake.output.info).parent,
        documents=snakemake.input.documents,
        corpus=snakemake.params.corpus,
        archive=snakemake.input.get("archive"),
    )
    # a sweep that cannot choose on these queries fails here, before any variant runs
    for model, sweep in snakemake.params.sweeps.items():
        uses_training_split(model, sweep, summary)
