"""Which documents a dataset entry reads: datasets that name the same documents (MS MARCO
dev and TREC DL over the 8.8M passages, a MIRACL language's dev and train, two folders'
worth of one collection) share one corpus, prepared and encoded once.

A corpus is identified by the settings that choose its documents, never by its queries,
judgments or split; a subsample (every judged document plus random others) by the corpus
it is drawn from, its settings and the judgments it keeps.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sparsebench.core.errors import ConfigError
from sparsebench.data.sources.base import absolute
from sparsebench.data.sources.registry import source_of

# entry keys that change neither the documents nor the judgments
_NOT_JUDGMENTS = (
    "group",
    "relevance_level",
    "ignore_identical_ids",
    "tuning_split",
    "subsample",
    "expansions",
)


def judgments_source(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The settings that choose a dataset's judgments (what a subsample keeps)."""
    return {k: v for k, v in sorted(entry.items()) if k not in _NOT_JUDGMENTS}


def corpus_identity(entry: Mapping[str, Any]) -> dict[str, Any]:
    """What identifies the corpus a validated dataset entry reads: the settings that
    choose its documents (its source's document keys, sparsebench.data.sources)."""
    documents = source_of(entry).documents(entry)
    if entry.get("expansions"):  # an expanded collection is other documents
        expansions = dict(entry["expansions"])
        documents["expansions"] = {**expansions, "path": absolute(expansions["path"])}
    if not entry.get("subsample"):
        return documents
    return {
        "sample_of": documents,
        "subsample": dict(entry["subsample"]),
        "judged_by": judgments_source(entry),
    }


def corpus_label(identity: Mapping[str, Any]) -> str:
    """A readable start of a corpus's name: its collection, as a file name."""
    documents = identity.get("sample_of", identity)
    label = source_of(documents).corpus_label(documents)
    label = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-.") or documents["source"]
    return f"{label}-sample" if "sample_of" in identity else label


def check_languages(corpora: Mapping[str, Mapping[str, str]]) -> None:
    """Datasets over one corpus must agree on its language (the analyzer follows it):
    `corpora` maps a corpus to {dataset: language}."""
    for corpus, languages in corpora.items():
        if len(set(languages.values())) > 1:
            said = ", ".join(f"{d}: {lang}" for d, lang in languages.items())
            raise ConfigError(
                f"datasets {', '.join(languages)} read the same documents ({corpus}) but "
                f"give them different languages ({said}); a corpus has one language"
            )
