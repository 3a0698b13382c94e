"""Snakemake script of rule download_beir: sparsebench.data.stages.download_beir."""

from sparsebench.data import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "download_beir", end_process=True):
    patience = snakemake.config["download"]  # retries and timeouts change no byte
    stages.download_beir(
        snakemake.wildcards.name,
        snakemake.output[0],
        base_url=snakemake.params.base_url,
        md5=snakemake.params.md5,
        retries=patience["retries"],
        timeout_s=patience["timeout_s"],
    )
