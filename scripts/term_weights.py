"""Snakemake script of rule term_weights: sparsebench.encode.stages.term_weights."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "term_weights", end_process=True):
    stages.term_weights(
        snakemake.input.corpus,
        snakemake.input.vocab,
        snakemake.input.doc_ids,
        dict(snakemake.params.weighting),
        snakemake.output.postings,
        snakemake.output.idf,
        snakemake.output.stats,
    )
