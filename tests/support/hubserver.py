"""A local stand-in for the Hugging Face Hub's dataset file API, for offline tests.

`HubServer` serves the dataset repositories found under a folder (``root/<owner>/<name>/``
holds the files of ``owner/name``) over HTTP on 127.0.0.1, speaking enough of the Hub's
API for the installed `huggingface_hub` (hf_hub_download, snapshot_download, HfApi,
HfFileSystem) and `datasets` (hf:// data files, hub repositories) to work against it:

    GET  /api/datasets/{repo}                          repo info (sha, siblings, cardData)
    GET  /api/datasets/{repo}/revision/{rev}           same, at a revision
    GET  /api/datasets/{repo}/tree/{rev}[/{path}]      listing (?recursive, ?expand, paginated)
    POST /api/datasets/{repo}/paths-info/{rev}         info on given paths (form: paths, expand)
    GET  /api/datasets/{repo}/refs                     branches and tags
    GET  /api/datasets/{repo}/commits/{rev}            the (single, fake) commit
    HEAD /datasets/{repo}/resolve/{rev}/{path}         file metadata (X-Repo-Commit, ETag, ...)
    GET  /datasets/{repo}/resolve/{rev}/{path}         file bytes, with Range support

A repository can be gated (`gate`: its files answer 401 or 403 with ``X-Error-Code``
GatedRepo, as the Hub answers a client without access), and its current files kept under
their commit once they change (`keep`: a past commit, still served).

Errors are answered as the Hub does: 404 with ``X-Error-Code`` RepoNotFound,
RevisionNotFound or EntryNotFound (and ``X-Repo-Commit`` on a missing file). No Xet header
is ever sent, so clients download over plain HTTP. Each repository has one current commit:
its sha is derived from the files' paths and contents, so it changes when the files change;
the revisions ``main`` (plus any given in ``refs``) and that sha resolve to it.

Files with an LFS-like suffix (or bigger than 10 MiB) are described as LFS files (ETag =
sha256, ``lfs`` metadata in listings), the others as plain git blobs (ETag = git blob sha1).

`serve_hub` starts a server and points the in-process clients at it (environment, and the
module constants `huggingface_hub` and `datasets` read at import time); `hub_env` gives
the environment a subprocess needs to use it.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib
import json
import os
import re
import socket
import sys
import tempfile
import threading
import traceback
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.metadata import version
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

import pytest

# `datasets` 4 and later refuse a repository's loading script (and stop fetching it); the
# older releases the project allows run it. Tests of that behaviour of the library itself
# (the reason the hub reader never loads a repository by name) need the newer ones.
NEEDS_SCRIPT_REFUSAL = pytest.mark.skipif(
    int(version("datasets").split(".")[0]) < 4,
    reason="datasets before 4 runs loading scripts instead of refusing them",
)

# Suffixes the Hub's default .gitattributes stores with LFS.
_LFS = """.7z .arrow .avro .bin .bz2 .ckpt .ftz .gz .h5 .joblib .lfs .lz4 .mds .mlmodel .model
.msgpack .npy .npz .onnx .ot .parquet .pb .pickle .pkl .pt .pth .rar .safetensors .tar .tfrecord
.tflite .tgz .wasm .xz .zip .zst .zstandard .mp3 .ogg .wav .flac .jpg .jpeg .png .webp .mp4"""
LFS_SUFFIXES = frozenset(_LFS.split())
LFS_MIN_SIZE = 10 * 1024 * 1024
_CHUNK = 64 * 1024
_DATE = "2024-01-01T00:00:00.000Z"  # fallback date (empty repository)


def _git_blob_sha1(size: int) -> Any:
    return hashlib.sha1(b"blob %d\0" % size)


def _iso(timestamp: float) -> str:
    moment = datetime.fromtimestamp(timestamp, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


# --------------------------------------------------------------------------------------
# Repository snapshots


@dataclass(frozen=True)
class HubFile:
    path: str  # relative to the repository root, "/"-separated
    local: Path
    size: int
    oid: str  # git blob sha1 of the file (or of its LFS pointer)
    sha256: str | None = None  # set for LFS files
    pointer_size: int | None = None

    @property
    def etag(self) -> str:
        return self.sha256 or self.oid

    def tree_entry(self, commit: dict[str, str] | None = None) -> dict[str, Any]:
        entry: dict[str, Any] = {"type": "file", "oid": self.oid, "size": self.size}
        if self.sha256 is not None:
            entry["lfs"] = {"oid": self.sha256, "size": self.size, "pointerSize": self.pointer_size}
        entry["path"] = self.path
        if commit is not None:
            entry["lastCommit"] = commit
            entry["securityFileStatus"] = {
                "status": "safe",
                "avScan": {"virusFound": False, "virusNames": None},
                "pickleImportScan": None,
            }
        return entry


@dataclass
class Snapshot:
    repo_id: str
    sha: str
    files: dict[str, HubFile]
    dirs: dict[str, str]  # folder path -> fake tree oid
    last_modified: str

    def commit_info(self) -> dict[str, str]:
        return {"id": self.sha, "title": "Upload dataset", "date": self.last_modified}

    def dir_entry(self, path: str, expand: bool) -> dict[str, Any]:
        entry: dict[str, Any] = {"type": "directory", "oid": self.dirs[path], "size": 0}
        entry["path"] = path
        if expand:
            entry["lastCommit"] = self.commit_info()
        return entry

    def entry(self, path: str, expand: bool) -> dict[str, Any]:
        if path in self.files:
            return self.files[path].tree_entry(self.commit_info() if expand else None)
        return self.dir_entry(path, expand)

    def children(self, folder: str) -> list[str]:
        """Direct children of `folder` ("" for the root): folders first, then files."""
        prefix = folder + "/" if folder else ""
        depth = prefix.count("/")

        def direct(paths) -> list[str]:
            return sorted(p for p in paths if p.startswith(prefix) and p.count("/") == depth)

        return direct(p for p in self.dirs if p) + direct(self.files)

    def walk(self, folder: str, recursive: bool) -> list[str]:
        out: list[str] = []
        for child in self.children(folder):
            out.append(child)
            if recursive and child in self.dirs:
                out.extend(self.walk(child, recursive=True))
        return out


class _Repos:
    """Builds snapshots of the folders under root, hashing each file once per version."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._hashes: dict[Path, tuple[tuple[int, int], str, str]] = {}
        self._lock = threading.Lock()

    def folder(self, repo_id: str) -> Path | None:
        owner, _, name = repo_id.partition("/")
        if not owner or not name or "/" in name or owner.startswith(".") or name.startswith("."):
            return None
        folder = self.root / owner / name
        return folder if folder.is_dir() else None

    def _hash(self, path: Path, size: int, mtime: int) -> tuple[str, str]:
        with self._lock:
            cached = self._hashes.get(path)
        if cached is not None and cached[0] == (size, mtime):
            return cached[1], cached[2]
        blob, sha256 = _git_blob_sha1(size), hashlib.sha256()
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                blob.update(chunk)
                sha256.update(chunk)
        with self._lock:
            self._hashes[path] = ((size, mtime), blob.hexdigest(), sha256.hexdigest())
        return blob.hexdigest(), sha256.hexdigest()

    def snapshot(self, repo_id: str) -> Snapshot | None:
        folder = self.folder(repo_id)
        if folder is None:
            return None
        files: dict[str, HubFile] = {}
        newest = 0.0
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if d != ".git")
            for filename in sorted(filenames):
                local = Path(dirpath) / filename
                stat = local.stat()
                rel = local.relative_to(folder).as_posix()
                blob_oid, sha256 = self._hash(local, stat.st_size, stat.st_mtime_ns)
                newest = max(newest, stat.st_mtime)
                if local.suffix.lower() in LFS_SUFFIXES or stat.st_size > LFS_MIN_SIZE:
                    pointer = (
                        "version https://git-lfs.github.com/spec/v1\n"
                        f"oid sha256:{sha256}\nsize {stat.st_size}\n"
                    ).encode()
                    oid = _git_blob_sha1(len(pointer))
                    oid.update(pointer)
                    files[rel] = HubFile(
                        rel, local, stat.st_size, oid.hexdigest(), sha256, len(pointer)
                    )
                else:
                    files[rel] = HubFile(rel, local, stat.st_size, blob_oid)
        dirs: dict[str, str] = {}
        for rel in files:
            parts = rel.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.setdefault("/".join(parts[:i]), "")
        for path in sorted(dirs, key=lambda p: -p.count("/")):  # deepest folders first
            prefix = path + "/"
            listing = "\n".join(
                f"{p} {files[p].oid if p in files else dirs[p]}"
                for p in sorted(list(files) + list(dirs))
                if p.startswith(prefix) and "/" not in p[len(prefix) :]
            )
            dirs[path] = hashlib.sha1(f"tree\n{listing}".encode()).hexdigest()
        listing = "\n".join(f"{p} {f.oid}" for p, f in sorted(files.items()))
        sha = hashlib.sha1(f"{repo_id}\n{listing}".encode()).hexdigest()
        last_modified = _iso(newest) if files else _DATE
        return Snapshot(repo_id, sha, files, dirs, last_modified)


# --------------------------------------------------------------------------------------
# The server


@dataclass(frozen=True)
class LoggedRequest:
    method: str
    path: str  # decoded path, without the query
    query: dict[str, list[str]]
    range: str | None
    status: int

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


@dataclass
class _Fault:
    kind: str  # "cut" (close the connection after `after` body bytes) or "status"
    after: int = 0
    status: int = 500


class _HttpError(Exception):
    def __init__(self, status: int, message: str, code: str | None = None, **headers: str):
        super().__init__(message)
        self.status, self.message, self.code, self.headers = status, message, code, headers


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, hub: HubServer) -> None:
        self.hub = hub
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    def process_request(self, request, client_address) -> None:
        with self.connections_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:
        with self.connections_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request, client_address) -> None:
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError)):  # a client going away is fine
            self.hub._record_error(traceback.format_exc())


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"  # keep-alive, as clients pool their connections
    server_version = "hubserver"

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.hub.quiet:
            sys.stderr.write(f"hubserver: {format % args}\n")

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    # ---------------------------------------------------------------- plumbing

    def _dispatch(self, method: str) -> None:
        hub = self.server.hub
        split = urlsplit(self.path)
        self._raw_path = split.path
        self._query = parse_qs(split.query, keep_blank_values=True)
        length = int(self.headers.get("Content-Length") or 0)
        self._body = self.rfile.read(length) if length else b""
        self._status = 0
        self._logged = False
        try:
            try:
                self._route(method, [unquote(s) for s in split.path.split("/")[1:]])
            except _HttpError as error:
                self._send_error(error)
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception:
            hub._record_error(traceback.format_exc())
            if not self._status:
                self._send_error(_HttpError(500, "Internal Error - hubserver failed"))
            self.close_connection = True
        finally:
            if not self._logged:  # the connection broke before any answer
                self._log()

    def _log(self) -> None:
        self._logged = True
        request = LoggedRequest(
            self.command,
            unquote(self._raw_path),
            self._query,
            self.headers.get("Range"),
            self._status,
        )
        self.server.hub._log(request)

    def _start(self, status: int, headers: dict[str, str]) -> None:
        self._status = status
        self._log()  # before answering: a client that got its answer finds it in the log
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()

    def _send_json(self, data: Any, status: int = 200, **headers: str) -> None:
        body = json.dumps(data).encode()
        self._start(
            status,
            {
                "Content-Type": "application/json; charset=utf-8",
                "Content-Length": str(len(body)),
                **headers,
            },
        )
        if self.command != "HEAD":
            self.wfile.write(body)

    def _send_error(self, error: _HttpError) -> None:
        headers = {"X-Error-Message": error.message, **error.headers}
        if error.code:
            headers["X-Error-Code"] = error.code
        self._send_json({"error": error.message}, status=error.status, **headers)

    def _param(self, name: str, default: str = "") -> str:
        values = self._query.get(name)
        return values[-1] if values else default

    def _flag(self, name: str) -> bool:
        return self._param(name).lower() in ("1", "true", "yes")

    # ---------------------------------------------------------------- routes

    def _route(self, method: str, parts: list[str]) -> None:
        raw = self._raw_path.split("/")[1:]  # still quoted: a quoted "/" stays in its segment
        resolve = len(parts) >= 6 and parts[0] == "datasets" and parts[3] == "resolve"
        if method in ("GET", "HEAD") and resolve:
            revision, path = _split_revision(raw[4:])
            return self._resolve(f"{parts[1]}/{parts[2]}", revision, path)
        if len(parts) >= 4 and parts[:2] == ["api", "datasets"]:
            repo_id = f"{parts[2]}/{parts[3]}"
            rest, raw_rest = parts[4:], raw[4:]
            if method == "GET" and not rest:
                return self._info(repo_id, None)
            if method == "GET" and rest[0] == "revision" and len(rest) >= 2:
                return self._info(repo_id, unquote("/".join(raw_rest[1:])))
            if method == "GET" and rest[0] == "tree" and len(rest) >= 2:
                revision, path = _split_revision(raw_rest[1:])
                return self._tree(repo_id, revision, path.strip("/"))
            if method == "POST" and rest[0] == "paths-info" and len(rest) >= 2:
                return self._paths_info(repo_id, unquote("/".join(raw_rest[1:])))
            if method == "GET" and rest == ["refs"]:
                return self._refs(repo_id)
            if method == "GET" and rest[0] == "commits" and len(rest) >= 2:
                return self._commits(repo_id, unquote("/".join(raw_rest[1:])))
        raise _HttpError(404, "Sorry, we can't find the page you are looking for.")

    def _snapshot(self, repo_id: str, revision: str | None) -> Snapshot:
        hub = self.server.hub
        kept = hub._kept.get((repo_id, revision or ""))
        if kept is not None:
            return kept
        snapshot = hub.snapshot(repo_id)
        if snapshot is None:
            raise _HttpError(404, "Repository not found", "RepoNotFound")
        if revision is not None and revision != snapshot.sha and revision not in hub.refs:
            raise _HttpError(404, f"Invalid rev id: {revision}", "RevisionNotFound")
        return snapshot

    def _info(self, repo_id: str, revision: str | None) -> None:
        snapshot = self._snapshot(repo_id, revision)
        blobs = self._flag("blobs")
        siblings = []
        for path, hub_file in sorted(snapshot.files.items()):
            sibling: dict[str, Any] = {"rfilename": path}
            if blobs:
                sibling.update(size=hub_file.size, blobId=hub_file.oid)
                if hub_file.sha256 is not None:
                    sibling["lfs"] = {
                        "sha256": hub_file.sha256,
                        "size": hub_file.size,
                        "pointerSize": hub_file.pointer_size,
                    }
            siblings.append(sibling)
        info: dict[str, Any] = {
            "_id": snapshot.sha[:24],
            "id": repo_id,
            "author": repo_id.split("/")[0],
            "sha": snapshot.sha,
            "lastModified": snapshot.last_modified,
            "private": False,
            "gated": "manual" if repo_id in self.server.hub._gated else False,
            "disabled": False,
            "downloads": 0,
            "likes": 0,
            "tags": [],
            "cardData": _card_data(snapshot),
            "siblings": siblings,
            "createdAt": snapshot.last_modified,
            "usedStorage": sum(f.size for f in snapshot.files.values()),
        }
        if info["cardData"] is None:
            del info["cardData"]
        expand = self._query.get("expand", []) + self._query.get("expand[]", [])
        if expand:
            info = {k: v for k, v in info.items() if k in ("_id", "id") or k in expand}
        self._send_json(info)

    def _tree(self, repo_id: str, revision: str, path: str) -> None:
        snapshot = self._snapshot(repo_id, revision)
        if path and path not in snapshot.dirs:
            # Missing, or a file: the client then looks the path up in its parent listing.
            raise _HttpError(404, f"Entry not found: {path}", "EntryNotFound")
        expand = self._flag("expand")
        entries = snapshot.walk(path, recursive=self._flag("recursive"))
        hub = self.server.hub
        page_size = hub.expand_page_size if expand else hub.page_size
        cursor = self._param("cursor")
        start = int(base64.urlsafe_b64decode(cursor).decode()) if cursor else 0
        page = entries[start : start + page_size]
        headers = {}
        if start + page_size < len(entries):
            params = {k: v[-1] for k, v in self._query.items() if k != "cursor"}
            params["cursor"] = base64.urlsafe_b64encode(str(start + page_size).encode()).decode()
            headers["Link"] = f'<{hub.endpoint}{self._raw_path}?{urlencode(params)}>; rel="next"'
        self._send_json([snapshot.entry(p, expand) for p in page], **headers)

    def _paths_info(self, repo_id: str, revision: str) -> None:
        snapshot = self._snapshot(repo_id, revision)
        if "json" in (self.headers.get("Content-Type") or ""):
            form = json.loads(self._body or b"{}")
            paths = form.get("paths", [])
            paths = [paths] if isinstance(paths, str) else paths
            expand = bool(form.get("expand"))
        else:
            form = parse_qs(self._body.decode(), keep_blank_values=True)
            paths = form.get("paths", [])
            expand = (form.get("expand") or ["false"])[-1].lower() in ("1", "true")
        out = []
        for path in paths:
            path = path.strip("/")
            if path in snapshot.files or (path and path in snapshot.dirs):
                out.append(snapshot.entry(path, expand))
        self._send_json(out)

    def _refs(self, repo_id: str) -> None:
        snapshot = self._snapshot(repo_id, None)
        hub = self.server.hub
        branches = [
            {"name": ref, "ref": f"refs/heads/{ref}", "targetCommit": snapshot.sha}
            for ref in hub.refs
        ]
        self._send_json({"branches": branches, "converts": [], "tags": []})

    def _commits(self, repo_id: str, revision: str) -> None:
        snapshot = self._snapshot(repo_id, revision)
        commit = {
            "id": snapshot.sha,
            "title": "Upload dataset",
            "message": "",
            "authors": [{"user": repo_id.split("/")[0], "avatar": None}],
            "date": snapshot.last_modified,
        }
        self._send_json([commit])

    def _resolve(self, repo_id: str, revision: str, path: str) -> None:
        snapshot = self._snapshot(repo_id, revision)
        gated = self.server.hub._gated.get(repo_id)
        if gated is not None:
            raise _HttpError(gated, _gated_message(repo_id, gated), "GatedRepo")
        hub_file = snapshot.files.get(path)
        if hub_file is None:
            commit = {"X-Repo-Commit": snapshot.sha}
            raise _HttpError(404, "Entry not found", "EntryNotFound", **commit)
        size = hub_file.size
        headers = {
            "Content-Type": _content_type(path),
            "Accept-Ranges": "bytes",
            "ETag": f'"{hub_file.etag}"',
            "X-Repo-Commit": snapshot.sha,
            "Content-Disposition": (
                f"inline; filename*=UTF-8''{quote(path.rsplit('/', 1)[-1])}; "
                f'filename="{path.rsplit("/", 1)[-1]}";'
            ),
        }
        if hub_file.sha256 is not None:
            headers["X-Linked-Etag"] = f'"{hub_file.sha256}"'
            headers["X-Linked-Size"] = str(size)
        status, start, end = 200, 0, size  # end is exclusive
        byte_range = _parse_range(self.headers.get("Range"), size)
        if byte_range == "unsatisfiable":
            raise _HttpError(
                416, "Requested Range Not Satisfiable", **{"Content-Range": f"bytes */{size}"}
            )
        if byte_range is not None:
            status, (start, end) = 206, byte_range
            headers["Content-Range"] = f"bytes {start}-{end - 1}/{size}"
        headers["Content-Length"] = str(end - start)
        if self.command == "HEAD":
            return self._start(status, headers)
        fault = self.server.hub._take_fault(repo_id, path)
        if fault is not None and fault.kind == "status":
            raise _HttpError(fault.status, "Injected failure")
        limit = end - start if fault is None else min(fault.after, end - start)
        self._start(status, headers)
        with open(hub_file.local, "rb") as handle:
            handle.seek(start)
            remaining = limit
            while remaining > 0:
                chunk = handle.read(min(_CHUNK, remaining))
                if not chunk:
                    break
                self.wfile.write(chunk)
                remaining -= len(chunk)
        if fault is not None and limit < end - start:
            self.wfile.flush()
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)


def _gated_message(repo_id: str, status: int) -> str:
    """The hub's words for a gated repository's file, without a token (401) or with one
    that has no access (403)."""
    if status == 401:
        return (
            f"Access to dataset {repo_id} is restricted. You must have access to it and be "
            "authenticated to access it. Please log in."
        )
    return (
        f"Access to dataset {repo_id} is restricted and you are not in the authorized list. "
        f"Visit https://huggingface.co/datasets/{repo_id} to ask for access."
    )


def _split_revision(raw: list[str]) -> tuple[str, str]:
    """(revision, path) from the still-quoted segments after `resolve/` or `tree/`. Clients
    quote the revision as one segment (refs%2Fpr%2F1); an unquoted refs/pr/N is accepted."""
    if len(raw) >= 3 and raw[0] == "refs" and raw[1] in ("pr", "convert", "heads", "tags"):
        return unquote("/".join(raw[:3])), unquote("/".join(raw[3:]))
    return unquote(raw[0]), unquote("/".join(raw[1:]))


def _parse_range(header: str | None, size: int) -> tuple[int, int] | str | None:
    """(start, end-exclusive) of a single `bytes=` range, "unsatisfiable", or None (ignored)."""
    if not header:
        return None
    match = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", header)
    if match is None or not (match[1] or match[2]):
        return None  # multiple or malformed ranges: answered with the whole file
    if not match[1]:  # suffix: the last N bytes
        suffix = int(match[2])
        if suffix == 0:
            return "unsatisfiable"
        return max(size - suffix, 0), size
    start = int(match[1])
    end = min(int(match[2]) + 1, size) if match[2] else size
    if start >= size or end <= start:
        return "unsatisfiable"
    return start, end


def _content_type(path: str) -> str:
    if path.endswith((".md", ".txt", ".py", ".tsv", ".csv", ".yaml", ".yml", ".gitattributes")):
        return "text/plain; charset=utf-8"
    if path.endswith((".json", ".jsonl")):
        return "application/json; charset=utf-8"
    return "application/octet-stream"


def _card_data(snapshot: Snapshot) -> dict | None:
    """The YAML header of README.md, as the Hub returns it in `cardData`."""
    readme = snapshot.files.get("README.md")
    if readme is None:
        return None
    text = readme.local.read_text(encoding="utf-8", errors="replace")
    match = re.match(r"^---\s*\n(.*?)\n---\s*(\n|$)", text, re.DOTALL)
    if match is None:
        return None
    try:
        import yaml

        data = yaml.safe_load(match[1])
    except Exception:  # noqa: BLE001 (the Hub ignores an unreadable card header too)
        return None
    return data if isinstance(data, dict) else None


class HubServer:
    """Serves the dataset repositories under `root` (``root/<owner>/<name>/...``).

    Use as a context manager; `endpoint` is its base URL. Every request is logged in
    `requests` (see `paths`), and unexpected server-side exceptions in `errors`.

    page_size: entries per page of the tree listing (1000 on the Hub; 50 when expanded).
    refs: the branch names that resolve to each repository's (single) commit, as its
        sha does.
    quiet: when False, the standard http.server request lines go to stderr.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        page_size: int = 1000,
        expand_page_size: int = 50,
        refs: tuple[str, ...] = ("main",),
        quiet: bool = True,
    ) -> None:
        self.root = Path(root)
        self.page_size = page_size
        self.expand_page_size = expand_page_size
        self.refs = tuple(refs)
        self.quiet = quiet
        self.requests: list[LoggedRequest] = []
        self.errors: list[str] = []
        self._repos = _Repos(self.root)
        self._faults: dict[tuple[str, str], deque[_Fault]] = {}
        self._gated: dict[str, int] = {}  # repository -> the status its files answer
        self._kept: dict[tuple[str, str], Snapshot] = {}  # (repository, sha) -> past files
        self._kept_files = tempfile.TemporaryDirectory(prefix="hubserver-kept-")
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._port: int | None = None

    # ---------------------------------------------------------------- lifecycle

    def start(self) -> HubServer:
        if self._server is not None:
            return self
        self._server = _Server(self)
        self._port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="hubserver",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        with server.connections_lock:
            connections = list(server.connections)
        for connection in connections:  # end keep-alive connections still held by clients
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join()
        self._kept_files.cleanup()

    def __enter__(self) -> HubServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("the hub server has not been started")
        return self._port

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # ---------------------------------------------------------------- repositories

    def snapshot(self, repo_id: str) -> Snapshot | None:
        """The files and commit of `repo_id` as served now (None if there is no such repo)."""
        return self._repos.snapshot(repo_id)

    def keep(self, repo_id: str) -> str:
        """Go on serving the repository's current files under their commit (returned) once
        they change, as the hub serves every past commit; `main` moves to the new files."""
        snapshot = self.snapshot(repo_id)
        if snapshot is None:
            raise KeyError(repo_id)
        folder = Path(self._kept_files.name) / snapshot.sha
        files = {}
        for path, hub_file in snapshot.files.items():
            copy = folder / path
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(hub_file.local.read_bytes())
            files[path] = dataclasses.replace(hub_file, local=copy)
        with self._lock:
            self._kept[(repo_id, snapshot.sha)] = dataclasses.replace(snapshot, files=files)
        return snapshot.sha

    def gate(self, repo_id: str, status: int = 401) -> None:
        """Refuse the files of `repo_id` (HEAD and GET) with `status`, as the hub refuses a
        gated repository's files: 401 without a token, 403 to an account without access.
        Its info and listings stay public, as the hub's do."""
        with self._lock:
            self._gated[repo_id] = status

    def commit(self, repo_id: str) -> str:
        """The commit sha `repo_id` resolves to."""
        snapshot = self.snapshot(repo_id)
        if snapshot is None:
            raise KeyError(repo_id)
        return snapshot.sha

    # ---------------------------------------------------------------- request log

    def paths(self, method: str | None = None) -> list[str]:
        """The paths requested so far (optionally only those of one method), in order."""
        with self._lock:
            return [r.path for r in self.requests if method is None or r.method == method]

    def downloads(self, repo_id: str | None = None) -> list[str]:
        """The files whose bytes were fetched (GET on resolve), as ``owner/name/path``."""
        out = []
        for path in self.paths("GET"):
            match = re.fullmatch(r"/datasets/([^/]+/[^/]+)/resolve/(?:refs/\w+/)?[^/]+/(.+)", path)
            if match and (repo_id is None or match[1] == repo_id):
                out.append(f"{match[1]}/{match[2]}")
        return out

    def clear_log(self) -> None:
        with self._lock:
            self.requests.clear()

    def _log(self, request: LoggedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _record_error(self, text: str) -> None:
        with self._lock:
            self.errors.append(text)
        if not self.quiet:
            sys.stderr.write(text)

    # ---------------------------------------------------------------- fault injection

    def interrupt(self, repo_id: str, path: str, after_bytes: int, times: int = 1) -> None:
        """Make the next `times` GETs of `path` announce the full length, send `after_bytes`
        bytes of the body, then close the connection (a download cut midway)."""
        self._add_faults(repo_id, path, [_Fault("cut", after=after_bytes)] * times)

    def fail(self, repo_id: str, path: str, status: int = 500, times: int = 1) -> None:
        """Make the next `times` GETs of `path` answer `status`."""
        self._add_faults(repo_id, path, [_Fault("status", status=status)] * times)

    def _add_faults(self, repo_id: str, path: str, faults: list[_Fault]) -> None:
        with self._lock:
            self._faults.setdefault((repo_id, path), deque()).extend(faults)

    def _take_fault(self, repo_id: str, path: str) -> _Fault | None:
        with self._lock:
            queue = self._faults.get((repo_id, path))
            return queue.popleft() if queue else None


# --------------------------------------------------------------------------------------
# Pointing clients at the server


def _layout_env(endpoint: str, cache_dir: str | os.PathLike[str]) -> dict[str, str]:
    cache = Path(cache_dir)
    return {
        "HF_ENDPOINT": endpoint,
        "HF_HUB_OFFLINE": "0",
        "HF_DATASETS_OFFLINE": "0",
        "HF_HOME": str(cache / "home"),
        "HF_HUB_CACHE": str(cache / "hub"),
        "HF_ASSETS_CACHE": str(cache / "assets"),
        "HF_XET_CACHE": str(cache / "xet"),
        "HF_TOKEN_PATH": str(cache / "home" / "token"),
        "HF_DATASETS_CACHE": str(cache / "datasets"),
        "HF_MODULES_CACHE": str(cache / "modules"),
        # No user-agent probe of {endpoint}/api/agent-harnesses, no count pings to S3.
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "HF_UPDATE_DOWNLOAD_COUNTS": "0",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        "HF_DATASETS_DISABLE_PROGRESS_BARS": "1",
    }


# Variables that would send a real token to the local server or override the layout.
_DROPPED = (
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "HUGGINGFACE_HUB_CACHE",
    "HUGGINGFACE_ASSETS_CACHE",
    "HUGGINGFACE_CO_STAGING",
    "TRANSFORMERS_OFFLINE",
    "HF_DATASETS_DOWNLOADED_DATASETS_PATH",
    "HF_DATASETS_EXTRACTED_DATASETS_PATH",
)


def hub_env(
    server: HubServer | str, cache_dir: str | os.PathLike[str], base: dict[str, str] | None = None
) -> dict[str, str]:
    """The environment for a subprocess (e.g. snakemake) to use `server` (or an endpoint
    URL), with its caches under `cache_dir`: `base` (default: os.environ) updated."""
    endpoint = server if isinstance(server, str) else server.endpoint
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in _DROPPED}
    env.update(_layout_env(endpoint, cache_dir))
    return env


_OPTIONAL = frozenset(
    {
        "HF_URL_HOSTS",
        "HF_XET_CACHE",
        "HF_STORED_TOKENS_PATH",
        "CHECK_FOR_UPDATE_DONE_PATH",
        "AGENT_HARNESSES_PATH",
        "HF_HUB_DISABLE_PROGRESS_BARS",
        "HF_ASSETS_CACHE",
        "HUGGINGFACE_ASSETS_CACHE",
        "HF_MODULES_CACHE",
        "USE_PARQUET_EXPORT",
        "HF_UPDATE_DOWNLOAD_COUNTS",
        "HF_DATASETS_DISABLE_PROGRESS_BARS",
        "HF_HUB_OFFLINE",  # datasets.config has it from 2.20
        "_hf_datasets_progress_bars_disabled",
    }
)


def use_hub(endpoint: str, cache_dir: str | os.PathLike[str], monkeypatch) -> None:
    """Point this process's `huggingface_hub` and `datasets` at `endpoint`, online, with
    their caches under `cache_dir`, through `monkeypatch` (undone with it).

    Sets the environment (read by modules imported later) and patches the values already
    imported modules computed from it at import time."""
    env = _layout_env(endpoint, cache_dir)
    for name in _DROPPED:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    def patch(module_name: str, **values: Any) -> None:
        """Set attributes of a module if it is imported; the names in _OPTIONAL only if the
        module has them (they vary between versions), the others must exist."""
        module = sys.modules.get(module_name)
        if module is not None:
            for name, value in values.items():
                monkeypatch.setattr(module, name, value, raising=name not in _OPTIONAL)

    constants = sys.modules.get("huggingface_hub.constants")
    hosts = frozenset({"127.0.0.1"} | set(getattr(constants, "HF_URL_HOSTS", ())))
    patch(
        "huggingface_hub.constants",
        ENDPOINT=endpoint,
        HUGGINGFACE_CO_URL_TEMPLATE=endpoint + "/{repo_id}/resolve/{revision}/{filename}",
        HF_URL_HOSTS=hosts,
        HF_HUB_OFFLINE=False,
        HF_HOME=env["HF_HOME"],
        HF_HUB_CACHE=env["HF_HUB_CACHE"],
        HUGGINGFACE_HUB_CACHE=env["HF_HUB_CACHE"],
        HF_ASSETS_CACHE=env["HF_ASSETS_CACHE"],
        HUGGINGFACE_ASSETS_CACHE=env["HF_ASSETS_CACHE"],
        HF_XET_CACHE=env["HF_XET_CACHE"],
        HF_TOKEN_PATH=env["HF_TOKEN_PATH"],
        HF_STORED_TOKENS_PATH=str(Path(env["HF_HOME"]) / "stored_tokens"),
        CHECK_FOR_UPDATE_DONE_PATH=str(Path(env["HF_HOME"]) / ".check_for_update_done"),
        AGENT_HARNESSES_PATH=str(Path(env["HF_HOME"]) / ".agent_harnesses.json"),
        HF_HUB_DISABLE_TELEMETRY=True,
        HF_HUB_DISABLE_PROGRESS_BARS=True,
    )
    patch("huggingface_hub.utils.tqdm", HF_HUB_DISABLE_PROGRESS_BARS=True)
    http = sys.modules.get("huggingface_hub.utils._http")
    if hasattr(http, "_HUB_ORIGINS"):  # origins whose redirects keep the auth header (1.24+)
        split = urlsplit(endpoint)
        origin = (split.scheme, split.hostname or "", split.port or 80)
        monkeypatch.setattr(http, "_HUB_ORIGINS", frozenset(http._HUB_ORIGINS | {origin}))
    hf_api = sys.modules.get("huggingface_hub.hf_api")
    if hf_api is not None:  # the instance behind huggingface_hub.list_repo_files & co
        monkeypatch.setattr(hf_api.api, "endpoint", endpoint)
    patch("huggingface_hub.utils._cache_manager", HF_HUB_CACHE=env["HF_HUB_CACHE"])
    patch("huggingface_hub.utils._cache_assets", HF_ASSETS_CACHE=env["HF_ASSETS_CACHE"])
    datasets_cache = Path(env["HF_DATASETS_CACHE"])
    patch(
        "datasets.config",
        HF_ENDPOINT=endpoint,
        HUB_DATASETS_URL=endpoint + "/datasets/{repo_id}/resolve/{revision}/{path}",
        HF_HUB_OFFLINE=False,
        HF_DATASETS_OFFLINE=False,
        HF_CACHE_HOME=env["HF_HOME"],
        HF_DATASETS_CACHE=datasets_cache,
        HF_MODULES_CACHE=Path(env["HF_MODULES_CACHE"]),
        DOWNLOADED_DATASETS_PATH=datasets_cache / "downloads",
        EXTRACTED_DATASETS_PATH=datasets_cache / "downloads" / "extracted",
        HF_UPDATE_DOWNLOAD_COUNTS=False,
        # The parquet export lives on datasets-server.<host>, which does not exist here.
        USE_PARQUET_EXPORT=False,
        HF_DATASETS_DISABLE_PROGRESS_BARS=True,
    )
    patch("datasets.utils.tqdm", _hf_datasets_progress_bars_disabled=True)


@contextlib.contextmanager
def serve_hub(
    root: str | os.PathLike[str],
    monkeypatch=None,
    cache_dir: str | os.PathLike[str] | None = None,
    **server_options: Any,
) -> Iterator[HubServer]:
    """Serve the repositories under `root` and point this process's clients at the server
    (see `use_hub`) while the context lasts. Without `monkeypatch`, a private one is used
    and undone on exit; without `cache_dir`, a temporary folder is used and removed."""
    with contextlib.ExitStack() as stack:
        if monkeypatch is None:
            import pytest

            monkeypatch = stack.enter_context(pytest.MonkeyPatch.context())
        if cache_dir is None:
            cache_dir = stack.enter_context(tempfile.TemporaryDirectory(prefix="hubcache-"))
        server = stack.enter_context(HubServer(root, **server_options))
        stack.callback(_close_hub_session)
        use_hub(server.endpoint, cache_dir, monkeypatch)
        yield server


def _close_hub_session() -> None:
    """Drop the pooled connections of huggingface_hub's shared client to a stopped server."""
    http = sys.modules.get("huggingface_hub.utils._http")
    if http is not None:
        http.close_session()
