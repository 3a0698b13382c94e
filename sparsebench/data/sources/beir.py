"""`source: beir`: a BEIR archive by name ({base_url}/{name}.zip, downloaded and md5-checked
by the download_beir rule), read in place by sparsebench.data.collection.ZipSource.
cqadupstack stands for its 12 forums, each a dataset of its own, averaged into one
leaderboard column as BEIR reports it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sparsebench.data.sources.base import DatasetSource, Entry

# BEIR datasets whose licences forbid redistribution: BEIR publishes scripts, not archives.
NON_PUBLIC_BEIR = {
    "bioasq": "BioASQ Task B (needs a BioASQ account)",
    "signal1m": "Signal-1M (news articles, on request from Signal AI)",
    "trec-news": "TREC News (the Washington Post collection, licensed by NIST)",
    "robust04": "TREC Robust04 (TREC disks 4 and 5, licensed by NIST)",
}
BEIR_BUILD_GUIDE = "https://github.com/beir-cellar/beir/wiki/Datasets-available"
# BEIR datasets whose corpus contains the queries themselves; BEIR and Pyserini drop
# a retrieved document whose id equals the query id there.
SELF_HIT_DATASETS = frozenset({"arguana", "quora"})
DEV_SPLIT = frozenset({"msmarco"})  # BEIR datasets evaluated on their dev split
CQADUPSTACK_FORUMS = (
    "android",
    "english",
    "gaming",
    "gis",
    "mathematica",
    "physics",
    "programmers",
    "stats",
    "tex",
    "unix",
    "webmasters",
    "wordpress",
)


class Beir(DatasetSource):
    name = "beir"
    description = "A BEIR archive by name (the entry's name by default), read without unpacking."
    schema = {
        "properties": {
            "name": {
                "type": "string",
                "pattern": "^[A-Za-z0-9._-]+$",
                "description": "The BEIR dataset, its archive {base_url}/{name}.zip (default: "
                "the entry's name); cqadupstack without a `subset` stands for its 12 forums.",
            },
            "subset": {
                "type": "string",
                "description": "A sub-collection of the archive (cqadupstack's forums).",
            },
            "base_url": {
                "type": "string",
                "description": "Where this archive is downloaded from instead of "
                "download.beir_base_url; an archive BEIR does not publish needs its `md5`.",
            },
            "md5": {
                "type": "string",
                "pattern": "^[0-9a-f]{32}$",
                "description": "The archive's md5 instead of the built-in table's: needed for "
                "a name with no public archive; an archive that does not match is refused.",
            },
        },
    }
    document_keys = ("name", "subset", "md5")

    def datasets(self, name: str, entry: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
        """cqadupstack (without a `subset`) becomes its 12 forums, `{name}-{forum}`, each
        evaluated on its own, in the group `name`."""
        if entry.get("name", name) != "cqadupstack" or "subset" in entry:
            return super().datasets(name, entry)
        return [
            (
                f"{name}-{forum}",
                {**entry, "name": "cqadupstack", "subset": forum, "group": name},
                f"the cqadupstack forum {forum} of {name}",
            )
            for forum in CQADUPSTACK_FORUMS
        ]

    def fill_defaults(self, name: str, entry: dict[str, Any]) -> None:
        """The BEIR name is the entry's; arguana and quora drop self-hits; msmarco is
        evaluated on dev; judgments of documents an archive lacks are kept, as BEIR's own
        evaluation keeps them (its archives, checked by md5, are the benchmark as
        published: ArguAna's qrels judge a document its corpus lacks)."""
        entry.setdefault("name", name)
        entry.setdefault("ignore_identical_ids", entry["name"] in SELF_HIT_DATASETS)
        entry.setdefault("unknown_judged_documents", "keep")
        entry.setdefault("split", "dev" if entry["name"] in DEV_SPLIT else "test")

    def problems(self, entry: Entry) -> list[tuple[str, str]]:
        """A BEIR dataset nobody may distribute, or a name with no public archive (unless
        the entry gives the md5 of an archive of its own)."""
        from sparsebench.data.download import beir_checksums

        name = entry["name"]
        if "md5" in entry:
            return []
        if name in NON_PUBLIC_BEIR:
            return [
                (
                    "name",
                    f"BEIR does not distribute {name} ({NON_PUBLIC_BEIR[name]}); build it in BEIR "
                    f"format as BEIR describes ({BEIR_BUILD_GUIDE}) and read the folder with "
                    "`source: local` and `path: <folder>`, or serve your own archive with "
                    "`base_url:` and its `md5:`",
                )
            ]
        known = beir_checksums()
        if name not in known:
            return [
                (
                    "name",
                    f"no public BEIR archive is named {name!r} (known: "
                    f"{', '.join(sorted(known))}); for an archive of your own give `base_url:` "
                    "and `md5:`",
                )
            ]
        return []

    def corpus_label(self, documents: Entry) -> str:
        return "-".join(p for p in (documents["name"], documents.get("subset")) if p)

    def reader(self, entry: Entry, archive: str | Path | None = None) -> Any:
        from sparsebench.core.errors import DataError
        from sparsebench.data.collection import ZipSource

        if archive is None:
            raise DataError("a BEIR dataset needs its downloaded archive")
        return ZipSource(Path(archive), entry.get("split", "test"), entry.get("subset"))

    def at_hand(self, entry: Entry, archive: str | Path | None = None) -> bool:
        return archive is not None and Path(archive).is_file()

    def check_download(self, entry: Entry, archive: str | Path | None) -> None:
        """The archive's md5: the entry's, else the built-in table's."""
        from sparsebench.data.download import beir_md5, verify_archive

        if archive is not None:
            verify_archive(archive, beir_md5(entry["name"], entry.get("md5")))


BEIR_SOURCE = Beir()
