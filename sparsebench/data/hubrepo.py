"""A hub dataset repository read at one commit, checked before and after its download.

A revision (`main`) is resolved to a commit once per process, or pinned to the commit
another job read, and every file is read at that commit: a dataset never mixes two states
of a branch. Before a large download, every file a dataset needs is asked for (HEAD, the
smallest first), so that a gated, private or missing topics file stops the run before
the corpus is fetched. A pattern's files are those of the commit's listing (the hub's,
cached beside the files by huggingface_hub), so that a shard missing from an offline
cache is named, never read as a smaller corpus.
"""

from __future__ import annotations

import glob
import logging
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path

log = logging.getLogger(__name__)

_COMMITS: dict[tuple[str, ...], str] = {}  # (hub, cache, repo, revision) -> commit
_READ: set[tuple[str, ...]] = set()  # the keys whose files were read, for provenance
_LISTINGS: dict[tuple[str, ...], dict[str, int]] = {}  # (hub, repo, commit) -> {path: size}
_SHARD = re.compile(r"^(?P<head>.*?)(?P<index>\d+)-of-(?P<count>\d+)(?P<tail>[^/]*)$")


@dataclass(frozen=True)
class RemoteFile:
    """A file (or a glob of files) a dataset reads from a hub dataset repository."""

    repo: str
    path: str
    revision: str = "main"


def offline() -> bool:
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


def _key(repo: str, revision: str) -> tuple[str, ...]:
    """Commits are remembered per hub and cache, as a repository's state is theirs."""
    from huggingface_hub import constants

    return (constants.ENDPOINT, str(constants.HF_HUB_CACHE), repo, revision)


def where(repo: str, revision: str, commit: str | None = None) -> str:
    at = f" (commit {commit})" if commit and commit != revision else ""
    return f"the hub dataset {repo!r} at revision {revision!r}{at}"


def cause(error: Exception, repo: str) -> str:
    """What a huggingface_hub error means for the person running the pipeline."""
    from huggingface_hub import constants, errors

    status = getattr(getattr(error, "response", None), "status_code", None)
    if isinstance(error, errors.GatedRepoError) or status in (401, 403):
        return (
            f"access refused (HTTP {status}): the repository is gated or private. Accept its "
            f"conditions at {constants.ENDPOINT}/datasets/{repo} with an account that has "
            "access, and give that account's token (HF_TOKEN, or `hf auth login`)"
        )
    if isinstance(error, errors.RevisionNotFoundError):
        return "the revision does not exist (HTTP 404)"
    if isinstance(error, errors.RepositoryNotFoundError):
        return f"the repository does not exist (HTTP {status or 404})"
    if isinstance(error, errors.RemoteEntryNotFoundError) or status == 404:
        return "the file does not exist (HTTP 404)"
    if isinstance(error, errors.LocalEntryNotFoundError) and offline():
        return "the hub cache does not hold it, and the hub is not asked (HF_HUB_OFFLINE=1)"
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def pin(repo: str, revision: str, commit: str) -> None:
    """Read `repo` at `commit` whenever `revision` is asked for in this process (the commit
    a previous job read it at)."""
    _COMMITS[_key(repo, revision)] = commit


def commit(repo: str, revision: str) -> str:
    """The commit `revision` of `repo` is read at in this process: asked of the hub once,
    offline the one the hub cache records for it."""
    key = _key(repo, revision)
    if key not in _COMMITS:
        _COMMITS[key] = _cached_commit(repo, revision) if offline() else _hub_commit(repo, revision)
        log.info("%s is read at commit %s", where(repo, revision), _COMMITS[key])
    return _COMMITS[key]


def _hub_commit(repo: str, revision: str) -> str:
    from huggingface_hub import HfApi

    try:
        return str(HfApi().dataset_info(repo, revision=revision).sha)
    except Exception as exc:  # noqa: BLE001 (any hub failure: report what was asked)
        raise DataError(f"cannot resolve {where(repo, revision)}: {cause(exc, repo)}") from None


def _cache_folder(repo: str) -> Path:
    from huggingface_hub import constants
    from huggingface_hub.file_download import repo_folder_name

    return Path(constants.HF_HUB_CACHE) / repo_folder_name(repo_id=repo, repo_type="dataset")


def _record_ref(repo: str, revision: str) -> None:
    """Note in the hub cache (refs/{revision}, as huggingface_hub does) the commit the
    files were read at: offline, the next run reads the same commit."""
    sha = commit(repo, revision)
    ref = _cache_folder(repo) / "refs" / revision
    if revision != sha and not offline():
        ref.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(ref) as tmp:
            tmp.write_text(sha)


def _cached_commit(repo: str, revision: str) -> str:
    folder = _cache_folder(repo)
    if re.fullmatch(r"[0-9a-f]{40}", revision) and (folder / "snapshots" / revision).is_dir():
        return revision
    ref = folder / "refs" / revision
    if not ref.is_file():
        raise DataError(
            f"cannot read {where(repo, revision)}: offline (HF_HUB_OFFLINE=1), and the hub "
            f"cache {folder.parent} holds no copy of it"
        )
    return ref.read_text().strip()


def listing(repo: str, revision: str) -> dict[str, int] | None:
    """{path: size} of every file of the repository at its commit: the hub cache's record
    of the listing, else the hub's; None offline when the cache has no record."""
    from huggingface_hub import constants, get_cached_repo_tree
    from huggingface_hub.errors import CachedRepoTreeNotFoundError

    sha = commit(repo, revision)
    key = (constants.ENDPOINT, repo, sha)
    if key in _LISTINGS:
        return _LISTINGS[key]
    try:
        files = get_cached_repo_tree(repo, repo_type="dataset", revision=sha)
    except CachedRepoTreeNotFoundError:
        if offline():
            return None
        files = _hub_listing(repo, revision, sha)
    _LISTINGS[key] = {f.path: int(f.size) for f in files}
    return _LISTINGS[key]


def _hub_listing(repo: str, revision: str, sha: str) -> list:
    from huggingface_hub import HfApi
    from huggingface_hub.hf_api import RepoFile

    try:
        entries = HfApi().list_repo_tree(repo, recursive=True, revision=sha, repo_type="dataset")
        return [e for e in entries if isinstance(e, RepoFile)]
    except Exception as exc:  # noqa: BLE001 (any hub failure: report what was asked)
        raise DataError(
            f"cannot list the files of {where(repo, revision, sha)}: {cause(exc, repo)}"
        ) from None


def glob_match(path: str, pattern: str) -> bool:
    """pathlib's glob on a "/"-separated path: `*` stays within a folder, `**` spans any."""

    def match(parts: list[str], globs: list[str]) -> bool:
        if not globs:
            return not parts
        if globs[0] == "**":
            return any(match(parts[i:], globs[1:]) for i in range(len(parts) + 1))
        return bool(parts) and fnmatchcase(parts[0], globs[0]) and match(parts[1:], globs[1:])

    return match(path.split("/"), pattern.strip("/").split("/"))


def missing_shards(paths: list[str]) -> list[str] | None:
    """The shards absent among `paths` whose names give their number (`-00003-of-00010`,
    counted from 0, or from 1 when shard 0 is absent); None when no name gives it."""
    groups: dict[tuple[str, str, str, int], set[int]] = {}
    for path in paths:
        if found := _SHARD.match(path):
            group = (found["head"], found["count"], found["tail"], len(found["index"]))
            groups.setdefault(group, set()).add(int(found["index"]))
    if not groups:
        return None
    missing = []
    for (head, count, tail, width), indices in groups.items():
        first = 0 if 0 in indices else 1
        wanted = range(first, int(count) + first)
        missing += [f"{head}{i:0{width}d}-of-{count}{tail}" for i in wanted if i not in indices]
    return missing


def _matching(listed: dict[str, int], repo: str, pattern: str, revision: str) -> list[str]:
    """The listed files `pattern` matches; an error when it matches none."""
    found = [p for p in listed if glob_match(p, pattern)]
    if not found:
        at = where(repo, revision, commit(repo, revision))
        if glob.has_magic(pattern):
            raise DataError(f"no file matches {pattern} in {at}")
        raise DataError(f"{pattern} does not exist in {at}: no such file in its listing")
    return found


def snapshot(repo: str, pattern: str, revision: str) -> list[Path]:
    """The local copies of every file of the repository that `pattern` matches, fetched
    into the hub cache at the commit; an error naming any file the copy lacks."""
    from huggingface_hub import snapshot_download

    sha = commit(repo, revision)
    listed = listing(repo, revision)
    if not offline():
        expected = _matching(listed or {}, repo, pattern, revision)
        try:
            snapshot_download(repo, repo_type="dataset", revision=sha, allow_patterns=expected)
        except Exception as exc:  # noqa: BLE001 (any hub failure: report what was asked)
            raise DataError(
                f"cannot fetch {pattern} from {where(repo, revision, sha)}: {cause(exc, repo)}"
            ) from None
    files = _cached_files(repo, pattern, revision)
    _record_ref(repo, revision)
    _READ.add(_key(repo, revision))
    return files


def _cached_files(repo: str, pattern: str, revision: str) -> list[Path]:
    """The hub cache's copies of the files `pattern` matches at the commit: every one the
    listing (or the shards' names) says there is, else an error naming those it lacks."""
    sha = commit(repo, revision)
    folder = _cache_folder(repo) / "snapshots" / sha
    listed = listing(repo, revision)
    if listed is not None:
        expected = _matching(listed, repo, pattern, revision)
    elif not glob.has_magic(pattern):
        expected = [pattern]
    else:
        expected = _cached_without_listing(folder, repo, pattern, revision)
    missing = [p for p in expected if not (folder / p).is_file()]
    if missing:
        raise DataError(
            f"the hub cache lacks {len(missing)} of the {len(expected)} files of {pattern} in "
            f"{where(repo, revision, sha)}: {', '.join(missing)}. Fetch them online "
            "(HF_HUB_OFFLINE=0), or copy the complete snapshot into the cache"
        )
    return [folder / p for p in expected]


def _cached_without_listing(folder: Path, repo: str, pattern: str, revision: str) -> list[str]:
    """Offline, with no listing in the cache: the cached files of `pattern`, when their
    names give the shard count (the missing ones are then expected too)."""
    cached = [p.relative_to(folder).as_posix() for p in folder.glob(pattern) if p.is_file()]
    if not cached:
        raise DataError(f"no file matches {pattern} in the hub cache of {where(repo, revision)}")
    missing = missing_shards(cached)
    if missing is None:
        raise DataError(
            f"the hub cache holds {len(cached)} files of {pattern} in "
            f"{where(repo, revision, commit(repo, revision))} but no listing of the "
            "repository's files, and their names do not give their number: a missing shard "
            "could not be noticed. Read it once online (HF_HUB_OFFLINE=0), which records the "
            "listing in the cache"
        )
    return sorted(cached) + missing


def fetch(repo: str, path: str, revision: str) -> Path:
    """One file of the repository at the commit, fetched once into the hub cache."""
    from huggingface_hub import hf_hub_download

    sha = commit(repo, revision)
    try:
        local = Path(hf_hub_download(repo, path, repo_type="dataset", revision=sha))
    except Exception as exc:  # noqa: BLE001 (any hub failure: report what was asked)
        raise DataError(
            f"cannot fetch {path} from {where(repo, revision, sha)}: {cause(exc, repo)}"
        ) from None
    _record_ref(repo, revision)
    _READ.add(_key(repo, revision))
    return local


def read_commits(repos: list[str], revision: str) -> dict[str, str]:
    """The commit each repository's files were read at in this process (for provenance)."""
    return {r: _COMMITS[_key(r, revision)] for r in repos if _key(r, revision) in _READ}


def probe(files: list[RemoteFile]) -> None:
    """Ask for every file a dataset needs before anything large is fetched, the smallest
    first: an error names the repository and file a gated, private or missing one is.
    Offline, the hub cache must hold them all."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url

    found: list[tuple[int, str, str, str]] = []
    for remote in files:
        if offline():
            _cached_files(remote.repo, remote.path, remote.revision)
            continue
        listed = listing(remote.repo, remote.revision) or {}
        paths = _matching(listed, remote.repo, remote.path, remote.revision)
        found += [(listed[p], remote.repo, remote.revision, p) for p in paths]
    for _, repo, revision, path in sorted(found):
        sha = commit(repo, revision)
        try:
            get_hf_file_metadata(hf_hub_url(repo, path, repo_type="dataset", revision=sha))
        except Exception as exc:  # noqa: BLE001 (any hub failure: report what was asked)
            raise DataError(
                f"cannot read {path} of {where(repo, revision, sha)}: {cause(exc, repo)}"
            ) from None
    if found:
        total = sum(size for size, *_ in found)
        log.info("%d hub files to read (%.1f MB), every one accessible", len(found), total / 1e6)
