"""Snakemake script of rule encode_corpus_shard: sparsebench.encode.stages.encode_corpus_shard."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "encode_corpus_shard", end_process=True):
    stages.encode_corpus_shard(
        snakemake.input.corpus,
        int(snakemake.wildcards.shard),
        snakemake.params.shard_size,
        dict(snakemake.params.encoding),
        snakemake.output.npz,
        snakemake.output.terms,
        runtime=dict(snakemake.params.runtime),  # batch size, device, threads: speed only
        out_cost=snakemake.output.cost,
    )
