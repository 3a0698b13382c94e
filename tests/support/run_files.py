"""Small qrels and TREC runs that tests of the command line write."""

from __future__ import annotations

from pathlib import Path


def hit_runs(
    folder: Path, hit_ranks: dict[str, int], n_queries: int = 40
) -> tuple[Path, list[str]]:
    """Qrels with one relevant document per query, and a run per name that ranks it at
    the name's rank among 6 (at 5 for every fourth query): (qrels path, run paths)."""
    qrels = folder / "qrels.tsv"
    qrels.write_text("".join(f"q{i}\td{i}\t1\n" for i in range(n_queries)))
    runs = []
    for name, hit_rank in hit_ranks.items():
        path = folder / f"{name}.trec"
        lines = []
        for i in range(n_queries):
            docs = [f"x{j}" for j in range(5)]
            docs.insert(hit_rank - 1 if i % 4 else 4, f"d{i}")
            lines += [f"q{i} Q0 {d} {r} {10 - r} {name}\n" for r, d in enumerate(docs, 1)]
        path.write_text("".join(lines))
        runs.append(str(path))
    return qrels, runs
