"""The local hub stand-in (tests/support/hubserver.py) against the installed huggingface_hub and
datasets: downloads, caching, interrupted transfers, listings, HfFileSystem, datasets
streaming from hf:// paths, and the failure of repositories that ship a loading script."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from support.hubserver import NEEDS_SCRIPT_REFUSAL, HubServer, hub_env, serve_hub

REPO = "miracl/miracl-corpus"
DATA = "miracl-corpus-v1.0-sw/docs-0.jsonl.gz"
RECORDS = [
    {"docid": f"{i}#{j}", "title": f"Makala {i}", "text": f"Kifungu {j} cha makala {i}."}
    for i in range(20)
    for j in range(3)
]
SCRIPT_ERROR = "Dataset scripts are no longer supported, but found miracl-corpus.py"
BIG = 11 * 1024 * 1024  # over huggingface_hub's 10 MiB download chunk


def _gzip_jsonl(path: Path, records: list[dict]) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as handle:
        for record in records:
            handle.write((json.dumps(record, ensure_ascii=False) + "\n").encode())
    return path.read_bytes()


@pytest.fixture
def hub_root(tmp_path: Path) -> Path:
    """miracl/miracl-corpus as published: data files, a loading script, a card; owner/plain:
    the same data without a script; owner/big: one file over 10 MiB."""
    root = tmp_path / "hub"
    for repo in (REPO, "owner/plain"):
        _gzip_jsonl(root / repo / DATA, RECORDS)
        (root / repo / "README.md").write_text(
            "---\nlanguage:\n- sw\nlicense: apache-2.0\n---\n# MIRACL corpus (test copy)\n",
            encoding="utf-8",
        )
    (root / REPO / "miracl-corpus.py").write_text(
        "import datasets\n\n\nclass MiraclCorpus(datasets.GeneratorBasedBuilder):\n    pass\n",
        encoding="utf-8",
    )
    (root / "owner" / "big").mkdir(parents=True)
    block = hashlib.sha256(b"hubserver").digest() * 2048  # 64 KiB
    (root / "owner" / "big" / "blob.bin").write_bytes(block * (BIG // len(block)) + b"end")
    return root


@pytest.fixture
def hub(hub_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with serve_hub(hub_root, monkeypatch, cache_dir=tmp_path / "cache") as server:
        yield server
    assert server.errors == []


@pytest.fixture
def no_retry_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """huggingface_hub waits 1 s before resuming a cut download: skip the wait."""
    from huggingface_hub import file_download

    class _Time:
        def __getattr__(self, name: str):
            return getattr(time, name)

        @staticmethod
        def sleep(seconds: float) -> None:
            pass

    monkeypatch.setattr(file_download, "time", _Time())


def _cache_entries(cache: Path, repo: str) -> list[str]:
    folder = cache / "hub" / f"datasets--{repo.replace('/', '--')}"
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_hf_hub_download_returns_the_bytes_and_caches_them(hub: HubServer, hub_root, tmp_path):
    from huggingface_hub import hf_hub_download

    expected = (hub_root / REPO / DATA).read_bytes()
    path = Path(hf_hub_download(REPO, DATA, repo_type="dataset"))
    assert path.read_bytes() == expected
    assert path.is_relative_to(tmp_path / "cache" / "hub")
    sha = hub.commit(REPO)
    assert path.parent.parent.name == sha  # snapshots/<X-Repo-Commit>/<path>
    assert [str(r) for r in hub.requests] == [
        f"HEAD /datasets/{REPO}/resolve/main/{DATA}",
        f"GET /datasets/{REPO}/resolve/main/{DATA}",
    ]

    hub.clear_log()
    assert hf_hub_download(REPO, DATA, repo_type="dataset") == str(path)
    assert [str(r) for r in hub.requests] == [f"HEAD /datasets/{REPO}/resolve/main/{DATA}"]
    hub.clear_log()
    assert hf_hub_download(REPO, DATA, repo_type="dataset", revision=sha) == str(path)
    assert hub.requests == []  # a commit already in the cache needs no request at all

    # an LFS-like file is cached under its sha256 (the Hub's X-Linked-Etag)
    assert (path.parents[3] / "blobs" / hashlib.sha256(expected).hexdigest()).exists()


def test_a_cut_download_is_resumed_with_a_range_request(hub: HubServer, hub_root, no_retry_pause):
    from huggingface_hub import hf_hub_download

    expected = (hub_root / "owner" / "big" / "blob.bin").read_bytes()
    chunk = 10 * 1024 * 1024  # what huggingface_hub writes at once
    hub.interrupt("owner/big", "blob.bin", after_bytes=chunk + 12345)
    path = hf_hub_download("owner/big", "blob.bin", repo_type="dataset")
    assert Path(path).read_bytes() == expected
    gets = [r for r in hub.requests if r.method == "GET"]
    assert [(r.range, r.status) for r in gets] == [(None, 200), (f"bytes={chunk}-", 206)]


def test_an_interrupted_download_leaves_no_complete_looking_file(
    hub: HubServer, hub_root, tmp_path, no_retry_pause
):
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import HfHubHTTPError

    expected = (hub_root / "owner" / "big" / "blob.bin").read_bytes()
    hub.interrupt("owner/big", "blob.bin", after_bytes=len(expected) // 2)
    hub.fail("owner/big", "blob.bin", status=500)  # and its retry fails
    with pytest.raises(HfHubHTTPError, match="500"):
        hf_hub_download("owner/big", "blob.bin", repo_type="dataset")
    sha = hub.commit("owner/big")
    # no snapshot entry, no blob, no partial file: only the ref to the commit
    assert _cache_entries(tmp_path / "cache", "owner/big") == ["refs/main"]

    hub.clear_log()
    path = hf_hub_download("owner/big", "blob.bin", repo_type="dataset")
    assert Path(path).read_bytes() == expected
    assert path.endswith(f"snapshots/{sha}/blob.bin")
    # huggingface_hub 2.4 keeps no partial file between calls: the retry starts over
    assert [(r.method, r.range) for r in hub.requests] == [("HEAD", None), ("GET", None)]


def test_range_requests(hub: HubServer, hub_root):
    data = (hub_root / REPO / "README.md").read_bytes()
    url = f"{hub.endpoint}/datasets/{REPO}/resolve/main/README.md"
    for header, status, body in [
        ("bytes=4-9", 206, data[4:10]),
        ("bytes=10-", 206, data[10:]),
        ("bytes=-5", 206, data[-5:]),
        ("bytes=0-100000", 206, data),
    ]:
        request = urllib.request.Request(url, headers={"Range": header})
        with urllib.request.urlopen(request) as response:
            assert (response.status, response.read()) == (status, body)
            assert response.headers["Content-Range"].endswith(f"/{len(data)}")
    request = urllib.request.Request(url, headers={"Range": f"bytes={len(data)}-"})
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request)
    with error.value:
        assert error.value.code == 416
        assert error.value.headers["Content-Range"] == f"bytes */{len(data)}"


def test_hub_errors_carry_the_hub_error_codes(hub: HubServer, tmp_path):
    from huggingface_hub import HfApi, hf_hub_download
    from huggingface_hub.errors import (
        EntryNotFoundError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    with pytest.raises(EntryNotFoundError):
        hf_hub_download(REPO, "nope.txt", repo_type="dataset")
    # the 404 names the commit: the absence is cached for it, as with the Hub
    sha = hub.commit(REPO)
    assert f".no_exist/{sha}/nope.txt" in _cache_entries(tmp_path / "cache", REPO)
    with pytest.raises(RepositoryNotFoundError):
        hf_hub_download("miracl/absent", "README.md", repo_type="dataset")
    with pytest.raises(RevisionNotFoundError):
        hf_hub_download(REPO, "README.md", repo_type="dataset", revision="v9")
    with pytest.raises(RepositoryNotFoundError):
        HfApi().dataset_info("miracl/absent")
    with pytest.raises(RevisionNotFoundError):
        HfApi().dataset_info(REPO, revision="refs/convert/parquet")
    assert {r.status for r in hub.requests} == {404}


def test_repo_info_and_listings(hub: HubServer, hub_root):
    import huggingface_hub
    from huggingface_hub import HfApi, RepoFile, RepoFolder

    files = ["README.md", DATA, "miracl-corpus.py"]
    assert sorted(huggingface_hub.list_repo_files(REPO, repo_type="dataset")) == sorted(files)
    sha = hub.commit(REPO)
    api = HfApi()
    for revision in (None, "main", sha):
        info = api.dataset_info(REPO, revision=revision, files_metadata=True)
        assert info.sha == sha
        assert sorted(s.rfilename for s in info.siblings) == sorted(files)
    data = (hub_root / REPO / DATA).read_bytes()
    sibling = next(s for s in info.siblings if s.rfilename == DATA)
    assert (sibling.size, sibling.lfs.sha256) == (len(data), hashlib.sha256(data).hexdigest())
    assert info.card_data.license == "apache-2.0"

    top = list(api.list_repo_tree(REPO, repo_type="dataset"))
    assert [(type(e), e.path) for e in top] == [
        (RepoFolder, "miracl-corpus-v1.0-sw"),
        (RepoFile, "README.md"),
        (RepoFile, "miracl-corpus.py"),
    ]
    readme = (hub_root / REPO / "README.md").read_bytes()
    git_oid = hashlib.sha1(b"blob %d\0" % len(readme) + readme).hexdigest()
    assert (top[1].size, top[1].blob_id, top[1].lfs) == (len(readme), git_oid, None)

    hub.page_size = 2  # the listing is paginated through Link headers
    hub.clear_log()
    tree = list(api.list_repo_tree(REPO, repo_type="dataset", recursive=True, revision=sha))
    assert sorted(e.path for e in tree if isinstance(e, RepoFile)) == sorted(files)
    assert len(hub.requests) == 2 and "cursor" in hub.requests[1].query

    assert api.list_repo_refs(REPO, repo_type="dataset").branches[0].target_commit == sha
    assert [c.commit_id for c in api.list_repo_commits(REPO, repo_type="dataset")] == [sha]
    expanded = api.get_paths_info(REPO, [DATA, "absent.txt"], expand=True, repo_type="dataset")
    assert [e.path for e in expanded] == [DATA]
    assert expanded[0].last_commit.oid == sha and expanded[0].security.safe
    assert hub.requests[-1].method == "POST"


def test_hf_file_system(hub: HubServer, hub_root):
    from huggingface_hub import HfFileSystem

    fs = HfFileSystem()
    base = f"hf://datasets/{REPO}"
    assert fs.glob(f"{base}/*/*.jsonl.gz") == [f"datasets/{REPO}/{DATA}"]
    sha = hub.commit(REPO)
    assert fs.glob(f"{base}@{sha}/**/*.jsonl.gz") == [f"datasets/{REPO}@{sha}/{DATA}"]
    assert fs.ls(f"{base}/miracl-corpus-v1.0-sw", detail=False) == [f"datasets/{REPO}/{DATA}"]
    data = (hub_root / REPO / DATA).read_bytes()
    assert fs.info(f"{base}/{DATA}")["size"] == len(data)
    assert fs.info(f"{base}/{DATA}", refresh=True)["type"] == "file"  # paths-info
    assert fs.isdir(f"{base}/miracl-corpus-v1.0-sw") and not fs.exists(f"{base}/absent.txt")
    with fs.open(f"{base}/{DATA}", "rb") as handle:
        assert handle.read() == data
    with fs.open(f"{base}/{DATA}", "rb", block_size=1024) as handle:  # ranged reads
        handle.seek(100)
        assert handle.read(50) == data[100:150]
    assert {r.status for r in hub.requests} <= {200, 206}
    assert any(r.method == "POST" and "/paths-info/" in r.path for r in hub.requests)


def test_hf_file_system_stream_resumes_a_cut_connection(hub: HubServer, hub_root):
    from huggingface_hub import HfFileSystem

    data = (hub_root / REPO / DATA).read_bytes()
    hub.interrupt(REPO, DATA, after_bytes=200)
    with HfFileSystem().open(f"hf://datasets/{REPO}/{DATA}", "rb", block_size=0) as handle:
        parts = [handle.read(100), handle.read(100)]
        parts.append(handle.read(len(data)))  # the stream breaks here: reopened at byte 200
    assert b"".join(parts) == data
    fetched = [
        (r.range, r.status) for r in hub.requests if r.path.endswith("/resolve/main/" + DATA)
    ]
    assert fetched == [(None, 200), ("bytes=200-", 206)]


def test_datasets_streams_json_from_hf_paths(hub: HubServer):
    import datasets

    dataset = datasets.load_dataset(
        "json",
        data_files=[f"hf://datasets/{REPO}/miracl-corpus-v1.0-sw/*.jsonl.gz"],
        split="train",
        streaming=True,
    )
    assert list(dataset) == RECORDS
    assert not [p for p in hub.paths() if p.endswith(".py")]


@NEEDS_SCRIPT_REFUSAL
def test_datasets_refuses_a_repository_with_a_loading_script(hub: HubServer):
    import datasets

    with pytest.raises(RuntimeError, match=SCRIPT_ERROR):
        datasets.load_dataset(
            REPO,
            data_files="miracl-corpus-v1.0-sw/*.jsonl.gz",
            split="train",
            streaming=True,
        )
    sha = hub.commit(REPO)
    # the card at the branch (which pins the commit), then the script at that commit
    assert [str(r) for r in hub.requests] == [
        f"HEAD /datasets/{REPO}/resolve/main/README.md",
        f"GET /datasets/{REPO}/resolve/main/README.md",
        f"HEAD /datasets/{REPO}/resolve/{sha}/miracl-corpus.py",
        f"GET /datasets/{REPO}/resolve/{sha}/miracl-corpus.py",
    ]


@NEEDS_SCRIPT_REFUSAL
def test_datasets_streams_a_repository_without_script(hub: HubServer):
    import datasets

    dataset = datasets.load_dataset(
        "owner/plain",
        data_files="miracl-corpus-v1.0-sw/*.jsonl.gz",
        split="train",
        streaming=True,
    )
    assert list(dataset) == RECORDS
    missing = sorted(r.path.rsplit("/", 1)[-1] for r in hub.requests if r.status == 404)
    assert missing == [".huggingface.yaml", "dataset_infos.json", "plain.py"]


def test_snapshot_download_fetches_only_the_matching_files(hub: HubServer, hub_root):
    from huggingface_hub import snapshot_download

    folder = Path(
        snapshot_download(REPO, repo_type="dataset", allow_patterns=["miracl-corpus-v1.0-sw/*"])
    )
    assert folder.name == hub.commit(REPO)
    assert (folder / DATA).read_bytes() == (hub_root / REPO / DATA).read_bytes()
    assert hub.downloads() == [f"{REPO}/{DATA}"]


@NEEDS_SCRIPT_REFUSAL
def test_a_subprocess_uses_the_server_through_hub_env(hub: HubServer, hub_root, tmp_path):
    code = f"""
import datasets, huggingface_hub
path = huggingface_hub.hf_hub_download({REPO!r}, {DATA!r}, repo_type="dataset")
print(path)
print(sorted(huggingface_hub.list_repo_files({REPO!r}, repo_type="dataset")))
print(huggingface_hub.HfFileSystem().glob("hf://datasets/{REPO}/*/*.gz"))
stream = datasets.load_dataset("json", data_files=["hf://datasets/{REPO}/{DATA}"], streaming=True)
print(sum(1 for _ in stream["train"]))
try:
    datasets.load_dataset({REPO!r}, data_files={DATA!r}, split="train", streaming=True)
except RuntimeError as error:
    print(error)
"""
    env = hub_env(hub, tmp_path / "subprocess-cache")
    assert env["HF_HUB_OFFLINE"] == "0" and env["HF_ENDPOINT"] == hub.endpoint
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert Path(lines[0]).read_bytes() == (hub_root / REPO / DATA).read_bytes()
    assert lines[0].startswith(str(tmp_path / "subprocess-cache" / "hub"))
    assert lines[1:] == [
        str(sorted(["README.md", DATA, "miracl-corpus.py"])),
        str([f"datasets/{REPO}/{DATA}"]),
        str(len(RECORDS)),
        SCRIPT_ERROR,
    ]
    assert f"{REPO}/{DATA}" in hub.downloads()


def test_serve_hub_restores_the_offline_setup(hub_root, tmp_path):
    import datasets
    from huggingface_hub import constants

    before = (constants.ENDPOINT, constants.HF_HUB_OFFLINE, datasets.config.HF_ENDPOINT)
    offline = os.environ.get("HF_HUB_OFFLINE")
    with serve_hub(hub_root, cache_dir=tmp_path / "cache") as server:
        assert constants.ENDPOINT == datasets.config.HF_ENDPOINT == server.endpoint
        assert not constants.HF_HUB_OFFLINE and os.environ["HF_HUB_OFFLINE"] == "0"
    assert before == (constants.ENDPOINT, constants.HF_HUB_OFFLINE, datasets.config.HF_ENDPOINT)
    assert os.environ.get("HF_HUB_OFFLINE") == offline


def test_the_server_is_quiet(hub: HubServer, capfd):
    with urllib.request.urlopen(f"{hub.endpoint}/api/datasets/{REPO}") as response:
        assert json.load(response)["sha"] == hub.commit(REPO)
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(f"{hub.endpoint}/nowhere")
    error.value.close()
    assert capfd.readouterr().err == ""
    assert [r.status for r in hub.requests] == [200, 404]


@pytest.mark.parametrize("status", [401, 403])
def test_a_gated_repository_refuses_its_files_but_lists_them(hub: HubServer, status):
    from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_download, hf_hub_url
    from huggingface_hub.errors import GatedRepoError

    hub.gate(REPO, status)
    with pytest.raises(GatedRepoError, match=f"{status} Client Error"):
        get_hf_file_metadata(hf_hub_url(REPO, DATA, repo_type="dataset"))
    with pytest.raises(GatedRepoError):
        hf_hub_download(REPO, DATA, repo_type="dataset")
    assert HfApi().dataset_info(REPO).gated == "manual"
    assert DATA in HfApi().list_repo_files(REPO, repo_type="dataset")
    assert hub.downloads() == []


def test_a_kept_commit_is_served_after_the_files_change(hub: HubServer, hub_root):
    from huggingface_hub import hf_hub_download

    old = hub.keep(REPO)
    (hub_root / REPO / "README.md").write_text("changed\n", encoding="utf-8")
    assert hub.commit(REPO) != old
    kept = hf_hub_download(REPO, "README.md", repo_type="dataset", revision=old)
    assert Path(kept).read_text(encoding="utf-8").startswith("---\nlanguage:")
    now = hf_hub_download(REPO, "README.md", repo_type="dataset")
    assert Path(now).read_text(encoding="utf-8") == "changed\n"
