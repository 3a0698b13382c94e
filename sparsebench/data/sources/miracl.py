"""`source: miracl`: MIRACL v1.0 from the hub (miracl/miracl-corpus, miracl/miracl) or local
copies in their layout, read by sparsebench.data.miracl.MiraclSource."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sparsebench.data.sources.base import Entry
from sparsebench.data.sources.hubsource import HubSource


class Miracl(HubSource):
    name = "miracl"
    description = "MIRACL v1.0, one language: its passages, topics and judgments."
    path_keys = ("corpus", "topics")

    def problems(self, entry: Entry) -> list[tuple[str, str]]:
        """A language or split MIRACL does not have, or a split without public judgments
        (unless the topics are records of the entry's own, `topics_files`)."""
        from sparsebench.data.miracl import miracl_problems

        if entry.get("topics_files"):  # records in the hub dataset's own layout
            return []
        return miracl_problems(entry["language"], entry["split"])

    def reader(self, entry: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.data.miracl import MiraclSource

        keys = ("corpus", "topics", "corpus_files", "topics_files", "revision", "topics_revision")
        given = {k: entry[k] for k in keys if k in entry}
        return MiraclSource(entry["language"], entry.get("split", "test"), **given)


MIRACL_SOURCE = Miracl()
