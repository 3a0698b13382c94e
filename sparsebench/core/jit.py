"""Compiled functions (numba) whose on-disk caches never outlive the code they were built
from.

numba keys a cached function by its own source file (modification time and size). A
function that calls another module's compiled function has the callee's code compiled
into it (rows_loop.search_rows calls maxscore_loop.walk_row), and after the callee's
module changes it keeps loading the old code from its cache, silently: edited or
upgraded code would run as before (and tests would test the old). So every compiled
function of sparsebench is made by `compiled`, which first drops the package's numba
caches whenever the source of any module that uses numba differs from the one they were
built from (a digest of those sources kept beside them, checked once a process; its cost:
benchmarks/RESULTS.md, "Measurements behind the code").
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from numba import njit

Function = TypeVar("Function", bound=Callable[..., Any])

PACKAGE = Path(__file__).resolve().parent
_MARKER = "numba-sources.sha256"  # in the package's __pycache__: the caches' sources
_checked: set[Path] = set()  # packages checked by this process


def compiled(function: Function | None = None, *, inline: bool = False) -> Any:
    """numba.njit(cache=True, nogil=True) (inline="always" if `inline`: a compiled call
    that passes arrays costs more than a small decision), the package's stale caches
    dropped first. As @compiled or @compiled(inline=True)."""
    drop_stale_caches()
    options = {"cache": True, "nogil": True, **({"inline": "always"} if inline else {})}
    if function is None:
        return njit(**options)
    return njit(**options)(function)


def sources_digest(package: Path = PACKAGE) -> str:
    """A digest of the source of every module of the package that uses numba."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text:
            digest.update(str(path.relative_to(package)).encode() + b"\0")
            digest.update(hashlib.sha256(text).digest())
    return digest.hexdigest()


def drop_stale_caches(package: Path = PACKAGE) -> bool:
    """Delete the package's numba cache files (*.nbi, *.nbc) unless they were built from
    the sources it holds now; once a process. Returns whether it deleted them. Where the
    package cannot be written (numba then caches in its user-wide directory) there is
    nothing of ours to drop."""
    if package in _checked:
        return False
    _checked.add(package)
    marker = package / "__pycache__" / _MARKER
    current = sources_digest(package)
    with contextlib.suppress(OSError):
        if marker.read_text() == current:
            return False
    for cache in (*package.rglob("*.nbi"), *package.rglob("*.nbc")):
        with contextlib.suppress(OSError):  # another process dropped it first
            cache.unlink()
    with contextlib.suppress(OSError):
        marker.parent.mkdir(exist_ok=True)
        temporary = marker.with_name(f"{_MARKER}.{os.getpid()}")
        temporary.write_text(current)
        os.replace(temporary, marker)
    return True
