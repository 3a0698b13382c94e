"""Snakemake script of rule encode_corpus_shard: sparsebench.encode.stages.encode_corpus_shard."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging
from sparsebench.workflow.params import encoder_model, runtime_params

with stage_logging(snakemake.log[0], "encode_corpus_shard"):
    # batch size and device change speed, not vectors: read from config, not params
    model = encoder_model(snakemake.config, snakemake.wildcards.encoder)
    runtime = runtime_params(model, "documents")
    runtime["threads"] = snakemake.threads
    stages.encode_corpus_shard(
        snakemake.input.corpus,
        int(snakemake.wildcards.shard),
        snakemake.params.shard_size,
        dict(snakemake.params.encoding),
        snakemake.output.npz,
        snakemake.output.terms,
        runtime=runtime,
    )
