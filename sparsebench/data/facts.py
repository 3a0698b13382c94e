"""What a dataset's files tell before it is prepared: how many queries are judged, which
training split prepare will find, how many documents the corpus holds. The plan holds the
config against them (sparsebench.workflow.preflight), so that a mistake these files
already show is refused before any job rather than after the corpus is encoded.

Each fact is read as prepare reads it (the same qrels parser, the same search for a
training split), so the plan and the jobs never disagree on a count.
"""

from __future__ import annotations

import re
from typing import Any

from sparsebench.data.records import Source

_BLOCK = 1 << 24  # bytes read at a time while counting documents
_BLANK_LINE = re.compile(rb"^[ \t\r\f\v]*\n", re.MULTILINE)


def judged_facts(source: Source, tuning_split: str) -> dict[str, Any]:
    """The judged queries of the evaluated split and the training split prepare_dataset
    will use (None: none, sweeps cross-validate), as dataset.json records them."""
    from sparsebench.data.prepare import read_source_qrels, tuning_source

    source.check()
    qrels = read_source_qrels(source)
    tuning = tuning_source(source, tuning_split)
    return {
        "n_judged_queries": int(qrels["query_id"].nunique()),
        "tuning_split": tuning.split if tuning is not None else None,
    }


def count_documents(source: Source, at_most: int) -> int | None:
    """The documents of a JSON-lines corpus (its non-blank lines), counted up to `at_most`
    (a larger corpus counts as `at_most`): the question is only ever whether a corpus
    reaches a size, and the answer stops reading early. None for another format (a TSV
    corpus may start with a header line)."""
    if getattr(source, "format", lambda member: "jsonl")("corpus") != "jsonl":
        return None
    count = 0
    tail = b""
    with source.open("corpus") as handle:
        while count < at_most:
            block = handle.read(_BLOCK)
            if not block:
                break
            lines, _, tail = (tail + block).rpartition(b"\n")
            if lines:
                count += lines.count(b"\n") + 1 - len(_BLANK_LINE.findall(lines + b"\n"))
    return min(count + (1 if tail.strip() else 0), at_most)
