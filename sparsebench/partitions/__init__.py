"""Corpus-partitioned retrieval (rules in workflow/rules/partitions.smk): the
statistics of the whole corpus summed from its partitions, each partition searched
apart, the runs merged."""
