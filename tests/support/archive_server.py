"""An HTTP server on 127.0.0.1 that serves an archive whole, cut short, or not at all."""

from __future__ import annotations

import hashlib
import http.server
import threading
import zipfile
from pathlib import Path

import pytest

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


def tiny_beir_zip(path: Path, docs) -> str:
    """A BEIR-layout archive of a tiny collection; its md5."""
    from conftest import TINY_QRELS, TINY_QUERIES, write_collection

    folder = write_collection(path.parent / f"src-{path.stem}", docs, TINY_QUERIES, TINY_QRELS)
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for member in sorted(folder.rglob("*")):
            if member.is_file():
                archive.write(member, "tinybeir/" + member.relative_to(folder).as_posix())
    return hashlib.md5(path.read_bytes()).hexdigest()
