"""Snakemake script of rule download_beir: sparsebench.data.stages.download_beir."""

from sparsebench.data import stages
from sparsebench.workflow.logs import stage_logging

with stage_logging(snakemake.log[0], "download_beir"):
    settings = snakemake.config["download"]
    entry = next(
        e
        for e in snakemake.config["datasets"].values()
        if e["source"] == "beir" and e["name"] == snakemake.wildcards.name
    )
    stages.download_beir(
        snakemake.wildcards.name,
        snakemake.output[0],
        base_url=entry.get("base_url", settings["beir_base_url"]),
        md5=snakemake.params.md5,
        retries=settings["retries"],
        timeout_s=settings["timeout_s"],
    )
