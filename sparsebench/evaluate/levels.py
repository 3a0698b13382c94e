"""The relevance level (trec_eval -l): the least grade a binary measure counts relevant.
Its rule lives here, where the command line, the ranking and the slices all read it
without importing one another for it."""

from __future__ import annotations


def check_relevance_level(relevance_level: int) -> None:
    """Refuse a relevance level below 1: at 0 every document the qrels do not list would
    count as relevant (grade 0), which trec_eval never does (-l 0 leaves them out)."""
    if relevance_level < 1:
        raise ValueError(f"a relevance level is a grade of 1 or more, not {relevance_level}")
