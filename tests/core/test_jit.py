"""numba caches dropped when the compiled code's sources change (sparsebench.core.jit)."""

from __future__ import annotations

import re
from pathlib import Path

import numba
import numpy as np
import pytest

from sparsebench.core import jit


@pytest.fixture(autouse=True)
def caches_beside_the_modules(monkeypatch):
    """numba's default place (the tests' session sets NUMBA_CACHE_DIR, tests/conftest.py)."""
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", "")


def package(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    (root / "sub" / "__pycache__").mkdir(parents=True)
    (root / "caller.py").write_text("from numba import njit\n# calls sub.callee\n")
    (root / "sub" / "callee.py").write_text("import numba\nVALUE = 1\n")
    (root / "plain.py").write_text("VALUE = 1\n")
    return root


def caches(root: Path) -> list[Path]:
    made = [
        root / "sub" / "__pycache__" / n for n in ("callee.f-1.py311.nbi", "callee.f-1.py311.1.nbc")
    ]
    for path in made:
        path.write_bytes(b"compiled")
    return made


def checked_again(root: Path) -> bool:
    jit._checked.discard(root)  # as a new process would
    return jit.drop_stale_caches(root)


def test_caches_are_dropped_when_a_numba_module_changes_and_kept_otherwise(tmp_path):
    root = package(tmp_path)
    made = caches(root)
    assert checked_again(root) and not any(p.exists() for p in made)  # no digest yet
    made = caches(root)
    assert not checked_again(root) and all(p.exists() for p in made)  # same sources
    (root / "plain.py").write_text("VALUE = 2\n")  # no numba there: caches kept
    assert not checked_again(root) and all(p.exists() for p in made)
    (root / "sub" / "callee.py").write_text("import numba\nVALUE = 2\n")  # a callee changed
    assert checked_again(root) and not any(p.exists() for p in made)
    made = caches(root)
    assert not jit.drop_stale_caches(root)  # once a process
    assert all(p.exists() for p in made)


def test_the_check_covers_every_module_of_the_package():
    """jit.py moved into core/ once, and its package became core/ alone: the search
    loops' caches then outlived their edits."""
    modules = {p.relative_to(jit.PACKAGE).as_posix() for p in jit._numba_modules(jit.PACKAGE)}
    assert jit.PACKAGE.name == "sparsebench"
    assert {"search/maxscore_loop.py", "search/rows_loop.py", "core/lines_loop.py"} <= modules
    assert "analysis/fast_distinct_chunks.py" in modules
    # modules that compile without naming numba, and what they compile from elsewhere
    # (candidates_loop compiles exactscores.candidate_floor): both once escaped it
    assert {
        "search/candidates_loop.py",
        "search/exactscores.py",
        "analysis/ja/chunks.py",
    } <= modules


def test_every_compiled_function_is_made_by_jit_compiled():
    """A function compiled by numba.njit directly would escape the check."""
    raw = re.compile(r"(?<![\w.])(numba\.)?njit\(|@njit\b")
    offenders = [
        str(path.relative_to(jit.PACKAGE))
        for path in jit.PACKAGE.rglob("*.py")
        if path.name != "jit.py" and raw.search(path.read_text())
    ]
    assert offenders == []


def test_a_shared_cache_directory_is_checked_as_the_packages_own(tmp_path, monkeypatch):
    """With NUMBA_CACHE_DIR (one cache for a cluster's nodes) numba keeps the caches
    there, and a stale one would outlive an upgrade: it is dropped the same way."""
    import numba

    root = package(tmp_path)
    shared = tmp_path / "shared-cache"
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(shared))
    folders = jit.cache_folders(root)
    assert len(folders) == 2 and all(shared in f.parents for f in folders)
    checked_again(root)
    stale = [f / "callee.f-1.py311.nbi" for f in folders]
    for path in stale:
        path.write_bytes(b"compiled")
    assert not checked_again(root) and all(p.exists() for p in stale)
    (root / "sub" / "callee.py").write_text("import numba\nVALUE = 3\n")
    assert checked_again(root) and not any(p.exists() for p in stale)


def test_caches_built_by_another_numba_are_dropped(tmp_path, monkeypatch):
    """Two environments of different numba sharing one editable checkout share its
    __pycache__: numba 0.60 once read an index the other had half rewritten and loaded
    its LLVM 22 bitcode ("bitcode parsing error"). A change of numba or llvmlite drops
    the caches as a change of source does."""
    import llvmlite
    import numba

    root = package(tmp_path)
    checked_again(root)
    made = caches(root)
    assert not checked_again(root) and all(p.exists() for p in made)
    monkeypatch.setattr(numba, "__version__", f"{numba.__version__}+other")
    assert checked_again(root) and not any(p.exists() for p in made)
    made = caches(root)
    monkeypatch.setattr(llvmlite, "__version__", f"{llvmlite.__version__}+other")
    assert checked_again(root) and not any(p.exists() for p in made)
    marker = root / "sub" / "__pycache__" / jit._MARKER
    assert f"numba {numba.__version__} llvmlite {llvmlite.__version__}\n" in marker.read_text()


def test_a_module_that_a_compiling_module_imports_is_checked(tmp_path):
    """A compiled function has what it calls compiled into it, from whichever module:
    a change there drops the caches as a change of the compiling module does; a module
    that nothing compiling imports does not."""
    root = package(tmp_path)
    (root / "loop.py").write_text(
        "from pkg.sub import constants\nfrom pkg.core.jit import compiled\n"
        "from pkg import (\n    helpers,\n)\n\n@compiled\ndef f():\n    return constants.X\n"
    )
    for name, text in (("sub/constants.py", "X = 1\n"), ("helpers.py", "Y = 1\n")):
        (root / name).write_text(text)
    checked_again(root)
    made = caches(root)
    for changed in ("sub/constants.py", "helpers.py"):
        (root / changed).write_text("X = 2\n")
        assert checked_again(root) and not any(p.exists() for p in made), changed
        made = caches(root)
    (root / "plain.py").write_text("VALUE = 3\n")
    assert not checked_again(root) and all(p.exists() for p in made)


def _save_slowly(folder: str, key: str, started, saved) -> None:
    """Save `key` as the data of one cache index, the index's reading and writing held
    apart long enough for another process to read it meanwhile (forked: numba's save,
    or the package's, as the parent had it)."""
    import time

    from numba.core.caching import IndexDataCacheFile

    load = IndexDataCacheFile._load_index

    def slow_load(self):
        overloads = load(self)
        started.set()
        time.sleep(0.5)
        return overloads

    IndexDataCacheFile._load_index = slow_load
    IndexDataCacheFile(folder, "f", "stamp").save(key, f"code of {key}")
    saved.set()


def test_overloads_saved_at_once_by_two_processes_each_keep_their_code(tmp_path):
    """Two processes compiling overloads of one function at once (`sparsebench
    compile`'s steps, or jobs on a cold cache): without the lock both took data file 1,
    and the index named a file holding the other's code."""
    import multiprocessing

    from numba.core.caching import IndexDataCacheFile

    context = multiprocessing.get_context("fork")
    processes = []
    for key in ("uint8", "float32"):
        started, saved = context.Event(), context.Event()
        process = context.Process(target=_save_slowly, args=(str(tmp_path), key, started, saved))
        process.start()
        started.wait(10)  # the second reads the index while the first holds it
        processes.append(process)
    for process in processes:
        process.join(30)
        assert process.exitcode == 0
    cache = IndexDataCacheFile(str(tmp_path), "f", "stamp")
    assert {key: cache.load(key) for key in ("uint8", "float32")} == {
        "uint8": "code of uint8",
        "float32": "code of float32",
    }


@jit.compiled(counted=False)
def _uncounted_sum(values, into):
    """Writes into memory it is given: what an uncounted function may do."""
    halves = (values[: len(values) // 2], values[len(values) // 2 :])
    for half in range(2):
        into[half] = halves[half].sum()
    return into[0] + into[1]


def test_an_uncounted_function_computes_in_the_memory_it_is_given():
    values = np.arange(11, dtype=np.int64)
    into = np.zeros(2, dtype=np.int64)
    assert _uncounted_sum(values, into) == 55
    assert into.tolist() == [10, 45]


def test_an_uncounted_function_that_allocates_is_refused_when_compiled():
    @jit.compiled(counted=False)
    def allocates(n):
        return np.zeros(n)

    with pytest.raises(numba.core.errors.TypingError):
        allocates(3)
