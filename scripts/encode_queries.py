"""Snakemake script of rule encode_queries: sparsebench.encode.stages.encode_queries."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging
from sparsebench.workflow.params import encoder_model, runtime_params

with stage_logging(snakemake.log[0], "encode_queries"):
    # batch size and device change speed, not vectors: read from config, not params
    model = encoder_model(snakemake.config, snakemake.wildcards.query_encoder, "queries")
    runtime = runtime_params(model, "queries")
    runtime["threads"] = snakemake.threads
    stages.encode_queries(
        snakemake.input.queries,
        snakemake.input.qrels,
        snakemake.input.vocab,
        dict(snakemake.params.encoding),
        snakemake.output.queries,
        snakemake.output.query_ids,
        runtime=runtime,
    )
