"""Snakemake script of rule stack_shards: sparsebench.encode.stages.stack_shards."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "stack_shards", end_process=True):
    stages.stack_shards(
        list(snakemake.input.npz),
        list(snakemake.input.terms),
        snakemake.input.corpus,
        snakemake.output.corpus,
        snakemake.output.vocab,
        snakemake.output.doc_ids,
    )
