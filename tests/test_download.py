"""Downloads from a real HTTP server on 127.0.0.1: verified, atomic, never half-done."""

from __future__ import annotations

import hashlib
import http.server
import threading
from pathlib import Path

import pytest
from samefiles import assert_same_bytes

from sparsebench.download import beir_archive, beir_checksums, download
from sparsebench.errors import DownloadError

PAYLOAD = b"sparsebench archive bytes " * 1000


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's naming)
        if self.path == "/good.zip":
            self.send_response(200)
            self.send_header("Content-Length", str(len(PAYLOAD)))
            self.end_headers()
            self.wfile.write(PAYLOAD)
        elif self.path == "/truncated.zip":
            self.send_response(200)
            self.send_header("Content-Length", str(len(PAYLOAD)))
            self.end_headers()
            self.wfile.write(PAYLOAD[:100])
            self.wfile.flush()
            self.connection.shutdown(2)
        else:
            self.send_error(404)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_verified_download(server, tmp_path):
    md5 = hashlib.md5(PAYLOAD).hexdigest()
    assert download(f"{server}/good.zip", tmp_path / "a.zip", md5, retries=0) == md5
    assert_same_bytes((tmp_path / "a.zip").read_bytes(), PAYLOAD, "a.zip")
    assert leftovers(tmp_path) == ["a.zip"]


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


def test_beir_checksums_are_the_corrected_ones():
    table = beir_checksums()
    assert table["scifact"][0] == "5f7d1de60b170fc8027bb7898e2efca1"
    assert table["fever"][0] == "5a818580227bfb4b35bb6fa46d9b6c03"  # not scifact's
    url, md5 = beir_archive("scifact", "https://mirror.example/beir/")
    assert url == "https://mirror.example/beir/scifact.zip" and md5 == table["scifact"][0]
    with pytest.raises(DownloadError, match="give its checksum"):
        beir_archive("not-a-beir-set", "https://x")
