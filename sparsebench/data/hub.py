"""Collections published on the Hugging Face hub: their files, fetched and streamed.

Each source reads the files of the hub repository, or a local folder in the same layout
(so tests and mirrors use the same code path); the corpus is streamed with the
`datasets` library in batches, never held whole.

The sources built on it: sparsebench.data.miracl and sparsebench.data.mmarco.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from sparsebench.core.errors import DataError
from sparsebench.data import hubrepo

log = logging.getLogger(__name__)
BATCH = 10_000


def is_local(source: str) -> bool:
    return Path(source).expanduser().exists()


def resolved_commits(revision: str, *repos: str) -> dict[str, str]:
    """The commit each hub repository's files were read at in this process (for
    provenance)."""
    return hubrepo.read_commits([r for r in repos if not is_local(r)], revision)


def fetch_file(source: str, relative: str, revision: str = "main") -> Path:
    """A file of a hub dataset repository at the commit `revision` resolves to (downloaded
    once into the hub cache), or of a local folder in the same layout.

    Only data files are read, never a repository's loading script, so repositories that
    still ship one (miracl, mmarco) load with any version of `datasets`. A file is moved
    into the cache only when complete: a killed download is never taken for whole.
    Offline (HF_HUB_OFFLINE=1), the cached copy is used."""
    if not is_local(source):
        return hubrepo.fetch(source, relative, revision)
    path = Path(source).expanduser() / relative
    if not path.is_file():
        raise DataError(f"{path} does not exist (expected the hub layout under {source})")
    return path


def remote_file(source: str, relative: str, revision: str) -> list[hubrepo.RemoteFile]:
    """The file (or glob) to probe before a download: none for a local folder."""
    return [] if is_local(source) else [hubrepo.RemoteFile(source, relative, revision)]


def _natural_key(path: Path) -> list[Any]:
    """docs-2 before docs-10: the files in the order their publishers numbered them."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.as_posix())]


def matching_files(source: str, pattern: str, revision: str = "main") -> list[Path]:
    """The files matching `pattern` (a glob relative to the repository or folder root) of a
    local folder, or of a hub dataset repository once fetched, in natural order. Shards
    named `-00003-of-00010` must all be there; a hub repository's files are those of its
    listing (sparsebench.data.hubrepo)."""
    if not is_local(source):
        return sorted(hubrepo.snapshot(source, pattern, revision), key=_natural_key)
    root = Path(source).expanduser()
    files = sorted((p for p in root.glob(pattern) if p.is_file()), key=_natural_key)
    if not files:
        raise DataError(f"no file matches {pattern} in {source}")
    missing = hubrepo.missing_shards([p.relative_to(root).as_posix() for p in files])
    if missing:
        raise DataError(f"{source} lacks {len(missing)} shards of {pattern}: {', '.join(missing)}")
    return files


def stream_records(
    source: str,
    pattern: str,
    columns: list[str] | None = None,
    batch_size: int = BATCH,
    revision: str = "main",
) -> Iterator[dict[str, list]]:
    """Batches (dicts of lists) of the records in the files matching `pattern`, read by the
    packaged builders of `datasets` (json, csv, parquet) in streaming mode: memory is
    bounded by the batch, whatever the size of the files."""
    import datasets

    files = [str(p) for p in matching_files(source, pattern, revision)]
    options: dict[str, Any] = {}
    if pattern.endswith((".tsv", ".tsv.gz")):
        if not columns:
            raise DataError(f"{pattern}: a TSV file of {source} is read with named columns")
        builder = "csv"
        options = tsv_options(columns)
    else:
        builder = "parquet" if files[0].endswith(".parquet") else "json"
    dataset = datasets.load_dataset(
        builder, data_files=files, split="train", streaming=True, **options
    )
    yield from dataset.iter(batch_size=batch_size)


def tsv_options(columns: list[str]) -> dict[str, Any]:
    """Options of the `datasets` csv builder for a headerless TSV of string fields, read
    verbatim: pandas would otherwise turn a passage whose whole text is `N/A`, `null`, `nan`
    or `None` into a missing (then empty) one, and `007` into the number 7."""
    import datasets

    return {
        "delimiter": "\t",
        "column_names": columns,
        "quoting": 3,
        "keep_default_na": False,
        "na_filter": False,
        "features": datasets.Features({c: datasets.Value("string") for c in columns}),
    }


def corpus_batch(records: dict[str, list], id_field: str, has_title: bool) -> pa.RecordBatch:
    size = len(records[id_field])
    ids = pa.array([str(v) if isinstance(v, int) else v for v in records[id_field]], pa.string())
    title = pa.array(records["title"], pa.string()) if has_title else pa.nulls(size, pa.string())
    return pa.record_batch(
        [ids, title, pa.array(records["text"], pa.string())], names=["_id", "title", "text"]
    )


def read_topics(path: Path) -> pa.Table:
    """Topics as `id \\t text` lines (the text may hold spaces): query_id, text."""
    frame = pd.read_csv(
        path,
        sep="\t",
        header=None,
        dtype=str,
        quoting=3,
        keep_default_na=False,
        na_filter=False,
        names=["id", "text"],
        usecols=[0, 1],
        engine="c",
    )
    return pa.table(
        {
            "query_id": pa.array(frame["id"], pa.string()),
            "text": pa.array(frame["text"], pa.string()),
        }
    )


def closest_name(name: str, known: list[str] | tuple[str, ...]) -> str:
    """' (did you mean X?)' when a known name is close to `name`."""
    normal = {k.replace("-", "").replace("_", "").lower(): k for k in known}
    guess = normal.get(name.replace("-", "").replace("_", "").lower())
    if guess is None:
        matches = difflib.get_close_matches(name, list(known), n=1)
        guess = matches[0] if matches else None
    return f" (did you mean {guess!r}?)" if guess else ""


def unknown_name(what: str, kind: str, name: str, known: list[str] | tuple[str, ...]) -> str:
    return f"{what} has no {kind} {name!r}{closest_name(name, known)}; it has: {', '.join(known)}"
