"""Statistics of a BEIR-format collection, read the way the prepare stage reads it."""

from __future__ import annotations

from typing import Any

import pyarrow.compute as pc

from sparsebench.data.qrels import parse_qrels
from sparsebench.data.records import Source, json_batches
from sparsebench.data.textfiles import read_fields


def collection_stats(source: Source) -> dict[str, Any]:
    """Documents, queries, judged queries, qrels lines and the grade histogram."""
    source.check()
    n_docs = with_title = empty_text = empty_both = 0
    with source.open("corpus") as handle:
        for batch in json_batches(handle, ["_id", "title", "text"], "corpus.jsonl"):
            title = pc.utf8_trim_whitespace(pc.fill_null(batch.column("title"), ""))
            text = pc.utf8_trim_whitespace(pc.fill_null(batch.column("text"), ""))
            no_title = pc.equal(pc.utf8_length(title), 0)
            no_text = pc.equal(pc.utf8_length(text), 0)
            n_docs += batch.num_rows
            with_title += batch.num_rows - (pc.sum(no_title).as_py() or 0)
            empty_text += pc.sum(no_text).as_py() or 0
            empty_both += pc.sum(pc.and_(no_title, no_text)).as_py() or 0
    with source.open("queries") as handle:
        n_queries = sum(b.num_rows for b in json_batches(handle, ["_id", "text"], "queries.jsonl"))
    with source.open("qrels") as handle:
        fields, _ = read_fields(handle, "qrels")
    raw_lines = len(fields) - (0 if fields.iloc[0, -1].lstrip("-").isdigit() else 1)
    with source.open("qrels") as handle:
        qrels = parse_qrels(handle, "qrels")
    positive = qrels[qrels["grade"] > 0]
    judged = qrels.groupby("query_id")["grade"].max()
    return {
        "documents": n_docs,
        "documents_with_title": with_title,
        "documents_with_empty_text": empty_text,
        "documents_empty": empty_both,
        "queries": n_queries,
        "judged_queries": int(len(judged)),
        "judged_queries_with_relevant": int((judged > 0).sum()),
        "qrels_lines": int(raw_lines),
        "qrels_pairs": int(len(qrels)),
        "grades": {str(g): int(c) for g, c in sorted(qrels["grade"].value_counts().items())},
        "relevant_documents": int(positive["doc_id"].nunique()),
        "mean_relevant_per_judged_query": round(len(positive) / max(int((judged > 0).sum()), 1), 2),
    }


def stats_markdown(rows: dict[str, dict[str, Any]]) -> str:
    header = [
        "collection",
        "documents",
        "queries",
        "judged queries",
        "qrels lines",
        "grades (grade: lines)",
        "empty docs",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, s in rows.items():
        grades = ", ".join(f"{g}: {c}" for g, c in s["grades"].items())
        lines.append(
            f"| {name} | {s['documents']} | {s['queries']} | {s['judged_queries']} | "
            f"{s['qrels_lines']} | {grades} | {s['documents_empty']} |"
        )
    return "\n".join(lines) + "\n"
