"""What the two Hugging Face hub sources (MIRACL, mMARCO) share: their files come from hub
repositories read at one revision (or from local copies in the same layout), fetched by
the jobs themselves (sparsebench.data.hub, hubrepo); `dev` is their evaluated split."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sparsebench.data.sources.base import DatasetSource, Entry, local_files

# One set of keys for both hub sources, as one schema clause had them: an entry of one
# may hold a key only the other reads (it is ignored). Refusing them is a change of what
# configs are valid, left for a change of its own.
PROPERTIES = {
    "query_language": {
        "type": "string",
        "pattern": "^[a-z]{2,3}$",
        "description": "mMARCO: language of the queries (default: the documents').",
    },
    "corpus": {
        "type": "string",
        "description": "Hub id or local folder / data files of the corpus.",
    },
    "topics": {
        "type": "string",
        "description": "MIRACL: hub id or local folder / data files of the topics.",
    },
    "queries": {
        "type": "string",
        "description": "mMARCO: hub id or local folder / data files of the queries.",
    },
    "qrels": {
        "type": "string",
        "description": "mMARCO: path or URL of the MS MARCO qrels (TREC format).",
    },
    "qrels_md5": {
        "type": "string",
        "pattern": "^[0-9a-f]{32}$",
        "description": "mMARCO: the md5 of `qrels` given as a URL (needed then): a download "
        "that does not match is refused.",
    },
    "corpus_files": {
        "type": "string",
        "description": "Glob of the corpus files in the source (default the hub layout).",
    },
    "topics_files": {
        "type": "string",
        "description": (
            "MIRACL: glob of topic records in the hub dataset layout (query_id, query, "
            "positive_passages, negative_passages)."
        ),
    },
    "queries_files": {
        "type": "string",
        "description": (
            "mMARCO: path of the queries TSV in the source (default: the split's file, "
            "dev = dev.small)."
        ),
    },
    "revision": {
        "type": "string",
        "default": "main",
        "description": (
            "A branch, tag or commit of the hub repositories; the commits read are "
            "recorded: the documents' in corpus.json, the topics' and judgments' in "
            "dataset.json."
        ),
    },
    "topics_revision": {
        "type": "string",
        "description": (
            "MIRACL: the topics' and judgments' own branch, tag or commit (default: "
            "`revision`). Its two repositories have histories of their own, so a commit of "
            "one is unknown to the other: pin both with `revision` (the corpus's commit) "
            "and this."
        ),
    },
}
# the entry keys whose local copies each member is read from (hub ids give no file)
MEMBER_KEYS = {"corpus": ("corpus",), "queries": ("topics", "queries"), "qrels": ("qrels",)}


class HubSource(DatasetSource):
    schema = {"properties": PROPERTIES}
    document_keys = ("language", "corpus", "corpus_files", "revision")
    hub = True

    def fill_defaults(self, name: str, entry: dict[str, Any]) -> None:
        entry.setdefault("split", "dev")

    def corpus_label(self, documents: Entry) -> str:
        return f"{self.name}-{documents['language']}"

    def input_files(self, entry: Entry, members: Iterable[str]) -> list[Any]:
        """Local copies only: hub files are fetched by the job."""
        return local_files(entry[k] for m in members for k in MEMBER_KEYS[m] if k in entry)
