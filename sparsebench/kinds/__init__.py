"""Model kinds: what each kind of model encodes, weighs and runs, one module per kind,
listed in sparsebench.kinds.registry."""
