"""`sparsebench compile` fills numba's cache once, so that no job compiles
(sparsebench.warmup): in a cache folder of its own (NUMBA_CACHE_DIR, as a cluster shares
one), after the command, a whole BM25 pair through every stage compiles nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# counts numba's compilations in this process (numba's event API), then runs a pair
COUNTED_PAIR = """
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

for strategy in ("maxscore", "exhaustive"):
    run_pair({"source": "builtin", "name": "minibeir"}, {"kind": "bm25"}, sys.argv[1] + strategy,
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


@pytest.mark.slow
def test_after_compile_no_stage_compiles(tmp_path):
    cache = tmp_path / "numba-cache"
    done = _run([sys.executable, "-m", "sparsebench.cli", "compile", "--languages", "en"],
                cache, tmp_path)  # fmt: skip
    assert "compiled code in numba's cache (analyzers" in done.stdout
    assert str(cache) in done.stdout
    pair = [sys.executable, "-c", COUNTED_PAIR, str(tmp_path / "pair-")]
    assert _run(pair, cache, tmp_path).stdout.split() == ["probe"]
