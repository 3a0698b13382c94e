"""Dataset entries checked when the config is read, before any job runs: what a download
or prepare job would otherwise find out only after minutes (a BEIR archive nobody may
distribute, a MIRACL split without judgments, an ir_datasets id that does not exist)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# BEIR datasets whose licences forbid redistribution: BEIR publishes scripts, not archives.
NON_PUBLIC_BEIR = {
    "bioasq": "BioASQ Task B (needs a BioASQ account)",
    "signal1m": "Signal-1M (news articles, on request from Signal AI)",
    "trec-news": "TREC News (the Washington Post collection, licensed by NIST)",
    "robust04": "TREC Robust04 (TREC disks 4 and 5, licensed by NIST)",
}
BEIR_BUILD_GUIDE = "https://github.com/beir-cellar/beir/wiki/Datasets-available"


def _beir_problems(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
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
                f"no public BEIR archive is named {name!r} (known: {', '.join(sorted(known))}); "
                "for an archive of your own give `base_url:` and `md5:`",
            )
        ]
    return []


def _miracl_problems(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    from sparsebench.data.miracl import miracl_problems

    if entry.get("topics_files"):  # records in the hub dataset's own layout
        return []
    return miracl_problems(entry["language"], entry["split"])


def _mmarco_problems(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
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


def _ir_datasets_problems(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    from sparsebench.core.errors import DataError
    from sparsebench.data.irdatasets import check_id

    try:
        check_id(entry["id"])
    except DataError as exc:
        return [("id", str(exc))]
    return []


CHECKS = {
    "beir": _beir_problems,
    "miracl": _miracl_problems,
    "mmarco": _mmarco_problems,
    "ir_datasets": _ir_datasets_problems,
}


def dataset_problems(datasets: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One line per problem, each naming the key it concerns."""
    lines = []
    for name, entry in datasets.items():
        check = CHECKS.get(entry["source"])
        if check is not None:
            lines += [f"config.datasets.{name}.{key}: {text}" for key, text in check(entry)]
    return lines
