"""Fetch dataset archives: stream to a temporary name, verify the md5, then move.

A partial or corrupt download is never taken as done: the file only appears under its
final name after its checksum matched.
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import os
import time
import urllib.error
import urllib.request
from importlib import resources
from pathlib import Path

from sparsebench.errors import DownloadError
from sparsebench.fileio import atomic_path
from sparsebench.logs import progress

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


def beir_archive(name: str, base_url: str, md5: str | None = None) -> tuple[str, str]:
    """URL and expected md5 of a BEIR archive; `md5` overrides the built-in table."""
    url = f"{base_url.rstrip('/')}/{name}.zip"
    if md5 is None:
        known = beir_checksums()
        if name not in known:
            raise DownloadError(
                f"no known md5 for BEIR dataset {name!r} (known: {', '.join(sorted(known))}); "
                "give its checksum as `md5:` in the dataset entry"
            )
        md5 = known[name][0]
    return url, md5


def download(
    url: str, target: str | os.PathLike, md5: str, retries: int = 3, timeout_s: float = 60.0
) -> str:
    """Download `url` to `target` if its md5 matches; return the md5.

    Retries network errors with backoff; a checksum mismatch is not retried (the source
    itself is wrong) and leaves no file behind.
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
                raise DownloadError(f"could not download {url}: {exc}") from exc
            wait = 2.0**attempt
            log.warning("download of %s failed (%s); retrying in %.0f s", url, exc, wait)
            time.sleep(wait)
    raise AssertionError("unreachable")


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
    log.info(
        "downloaded %s: %d bytes in %.1f s, md5 %s OK",
        url,
        received,
        time.monotonic() - started,
        actual,
    )
    return actual
