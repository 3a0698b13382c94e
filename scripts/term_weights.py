"""Snakemake script of rule term_weights: sparsebench.encode.stages.term_weights."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "term_weights"):
    stages.term_weights(
        snakemake.input.corpus,
        dict(snakemake.params.weighting),
        snakemake.output.weights,
        snakemake.output.idf,
        snakemake.output.stats,
        vocab=snakemake.input.vocab,
        out_postings=snakemake.output.postings,
    )
