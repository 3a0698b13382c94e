"""Compiled functions (numba) whose on-disk caches never outlive the code, or the
compiler, they were built from.

numba keys a cached function by its own source file (modification time and size). A
function that calls another module's compiled function has the callee's code compiled
into it (rows_loop.search_rows calls maxscore_loop.walk_row), and after the callee's
module changes it keeps loading the old code from its cache, silently: edited or
upgraded code would run as before (and tests would test the old). So every compiled
function of sparsebench is made by `compiled`, which first drops the package's numba
caches unless they were built from the sources the package holds now (those of every
module that compiles code or names numba, and of the package's modules that one that
compiles imports) by the numba and llvmlite it runs now: a digest of the sources and the
two versions kept beside the caches, checked once a process (its cost:
benchmarks/RESULTS.md, "Measurements behind the code"). The versions count because two
environments of different numba sharing one checkout (an editable install) share its
__pycache__, and numba's own version check is not enough there: one process can rewrite
an index between another's reading it and its data file (an LLVM "bitcode parsing
error"). The caches are wherever numba keeps them: each module folder's __pycache__, or
NUMBA_CACHE_DIR (one cache shared by the nodes of a cluster), or numba's user-wide folder
where the package cannot be written. `sparsebench compile` (sparsebench.warmup) fills
them once per installation.

numba saves a new overload by reading the function's index, taking the first free data
file number, and writing the index and then the data, with no lock: two processes that
compile overloads of one function at once (`sparsebench compile`'s steps, or jobs on a
cold cache) can both take number 1, and the index then names a file holding the other
overload's code ("can't unbox array" when it is loaded). `_locked_save` replaces that
step: the whole of it under an exclusive lock of the index (POSIX record locks, which
NFS honours), the data written before the index names it.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import llvmlite
import numba
from numba import njit
from numba.core.caching import IndexDataCacheFile

try:
    import fcntl
except ImportError:  # not POSIX: numba's own save, unlocked
    fcntl = None

Function = TypeVar("Function", bound=Callable[..., Any])

PACKAGE = Path(__file__).resolve().parents[1]  # sparsebench, every subpackage
_MARKER = "numba-build.txt"  # in each cache folder: the sources and compiler its caches come from
_checked: set[Path] = set()  # packages checked by this process


@contextlib.contextmanager
def _index_lock(index_path: str):
    """An exclusive lock, across processes, of a numba index (a lock file beside it)."""
    with open(f"{index_path}.lock", "a+b") as handle:
        fcntl.lockf(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.lockf(handle, fcntl.LOCK_UN)


def _locked_save(self: IndexDataCacheFile, key: Any, data: Any) -> None:
    """IndexDataCacheFile.save, whole under the index's lock; a new overload's data
    written before the index names it (see the module's docstring)."""
    with _index_lock(self._index_path):
        overloads = self._load_index()
        name = overloads.get(key)
        if name is None:
            taken = set(overloads.values())
            name = next(n for i in itertools.count(1) if (n := self._data_name(i)) not in taken)
            self._save_data(name, data)
            overloads[key] = name
            self._save_index(overloads)
        else:
            self._save_data(name, data)


if fcntl is not None:
    IndexDataCacheFile.save = _locked_save


def compiled(
    function: Function | None = None, *, inline: bool = False, counted: bool = True
) -> Any:
    """numba.njit(cache=True, nogil=True) (inline="always" if `inline`: a compiled call
    that passes arrays costs more than a small decision), the package's stale caches
    dropped first. As @compiled, @compiled(inline=True) or @compiled(counted=False).

    counted=False compiles the function without numba's reference counting (its
    runtime off): no binding of an array counts a reference, and numba refuses to
    compile anything in it, or in what it inlines, that allocates or returns a new
    array. For loops that bind arrays at every turn (the searches' inlined helpers):
    each count is an atomic update, and there they cost more than the work
    (benchmarks/RESULTS.md, "Borrowed arrays"). Such a function works in memory its
    caller gives it, and must not keep any array past its return."""
    drop_stale_caches()
    options = {"cache": True, "nogil": True, **({"inline": "always"} if inline else {})}
    if not counted:
        options["_nrt"] = False
    if function is None:
        return njit(**options)
    return njit(**options)(function)


# Imports are read with a regular expression, not parsed (as workflow.codehash parses
# them): this runs in every process that compiles, and parsing the compiling modules
# would cost it ten times as much.
_IMPORT = re.compile(  # from a import (b, c) | from a import b, c | import a
    rb"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(?:\(([\w, \t\n]+)\)|([\w, \t]+))"
    rb"|import[ \t]+([\w.]+))",
    re.M,
)
_COMPILES = re.compile(rb"@compiled\b|\bcompiled\(|\bnjit\b")  # a module that compiles


def _numba_sources(package: Path) -> dict[Path, bytes]:
    """The source of every module of the package that compiles code or names numba, and
    of the package's modules that one that compiles imports, by path (read once): a
    compiled function has the functions it calls and the constants it reads compiled
    into it, whichever module they come from (candidates_loop compiles exactscores's
    candidate_floor)."""
    sources = {path: path.read_bytes() for path in sorted(package.rglob("*.py"))}
    kept = {path for path, text in sources.items() if b"numba" in text}
    for path, text in sources.items():
        if (path in kept or b"core.jit" in text) and _COMPILES.search(text):
            kept.add(path)
            kept.update(module for module in _imported(package, text) if module in sources)
    return {path: text for path, text in sources.items() if path in kept}


def _imported(package: Path, text: bytes) -> list[Path]:
    """The files of the package's modules that `text` imports (a name imported from a
    package may be its submodule)."""
    found = []
    for source, grouped, listed, plain in _IMPORT.findall(text):
        module, names = (source or plain).decode(), grouped or listed
        if module.split(".")[0] != package.name:
            continue
        folder = package.parent.joinpath(*module.split("."))
        found += [folder.with_suffix(".py"), folder / "__init__.py"]
        found += [folder / f"{name.strip()}.py" for name in names.decode().split(",")]
    return found


def _numba_modules(package: Path) -> list[Path]:
    return list(_numba_sources(package))


def sources_digest(package: Path = PACKAGE, sources: dict[Path, bytes] | None = None) -> str:
    """A digest of the source of every module of the package that uses numba."""
    digest = hashlib.sha256()
    for path, text in (sources if sources is not None else _numba_sources(package)).items():
        digest.update(str(path.relative_to(package)).encode() + b"\0")
        digest.update(hashlib.sha256(text).digest())
    return digest.hexdigest()


def marker_text(package: Path = PACKAGE, sources: dict[Path, bytes] | None = None) -> str:
    """What a cache folder's marker holds: the sources' digest and the compiler's versions."""
    digest = sources_digest(package, sources)
    return f"{digest} numba {numba.__version__} llvmlite {llvmlite.__version__}\n"


def _probe() -> None:
    """A function for numba's cache locators to place (they read its line number)."""


def cache_folders(package: Path = PACKAGE, modules: list[Path] | None = None) -> list[Path]:
    """Where numba keeps the caches of the package's compiled modules (`modules`, default
    all), as numba itself chooses (its locators, in its order): NUMBA_CACHE_DIR's folder
    for each module folder when it is set, else the module folder's __pycache__ when it
    can be written, else the user-wide folder."""
    from numba.core.caching import CacheImpl

    found: dict[Path, None] = {}
    for path in modules if modules is not None else _numba_modules(package):
        for locator_class in CacheImpl._locator_classes:
            locator = locator_class.from_function(_probe, str(path))
            if locator is not None:
                found[Path(locator.get_cache_path())] = None
                break
    return list(found)


def drop_stale_caches(package: Path = PACKAGE) -> bool:
    """Delete the package's numba cache files (*.nbi, *.nbc) unless they were built from
    the sources it holds now by the numba it runs now (a marker beside them, in every
    cache folder); once a process. Returns whether it deleted any."""
    if package in _checked:
        return False
    _checked.add(package)
    sources = _numba_sources(package)  # the package read once a process
    current = marker_text(package, sources)
    dropped = False
    for folder in cache_folders(package, list(sources)):
        marker = folder / _MARKER
        with contextlib.suppress(OSError):
            if marker.read_text() == current:
                continue
        dropped = True
        for cache in (*folder.glob("*.nbi"), *folder.glob("*.nbc")):
            with contextlib.suppress(OSError):  # another process dropped it first
                cache.unlink()
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
            temporary = marker.with_name(f"{_MARKER}.{os.getpid()}")
            temporary.write_text(current)
            os.replace(temporary, marker)
    return dropped
