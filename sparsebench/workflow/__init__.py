"""What the Snakemake workflow needs around the stages: the config and its schema,
per-rule parameters, provenance, code digests, job resources and logging."""
