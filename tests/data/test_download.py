"""Downloads from a real HTTP server on 127.0.0.1: verified, atomic, never half-done."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from support.archive_server import PAYLOAD, tiny_beir_zip
from support.samefiles import assert_same_bytes

from sparsebench.core.errors import DownloadError
from sparsebench.data.download import beir_archive, beir_checksums, download
from sparsebench.data.stages import download_beir


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_verified_download(server, tmp_path):
    md5 = hashlib.md5(PAYLOAD).hexdigest()
    assert download(f"{server}/good.zip", tmp_path / "a.zip", md5, retries=0) == md5
    assert_same_bytes((tmp_path / "a.zip").read_bytes(), PAYLOAD, "a.zip")
    assert leftovers(tmp_path) == ["a.zip", "a.zip.md5"]  # the archive and its verified md5


def test_checksum_mismatch_leaves_nothing(server, tmp_path):
    with pytest.raises(DownloadError, match="checksum mismatch"):
        download(f"{server}/good.zip", tmp_path / "a.zip", "0" * 32, retries=0)
    assert leftovers(tmp_path) == []


def test_truncated_download_leaves_nothing(server, tmp_path):
    md5 = hashlib.md5(PAYLOAD).hexdigest()
    with pytest.raises(DownloadError):
        download(f"{server}/truncated.zip", tmp_path / "a.zip", md5, retries=1)
    assert leftovers(tmp_path) == []


def test_missing_file_is_reported(server, tmp_path):
    with pytest.raises(DownloadError, match="404"):
        download(f"{server}/nope.zip", tmp_path / "a.zip", "0" * 32, retries=3)
    assert leftovers(tmp_path) == []


def test_a_beir_download_without_network_says_what_to_do_instead(tmp_path):
    """No server answers (port 9, discard): the error names the URL and the ways round it,
    not only urllib's words."""
    target = tmp_path / "scifact.zip"
    with pytest.raises(DownloadError) as raised:
        download_beir("scifact", target, "http://127.0.0.1:9/beir", retries=0, timeout_s=5)
    message = str(raised.value)
    assert "could not download http://127.0.0.1:9/beir/scifact.zip" in message
    for way in (str(target), "download.beir_base_url", "base_url", "source: local"):
        assert way in message, way
    assert leftovers(tmp_path) == []


def test_beir_checksums_are_the_corrected_ones():
    table = beir_checksums()
    assert table["scifact"][0] == "5f7d1de60b170fc8027bb7898e2efca1"
    assert table["fever"][0] == "5a818580227bfb4b35bb6fa46d9b6c03"  # not scifact's, nor 88591ef8
    url, md5 = beir_archive("scifact", "https://mirror.example/beir/")
    assert url == "https://mirror.example/beir/scifact.zip" and md5 == table["scifact"][0]
    with pytest.raises(DownloadError, match="give its checksum"):
        beir_archive("not-a-beir-set", "https://x")


@pytest.mark.slow
def test_an_archive_put_in_place_by_hand_is_checked_and_never_deleted(tmp_path):
    """Offline, an archive copied into results/downloads/beir/ is used (once its md5 is
    checked), never downloaded over or deleted; a wrong one is refused and left alone."""
    import yaml
    from conftest import TINY_DOCS
    from support.snakemake_runs import snakemake

    from sparsebench.data.download import verify_archive

    workdir = tmp_path / "work"
    archive = workdir / "results" / "downloads" / "beir" / "tinybeir.zip"
    md5 = tiny_beir_zip(archive, TINY_DOCS)
    placed = archive.read_bytes()
    entry = {"source": "beir", "name": "tinybeir", "base_url": "http://127.0.0.1:9", "md5": md5}
    config = {"datasets": {"tiny": entry}, "models": {"bm25": {"kind": "bm25"}}}
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(config))
    prepared = "results/data/tiny/dataset.json"  # the archive is read up to here
    snakemake(workdir, prepared, configfile=configfile)
    assert archive.read_bytes() == placed
    assert not (workdir / "results" / "logs" / "download_beir").exists()
    assert (workdir / prepared).is_file()
    (log,) = (workdir / "results" / "logs" / "prepare_corpus").glob("tinybeir-*.log")
    assert f"tinybeir.zip: md5 {md5} OK" in log.read_text()

    # another archive under the same name: refused when the corpus is read, left in place
    wrong = tiny_beir_zip(tmp_path / "other" / "tinybeir.zip", TINY_DOCS[:-1])
    archive.write_bytes((tmp_path / "other" / "tinybeir.zip").read_bytes())
    result = snakemake(workdir, prepared, configfile=configfile, check=False)
    assert result.returncode != 0
    text = log.read_text()
    assert f"has md5 {wrong}, not the expected {md5}" in text and "left in place" in text
    assert archive.is_file() and hashlib.md5(archive.read_bytes()).hexdigest() == wrong
    with pytest.raises(DownloadError, match="not the expected"):
        verify_archive(archive, md5)


def test_the_md5_stamp_is_trusted_only_while_the_file_is_unchanged(tmp_path):
    from sparsebench.data.download import verify_archive

    archive = tmp_path / "a.zip"
    archive.write_bytes(PAYLOAD)
    md5 = hashlib.md5(PAYLOAD).hexdigest()
    verify_archive(archive, md5)
    assert json.loads((tmp_path / "a.zip.md5").read_text())["md5"] == md5
    archive.write_bytes(PAYLOAD[:-1] + b"!")  # same size, new content and mtime
    os.utime(archive, ns=(1, 1))
    with pytest.raises(DownloadError, match="not the expected"):
        verify_archive(archive, md5)
