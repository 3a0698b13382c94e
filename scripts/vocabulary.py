"""Snakemake script of rule vocabulary: sparsebench.partitions.stages.write_vocabulary."""

from sparsebench.partitions import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "vocabulary", end_process=True):
    stages.write_vocabulary(list(snakemake.input.terms), snakemake.output.vocab)
