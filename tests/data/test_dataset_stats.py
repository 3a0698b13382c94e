"""`sparsebench datasets stats` against the counts in each shared collection's README."""

from __future__ import annotations

import json
import re

import pytest
from conftest import SHARED

from sparsebench.cli import main

COLLECTIONS = (
    sorted(p.name for p in (SHARED / "data").iterdir()) if (SHARED / "data").is_dir() else []
)


def readme_counts(folder):
    text = (folder / "README.md").read_text()
    grades = re.search(r"relevance grade histogram \(score: lines\): ([0-9:, ]+)", text).group(1)
    return {
        "documents": int(re.search(r"- documents: (\d+)", text).group(1)),
        "queries": int(re.search(r"- queries: (\d+)", text).group(1)),
        "judged_queries": int(re.search(r"- queries with qrels: (\d+)", text).group(1)),
        "qrels_lines": int(re.search(r"- qrel lines: (\d+)", text).group(1)),
        "grades": {
            g.strip(): int(c)
            for g, c in (pair.split(":") for pair in grades.strip().rstrip(",").split(","))
        },
        "documents_empty": int(re.search(r"with empty title and text: (\d+)", text).group(1)),
    }


@pytest.mark.parametrize("name", COLLECTIONS)
def test_stats_match_the_readme(name, capsys):
    folder = SHARED / "data" / name
    assert main(["datasets", "stats", str(folder), "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)[name]
    expected = readme_counts(folder)
    assert {k: stats[k] for k in expected} == expected
