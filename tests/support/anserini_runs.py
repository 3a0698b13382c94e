"""Anserini's run files held against ours: Anserini prints each score rounded to 4
decimals, less 1e-6 for every document tied with the one above it
(ScoreTiesAdjusterReranker); the rounding is undone here, and our score for a document
must round to Anserini's (the last bits of Lucene's float sums aside)."""

from __future__ import annotations

import gzip
import math
from pathlib import Path

import pandas as pd

TIE_STEP = 1e-6


def _on_grid(score: float) -> bool:
    return abs(score * 1e4 - round(score * 1e4)) < 1e-6


def rounded_scores(lines: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """(doc, printed score) in rank order -> (doc, score rounded to 4 decimals)."""
    out, dup, previous = [], 0, None
    for doc, printed in lines:
        candidate = round(printed + (dup + 1) * TIE_STEP, 6)
        if previous is not None and _on_grid(candidate) and previous - candidate <= 1e-4 + 1e-9:
            dup += 1
            out.append((doc, candidate))
        else:
            dup = 0
            out.append((doc, printed))
        previous = printed
    return out


def read_anserini_run(path: Path) -> dict[str, list[tuple[str, float]]]:
    """A gzipped Anserini run: query -> (doc, score rounded to 4 decimals), rank order."""
    lines: dict[str, list[tuple[str, float]]] = {}
    with gzip.open(path, "rt") as handle:
        for line in handle:
            query, _, doc, _, score, _ = line.split()
            lines.setdefault(query, []).append((doc, float(score)))
    return {query: rounded_scores(found) for query, found in lines.items()}


def assert_run_matches_anserini(
    run: pd.DataFrame, reference: Path, remove_query: bool = False
) -> int:
    """Every line of Anserini's run is in ours (`run`, read_run's frame) with a score that
    rounds to Anserini's, except documents tied at the last rank that the two cut apart;
    ours ranks no document above Anserini's last score that Anserini left out
    (`remove_query`: Anserini ran with -removeQuery). Returns the lines compared."""
    ours: dict[str, dict[str, float]] = {}
    for query, doc, score in zip(run["query_id"], run["doc_id"], run["score"], strict=True):
        if not (remove_query and doc == query):
            ours.setdefault(query, {})[doc] = float(score)
    compared = 0
    for query, lines in read_anserini_run(reference).items():
        mine = ours.get(query, {})
        last = lines[-1][1]
        for doc, rounded in lines:
            tolerance = 0.5e-4 + 1e-6 * max(1.0, abs(rounded))
            if doc not in mine:
                assert math.isclose(rounded, last, abs_tol=2e-4), (query, doc, rounded)
                continue
            assert math.isclose(mine[doc], rounded, abs_tol=tolerance), (query, doc)
            compared += 1
        listed = {doc for doc, _ in lines}
        above = [d for d, s in mine.items() if s > last + 2e-4 and d not in listed]
        assert not above, (query, above[:5])
    return compared
