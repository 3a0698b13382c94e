"""What the Snakemake workflow needs around the stages: the config and its schema, the
plan (per-rule settings, every job and path), code digests, job resources and logging."""
