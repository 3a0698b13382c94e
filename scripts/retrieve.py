"""Snakemake script of rules retrieve and retrieve_partition:
sparsebench.retrieve.stages.retrieve_run."""

from sparsebench.retrieve import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], snakemake.rule):
    speed = snakemake.config["retrieval"]  # batching and the backend change speed, not results
    # training queries only choose a sweep's point: their search's latency is not reported
    tuning = snakemake.rule == "retrieve_tuning" or snakemake.wildcards.get("queryset") == "tuning"
    stages.retrieve_run(
        snakemake.input.postings,
        snakemake.input.idf,
        snakemake.input.queries,
        snakemake.input.query_ids,
        snakemake.input.doc_ids,
        snakemake.output.run,
        tag=snakemake.wildcards.model,
        query_batch_size=speed["query_batch_size"],
        max_block_mb=speed["max_block_mb"],
        threads=snakemake.threads,
        backend_choice=speed["backend"],
        device=speed["device"],
        strategy=speed["strategy"],
        out_cost=snakemake.output.cost,
        latency_queries=0 if tuning else speed["latency_queries"],
        **snakemake.params.retrieval,
    )
