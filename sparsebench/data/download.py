"""Fetch dataset archives: stream to a temporary name, verify the md5, then move.

A partial or corrupt download is never taken as done: the file only appears under its
final name after its checksum matched. An archive used by prepare is checked again
(verify_archive), whoever put it in place.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import logging
import os
import time
import urllib.error
import urllib.request
from importlib import resources
from pathlib import Path
from typing import Any

from sparsebench.core.errors import DownloadError
from sparsebench.core.fileio import atomic_path
from sparsebench.core.progress import progress

log = logging.getLogger(__name__)
_BLOCK = 1 << 20


def beir_checksums() -> dict[str, tuple[str, int]]:
    """{dataset name: (md5, bytes)} of the public BEIR archives."""
    text = resources.files("sparsebench").joinpath("resources/beir_checksums.tsv").read_text()
    table = {}
    for line in text.splitlines():
        if not line or line.startswith("#") or line.startswith("dataset\t"):
            continue
        name, md5, size = line.split("\t")
        table[name] = (md5, int(size))
    return table


def beir_md5(name: str, md5: str | None = None) -> str:
    """The md5 a BEIR archive must have: `md5` if given, else the built-in table's."""
    if md5 is not None:
        return md5
    known = beir_checksums()
    if name not in known:
        raise DownloadError(
            f"no known md5 for BEIR dataset {name!r} (known: {', '.join(sorted(known))}); "
            "give its checksum as `md5:` in the dataset entry"
        )
    return known[name][0]


def beir_archive(name: str, base_url: str, md5: str | None = None) -> tuple[str, str]:
    """URL and expected md5 of a BEIR archive; `md5` overrides the built-in table."""
    return f"{base_url.rstrip('/')}/{name}.zip", beir_md5(name, md5)


def download(
    url: str,
    target: str | os.PathLike,
    md5: str,
    retries: int = 3,
    timeout_s: float = 60.0,
    hint: str = "",
) -> str:
    """Download `url` to `target` if its md5 matches; return the md5.

    Retries network errors with backoff; a checksum mismatch is not retried (the source
    itself is wrong) and leaves no file behind. `hint`: what the user can do instead,
    added to the error when the download fails.
    """
    target = Path(target)
    for attempt in range(retries + 1):
        try:
            return _download_once(url, target, md5, timeout_s)
        except (
            urllib.error.URLError,
            http.client.HTTPException,
            TimeoutError,
            ConnectionError,
        ) as exc:
            client_error = isinstance(exc, urllib.error.HTTPError) and 400 <= exc.code < 500
            if attempt == retries or client_error:
                raise DownloadError(f"could not download {url}: {exc}{hint}") from exc
            wait = 2.0**attempt
            log.warning("download of %s failed (%s); retrying in %.0f s", url, exc, wait)
            time.sleep(wait)
    raise AssertionError("unreachable")


def _stamp_path(archive: Path) -> Path:
    return archive.with_name(archive.name + ".md5")


def _identity(archive: Path) -> dict[str, Any]:
    stat = archive.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _write_stamp(archive: Path, md5: str) -> None:
    """Record that `archive`, as it is now (size, mtime), has checksum `md5`."""
    with atomic_path(_stamp_path(archive)) as tmp:
        tmp.write_text(json.dumps({"md5": md5, **_identity(archive)}) + "\n", encoding="utf-8")


def file_md5(path: str | os.PathLike) -> str:
    digest = hashlib.md5()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(_BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_archive(archive: str | os.PathLike, md5: str) -> None:
    """Refuse an archive whose md5 is not `md5`, whoever put it there (a download, or a
    user copying it in). The file is never deleted: the error says what to do. A stamp
    beside it (`<archive>.md5`, the checksum with the size and mtime it was computed for)
    spares re-reading gigabytes while the file is unchanged."""
    archive = Path(archive)
    if not archive.is_file():
        raise DownloadError(f"{archive} does not exist")
    stamp = _stamp_path(archive)
    if stamp.is_file():
        try:
            recorded = json.loads(stamp.read_text(encoding="utf-8"))
        except ValueError:
            recorded = {}
        if recorded == {"md5": md5, **_identity(archive)}:
            return
    actual = file_md5(archive)
    if actual != md5:
        raise DownloadError(
            f"{archive} has md5 {actual}, not the expected {md5}: it is not the archive "
            "the dataset entry names, or it is damaged. It was left in place; replace it "
            "with the right archive (or delete it to have it downloaded), or give its "
            "checksum as `md5:` in the dataset entry if it is a different archive on purpose"
        )
    _write_stamp(archive, actual)
    log.info("%s: md5 %s OK", archive, actual)


def _download_once(url: str, target: Path, md5: str, timeout_s: float) -> str:
    digest = hashlib.md5()
    received = 0
    started = time.monotonic()
    with atomic_path(target) as tmp:
        request = urllib.request.Request(url, headers={"User-Agent": "sparsebench"})
        with urllib.request.urlopen(request, timeout=timeout_s) as response, open(tmp, "wb") as out:
            total = int(response.headers.get("Content-Length") or 0)
            log.info("downloading %s (%s bytes)", url, total or "unknown")
            with progress(total or None, "downloading", unit="B", scale=True) as bar:
                for block in iter(lambda: response.read(_BLOCK), b""):
                    out.write(block)
                    digest.update(block)
                    received += len(block)
                    bar.update(len(block))
        if total and received != total:
            raise DownloadError(f"download of {url} stopped after {received} of {total} bytes")
        actual = digest.hexdigest()
        if actual != md5:
            raise DownloadError(
                f"checksum mismatch for {url}: md5 {actual}, expected {md5} "
                f"({received} bytes). The archive is corrupt or not the one expected; "
                "it was not kept."
            )
    _write_stamp(target, actual)
    log.info(
        "downloaded %s: %d bytes in %.1f s, md5 %s OK",
        url,
        received,
        time.monotonic() - started,
        actual,
    )
    return actual
