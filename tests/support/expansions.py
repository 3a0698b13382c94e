"""Expansions files for the shared ADI collection, made from its own queries: each
document gets three of them as its "predicted queries" (jsonl: every fifth document none),
as doc2query-T5's published files lay them out."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import shared_path


def adi_records() -> tuple[list[dict], list[str]]:
    """(the corpus records, the query texts) of the shared ADI collection."""
    folder = shared_path("data", "adi")
    with open(folder / "corpus.jsonl", encoding="utf-8") as handle:
        corpus = [json.loads(line) for line in handle]
    with open(folder / "queries.jsonl", encoding="utf-8") as handle:
        queries = [json.loads(line)["text"] for line in handle]
    return corpus, queries


def predictions(index: int, queries: list[str]) -> list[str]:
    return [queries[(index * 7 + j * 11) % len(queries)] for j in range(3)]


def write_adi_expansions(folder: Path) -> dict[str, Path]:
    """expansions.jsonl (records of 3 predictions; every fifth document has none) and
    expansions.txt (a line per document, its 3 predictions joined by spaces)."""
    corpus, queries = adi_records()
    folder.mkdir(parents=True, exist_ok=True)
    jsonl, lines = folder / "expansions.jsonl", folder / "expansions.txt"
    with open(jsonl, "w", encoding="utf-8") as records, open(lines, "w", encoding="utf-8") as text:
        for i, doc in enumerate(corpus):
            predicted = predictions(i, queries)
            if i % 5:
                records.write(json.dumps({"id": doc["_id"], "predicted_queries": predicted}) + "\n")
            text.write(" ".join(" ".join(p.split()) for p in predicted) + "\n")
    return {"jsonl": jsonl, "lines": lines}
