"""Snakemake script of checkpoint prepare_corpus: sparsebench.data.stages.prepare_corpus."""

from pathlib import Path

from sparsebench.data import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "prepare_corpus"):
    stages.prepare_corpus(
        snakemake.wildcards.corpus,
        dict(snakemake.params.identity),
        Path(snakemake.output.info).parent,
        archive=snakemake.input.get("archive"),
        documents=snakemake.input.get("documents"),
        qrels=snakemake.input.get("qrels"),
        # the datasets' files are probed before the corpus is fetched; they change no byte
        readers=[dict(entry) for entry in snakemake.params.readers],
    )
