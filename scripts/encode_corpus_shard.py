"""Snakemake script of rule encode_corpus_shard: sparsebench.encode.stages.encode_corpus_shard."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging
from sparsebench.workflow.plan import Plan

with stage_logging(snakemake.log[0], "encode_corpus_shard"):
    # batch size and device change speed, not vectors: the plan's, not params
    runtime = Plan(snakemake.config).encodings[snakemake.wildcards.encoder].runtime
    stages.encode_corpus_shard(
        snakemake.input.corpus,
        int(snakemake.wildcards.shard),
        snakemake.params.shard_size,
        dict(snakemake.params.encoding),
        snakemake.output.npz,
        snakemake.output.terms,
        runtime={**runtime, "threads": snakemake.threads},
        out_cost=snakemake.output.cost,
    )
