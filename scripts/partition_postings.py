"""Snakemake script of rule partition_postings: sparsebench.partitions.stages.partition_postings."""

from sparsebench.partitions import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "partition_postings", end_process=True):
    rows = snakemake.params.rows
    stages.partition_postings(
        list(snakemake.input.npz),
        list(snakemake.input.terms),
        snakemake.input.vocab,
        snakemake.input.corpus,
        range(rows["start"], rows["stop"]),
        dict(snakemake.params.weighting),
        snakemake.input.statistics,
        snakemake.output.postings,
        snakemake.output.doc_ids,
    )
