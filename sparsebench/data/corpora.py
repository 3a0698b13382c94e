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
from pathlib import Path
from typing import Any

from sparsebench.core.errors import ConfigError

# the entry keys that choose the documents, per source
DOCUMENT_KEYS = {
    "builtin": ("name",),
    "local": ("path",),
    "files": ("corpus",),
    "beir": ("name", "subset", "md5"),
    "miracl": ("language", "corpus", "corpus_files", "revision"),
    "mmarco": ("language", "corpus", "corpus_files", "revision"),
    "ir_datasets": ("id",),
}
# entry keys that change neither the documents nor the judgments
_NOT_JUDGMENTS = ("group", "relevance_level", "ignore_identical_ids", "tuning_split", "subsample")


def _ir_datasets_docs(dataset_id: str) -> str:
    """The ir_datasets id that provides the documents of `dataset_id` (msmarco-passage for
    msmarco-passage/dev/small); the id itself when ir_datasets cannot tell."""
    try:
        import ir_datasets

        return ir_datasets.docs_parent_id(dataset_id) or dataset_id
    except Exception:  # noqa: BLE001 (an id ir_datasets builds from a pattern, or no package)
        return dataset_id


def _path(value: str) -> str:
    return str(Path(value).expanduser().resolve())


def document_source(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The settings that choose a dataset's documents (before any subsample)."""
    source = entry["source"]
    found = {"source": source}
    for key in DOCUMENT_KEYS[source]:
        if entry.get(key) is not None:
            found[key] = entry[key]
    if source in ("local", "files"):
        key = DOCUMENT_KEYS[source][0]
        found[key] = _path(found[key])
    if source == "ir_datasets":
        found["id"] = _ir_datasets_docs(entry["id"])
    return found


def judgments_source(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The settings that choose a dataset's judgments (what a subsample keeps)."""
    return {k: v for k, v in sorted(entry.items()) if k not in _NOT_JUDGMENTS}


def corpus_identity(entry: Mapping[str, Any]) -> dict[str, Any]:
    """What identifies the corpus a validated dataset entry reads."""
    documents = document_source(entry)
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
    source = documents["source"]
    if source == "local":
        label = Path(documents["path"]).name
    elif source == "files":
        label = Path(documents["corpus"]).stem
    elif source in ("miracl", "mmarco"):
        label = f"{source}-{documents['language']}"
    elif source == "beir":
        label = "-".join(p for p in (documents["name"], documents.get("subset")) if p)
    else:
        label = str(documents.get("name") or documents.get("id"))
    label = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-.") or source
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
