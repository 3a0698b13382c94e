"""`source: mmarco`: mMARCO (unicamp-dl/mmarco) from the hub or a local copy in its layout:
MS MARCO's passages and queries machine-translated, judged by MS MARCO's qrels; read by
sparsebench.data.mmarco.MmarcoSource."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sparsebench.data.sources.base import Entry
from sparsebench.data.sources.hubsource import HubSource


class Mmarco(HubSource):
    name = "mmarco"
    description = "mMARCO, one language of passages and one of queries (by default the same)."
    path_keys = ("corpus", "queries", "qrels")

    def problems(self, entry: Entry) -> list[tuple[str, str]]:
        """A language mMARCO does not have, or a split without default judgments and no
        `qrels` given."""
        from sparsebench.data.mmarco import MMARCO_QRELS, mmarco_problems

        problems = mmarco_problems(entry["language"], entry.get("query_language"), entry["split"])
        if not problems and "qrels" not in entry and entry["split"] not in MMARCO_QRELS:
            problems.append(
                (
                    "qrels",
                    f"mMARCO {entry['split']} has no default judgments: give the qrels file "
                    "(a path, a hub file as repo:path, or a URL with qrels_md5)",
                )
            )
        return problems

    def reader(self, entry: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.data.mmarco import MmarcoSource

        keys = (
            "qrels",
            "query_language",
            "corpus",
            "queries",
            "corpus_files",
            "queries_files",
            "qrels_md5",
            "revision",
        )
        return MmarcoSource(
            entry["language"],
            split=entry.get("split", "test"),
            **{k: entry[k] for k in keys if k in entry},
        )


MMARCO_SOURCE = Mmarco()
