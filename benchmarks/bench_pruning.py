"""MaxScore pruning against exhaustive retrieval, side by side in one process, on the
synthetic corpora of bench_retrieval.py (same documents, weights and queries), one
thread: queries per second of each strategy and whether the run files are identical
(they must be, byte for byte). Run lines are made in memory as the retrieve stage
makes them (runfile.RunLines), so the time is the search plus the lines.

    python benchmarks/bench_pruning.py --sizes 100000 1000000 --ks 10 100 1000
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_retrieval import make_problem, own_postings  # noqa: E402


def searched(folder: Path, k: int, strategy: str) -> tuple[float, bytes]:
    from sparsebench.runs.runfile import RunLines
    from sparsebench.search.postings import load_postings
    from sparsebench.search.scipy_backend import retrieve

    queries = sp.load_npz(folder / "queries.npz").tocsr()
    weights = np.load(folder / "idf.npy")
    # ids of its own, whose tie keys are in no order with position (the file's are
    # those of bench_retrieval's ids, which ascend with it): ranked at every search
    postings = dataclasses.replace(load_postings(own_postings(folder)), tie_keys=None)
    doc_ids = np.array([f"d{i}" for i in range(postings.shape[1])], dtype=object)
    query_ids = np.array([f"q{i:05d}" for i in range(queries.shape[0])], dtype=object)
    lines = RunLines(query_ids, doc_ids, "m")
    # one query first: the compiled MaxScore loop loaded (or compiled) before the clock
    list(retrieve(queries[:1], postings, weights, k, doc_ids, query_ids[:1], strategy=strategy))
    start = time.perf_counter()
    run = b"".join(
        lines.retrieved(first, batch)
        for first, batch in retrieve(
            queries, postings, weights, k, doc_ids, query_ids, threads=1, strategy=strategy
        )
    )
    return time.perf_counter() - start, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--shapes", nargs="+", default=["bm25"])
    parser.add_argument("--ks", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--data", type=Path, help="keep the generated corpora here")
    args = parser.parse_args()
    root = args.data or Path(tempfile.mkdtemp(prefix="bench-pruning-"))
    print("| shape | documents | k | exhaustive q/s | MaxScore q/s | ratio | runs identical |")
    print("|---|---|---|---|---|---|---|")
    for shape in args.shapes:
        for size in args.sizes:
            folder = root / f"{shape}-{size}"
            if not (folder / "queries.npz").exists():
                folder.mkdir(parents=True, exist_ok=True)
                make_problem(folder, size, args.queries, shape)
            for k in args.ks:
                seconds, runs = {}, {}
                for strategy in ("exhaustive", "maxscore"):
                    seconds[strategy], runs[strategy] = searched(folder, k, strategy)
                rates = {s: args.queries / t for s, t in seconds.items()}
                print(
                    f"| {shape} | {size:,} | {k} | {rates['exhaustive']:,.0f} | "
                    f"{rates['maxscore']:,.0f} | {rates['maxscore'] / rates['exhaustive']:.2f} | "
                    f"{runs['exhaustive'] == runs['maxscore']} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
