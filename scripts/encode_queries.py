"""Snakemake script of rule encode_queries: sparsebench.encode.stages.encode_queries."""

from sparsebench.encode import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "encode_queries", end_process=True):
    stages.encode_queries(
        snakemake.input.queries,
        snakemake.input.qrels,
        snakemake.input.vocab,
        dict(snakemake.params.encoding),
        snakemake.output.queries,
        snakemake.output.query_ids,
        runtime=dict(snakemake.params.runtime),  # batch size, device, threads: speed only
        out_norms=snakemake.output.norms,
    )
