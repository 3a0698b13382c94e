"""Snakemake script of checkpoint prepare: sparsebench.stages.prepare."""

from pathlib import Path

from sparsebench import stages
from sparsebench.logs import stage_logging

with stage_logging(snakemake.log[0], "prepare"):
    stages.prepare(
        snakemake.wildcards.dataset,
        dict(snakemake.params.entry),
        Path(snakemake.output.info).parent,
        archive=snakemake.input.get("archive"),
    )
