"""sparsebench: reproducible evaluation of sparse retrieval models on IR benchmarks.

The package mirrors the workflow (workflow/rules/*.smk): data/, encode/, retrieve/,
partitions/, tune/, evaluate/ and report/ each hold the `stages` their rule file runs and
the code behind them; kinds/ says what each kind of model encodes and weighs; workflow/
computes the plan of an experiment from its config. docs/ARCHITECTURE.md maps each rule
to its script and its module. Importing the package loads nothing else.
"""
