"""Snakemake script of rule vocabulary: sparsebench.partitions.write_vocabulary."""

from sparsebench import partitions
from sparsebench.logs import stage_logging

with stage_logging(snakemake.log[0], "vocabulary"):
    partitions.write_vocabulary(list(snakemake.input.terms), snakemake.output.vocab)
