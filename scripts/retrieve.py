"""Snakemake script of rules retrieve and retrieve_partition:
sparsebench.retrieve.stages.retrieve_run."""

from dataclasses import replace

from sparsebench.feedback.expansion import Feedback
from sparsebench.retrieve import stages
from sparsebench.search.settings import SearchSettings
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], snakemake.rule, end_process=True):
    # batching, the backend and the threads change speed, not results: read from the
    # config and the job, never a rerun trigger
    search = SearchSettings.from_config(snakemake.config["retrieval"], threads=snakemake.threads)
    # training queries only choose a sweep's point: their search's latency is not reported
    if snakemake.rule == "retrieve_tuning" or snakemake.wildcards.get("queryset") == "tuning":
        search = replace(search, latency_queries=0)
    expansion = getattr(snakemake.params, "feedback", None)  # retrieve_partition has none
    feedback = None
    if expansion:
        feedback = Feedback(
            expansion,
            query_norms=snakemake.input.query_norms,
            corpus_npz=snakemake.input.corpus_npz,
            vocab=snakemake.input.vocab,
            corpus_json=snakemake.input.corpus_json,
        )
    stages.retrieve_run(
        snakemake.input.postings,
        snakemake.input.idf,
        snakemake.input.queries,
        snakemake.input.query_ids,
        snakemake.input.doc_ids,
        snakemake.output.run,
        tag=snakemake.wildcards.model,
        search=search,
        out_cost=snakemake.output.cost,
        feedback=feedback,
        **snakemake.params.retrieval,
    )
