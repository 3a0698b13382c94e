"""`sparsebench compile` fills numba's cache once, so that no job compiles
(sparsebench.warmup): in a cache folder of its own (NUMBA_CACHE_DIR, as a cluster shares
one), after the command, a whole BM25 pair and SPLADE pairs on packed postings and on
plain ones with dense rows through every stage compile nothing.

The cold build is the tests' session's own first step (tests/conftest.py: the command on
all cores, into a folder nothing else writes); here a copy of that folder."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import shared_path
from numba.core import types

# counts numba's compilations in this process (numba's event API), then runs each pair
# (argv: a path prefix, the models by name as JSON)
COUNTED_PAIRS = """
import json
import sys

import numba
from numba.core import event

compiled = []


class Count(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Count())
from sparsebench.pair import run_pair
from sparsebench.search.settings import SearchSettings

for name, model in json.loads(sys.argv[2]).items():
    for strategy in ("maxscore", "exhaustive"):
        run_pair({"source": "builtin", "name": "minibeir"}, model, sys.argv[1] + name + strategy,
                 k=1, search=SearchSettings(strategy=strategy))


@numba.njit
def probe(x):  # compiled here whatever the cache holds: the count is seen to count
    return x + 1


probe(1)
print(" ".join(sorted(set(compiled))))
"""


def _run(code: list[str], cache, tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run(code, env=env, capture_output=True, text=True, cwd=tmp_path, check=True)


def test_after_compile_no_stage_compiles(tmp_path):
    cache = tmp_path / "numba-cache"
    shutil.copytree(os.environ["SPARSEBENCH_TEST_COMPILED"], cache)
    compile_ = [sys.executable, "-m", "sparsebench.cli", "compile", "--languages", "en"]
    done = _run([*compile_, "--jobs", "1"], cache, tmp_path)  # in one process, cache warm
    assert "compiled code in numba's cache (search uint8" in done.stdout
    assert "analyzer en" in done.stdout and "analyzer ja" not in done.stdout
    assert str(cache) in done.stdout
    splade = str(shared_path("models", "splade-tiny"))
    models = {
        "bm25": {"kind": "bm25"},
        "packed": {"kind": "splade", "model": splade, "quantization": {}, "packed_postings": True},
        "dense": {"kind": "splade", "model": splade, "quantization": {}},  # dense rows
    }
    pairs = [sys.executable, "-c", COUNTED_PAIRS, str(tmp_path / "pair-"), json.dumps(models)]
    assert _run(pairs, cache, tmp_path).stdout.split() == ["probe"]


def test_jobs_must_be_positive(capsys):
    from sparsebench.cli import main

    with pytest.raises(SystemExit):
        main(["compile", "--jobs", "0"])
    assert "--jobs: a positive integer, not '0'" in capsys.readouterr().err


def _overloads(cache: Path, function: str) -> list[tuple]:
    """The signatures of `function` (module.name) in numba's cache folder: its index
    files' keys (numba's own layout: a pickled version, then the stamp and overloads)."""
    signatures = []
    for index in cache.rglob(f"{function}-*.nbi"):
        with index.open("rb") as handle:
            pickle.load(handle)
            _, overloads = pickle.loads(handle.read())
        signatures += [key[0] for key in overloads]
    return signatures


def test_compile_builds_the_walk_only_for_maxscore():
    """The block scan's search_rows holds no MaxScore walk: `sparsebench compile` builds
    the walk once for each MaxScore search and never for the block scan's (a branch on
    `sums is None` had compiled the walk into both, half the command's time)."""
    cache = Path(os.environ["SPARSEBENCH_TEST_COMPILED"])
    searches = _overloads(cache, "rows_loop.search_rows")
    walks = _overloads(cache, "maxscore_loop.walk_row")
    maxscore = [args for args in searches if isinstance(args[0], types.NoneType)]
    assert 0 < len(maxscore) < len(searches)  # both searches were built
    assert len(walks) == len(maxscore)
