"""Snakemake script of rule encode_queries: sparsebench.encode.stages.encode_queries."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging
from sparsebench.workflow.plan import Plan

with stage_logging(snakemake.log[0], "encode_queries"):
    # batch size and device change speed, not vectors: the plan's, not params
    runtime = Plan(snakemake.config).query_encodings[snakemake.wildcards.query_encoder].runtime
    stages.encode_queries(
        snakemake.input.queries,
        snakemake.input.qrels,
        snakemake.input.vocab,
        dict(snakemake.params.encoding),
        snakemake.output.queries,
        snakemake.output.query_ids,
        runtime={**runtime, "threads": snakemake.threads},
    )
