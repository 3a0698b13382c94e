"""The data stages (rules in workflow/rules/data.smk): download a collection, put each
corpus in canonical form once, and each dataset's queries and judgments.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_json
from sparsebench.data import hubrepo
from sparsebench.data.download import beir_archive, download
from sparsebench.data.prepare import prepare_dataset, subsample_corpus, write_corpus_files
from sparsebench.data.qrels import read_qrels
from sparsebench.data.sources.registry import source_of


def download_beir(
    name: str,
    out_zip: str | Path,
    base_url: str,
    md5: str | None = None,
    retries: int = 3,
    timeout_s: float = 60.0,
) -> str:
    url, expected = beir_archive(name, base_url, md5)
    hint = (
        f". Without access to it: put the archive at {out_zip} yourself (it is checked"
        " against the same md5), point `download.beir_base_url` (or the dataset's"
        " `base_url`) at a mirror that has it, or read an unpacked copy with"
        " `source: local` and `path:`"
    )
    return download(url, out_zip, expected, retries=retries, timeout_s=timeout_s, hint=hint)


def dataset_reader(entry: dict[str, Any], archive: str | Path | None = None):
    """The reader of a validated dataset entry's files (its source's,
    sparsebench.data.sources)."""
    return source_of(entry).reader(entry, archive)


def probe_remote_files(corpus: Any, readers: Iterable[Any]) -> None:
    """Ask the hub for every file of the corpus and of the datasets that read it (the
    smallest first) before anything large is fetched: a gated or missing topics file
    fails the run at once, not after the corpus (sparsebench.data.hubrepo.probe)."""
    files = getattr(corpus, "remote_corpus_files", list)()
    files += [f for source in readers for f in getattr(source, "remote_files", list)()]
    if files:
        hubrepo.probe(list(dict.fromkeys(files)))


def read_at_corpus_commits(documents: str | Path) -> None:
    """Read a dataset's hub files at the commits its corpus was read at (corpus.json
    beside `documents`), so that a repository holding both (mMARCO's passages and
    queries) is read in one state even if its branch moved between the two jobs."""
    info = Path(documents).with_name("corpus.json")
    source = (read_json(info).get("source") or {}) if info.is_file() else {}
    for repo, commit in (source.get("commits") or {}).items():
        hubrepo.pin(repo, source["revision"], commit)


def prepare_corpus(
    name: str,
    identity: dict[str, Any],
    out_dir: str | Path,
    archive: str | Path | None = None,
    documents: str | Path | None = None,
    qrels: str | Path | None = None,
    readers: Iterable[dict[str, Any]] = (),
) -> dict[str, Any]:
    """corpus.parquet and corpus.json of one corpus: read from its source, or (a
    subsample) drawn from the `documents` of the corpus it samples, keeping every document
    the `qrels` judge. The hub files of the corpus and of the `readers` (the entries of
    the datasets that read it) are probed first."""
    out_dir = Path(out_dir)
    if "sample_of" in identity:
        if documents is None or qrels is None:
            raise DataError(f"the subsample {name} needs the corpus it is drawn from and qrels")
        summary = subsample_corpus(
            documents, out_dir / "corpus.parquet", read_qrels(qrels), **identity["subsample"]
        )
        return write_corpus_files(None, out_dir, name, identity, summary)
    source = source_of(identity)
    documents = {k: v for k, v in identity.items() if k != "expansions"}
    source.check_download(documents, archive)
    reader = source.corpus_reader(documents, archive)
    probe_remote_files(reader, (dataset_reader(entry, archive) for entry in readers))
    return write_corpus_files(reader, out_dir, name, identity)


def prepare(
    name: str,
    entry: dict[str, Any],
    out_dir: str | Path,
    documents: str | Path,
    corpus: str,
    archive: str | Path | None = None,
) -> dict[str, Any]:
    """The queries and judgments of one dataset in canonical form, judgments checked
    against the `documents` (corpus.parquet) of its corpus, named `corpus`; a BEIR archive
    is first checked against its md5, downloaded or not."""
    source_of(entry).check_download(entry, archive)
    read_at_corpus_commits(documents)
    return prepare_dataset(dataset_reader(entry, archive), out_dir, name, entry, documents, corpus)
