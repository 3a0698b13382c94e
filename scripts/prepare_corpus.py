"""Snakemake script of checkpoint prepare_corpus: sparsebench.data.stages.prepare_corpus."""

from pathlib import Path

from sparsebench.core.errors import ConfigError
from sparsebench.data import stages
from sparsebench.workflow.layout import partition_problem
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "prepare_corpus", end_process=True):
    summary = stages.prepare_corpus(
        snakemake.wildcards.corpus,
        dict(snakemake.params.identity),
        Path(snakemake.output.info).parent,
        archive=snakemake.input.get("archive"),
        documents=snakemake.input.get("documents"),
        qrels=snakemake.input.get("qrels"),
        # the datasets' files are probed before the corpus is fetched; they change no byte
        readers=[dict(entry) for entry in snakemake.params.readers],
    )
    # more partitions than shards fails here, before any encoding job
    partitions, shard_size = snakemake.params.partitions
    corpus, n_docs = snakemake.wildcards.corpus, summary["n_docs"]
    problem = partition_problem(corpus, n_docs, partitions, shard_size)
    if problem:
        raise ConfigError(problem)
