"""Dataset sources: what each `source:` of a dataset entry takes, names and reads, one
module per source, listed in sparsebench.data.sources.registry."""
