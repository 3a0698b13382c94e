"""What a workflow job pays before its work: each Snakemake script's imports in a new
Python process, and three things done both ways in a new process, by numpy and by
compiled code with numba's import and cached code: reading a file of document ids,
tokenizing texts (whole, or by distinct chunks) and writing run lines.

    python benchmarks/bench_startup.py [--repeat 5] [--ids 100000 1000000 10000000]
        [--text-mb 1 8 32] [--lines 10000 200000 500000 1000000]

Each figure is the median over `--repeat` new processes (wall seconds, and CPU seconds:
user + system of the child). Run it with the package's numba cache warm (`sparsebench
compile`), on an otherwise idle machine. Results: benchmarks/RESULTS.md, "A job's
start-up".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
IMPORT = re.compile(r"^(?:from|import) .*$", re.M)
READ_IDS = """
import sys
from sparsebench.core import fileio
fileio.COMPILED_SPLIT_BYTES = 0 if sys.argv[2] == "compiled" else 1 << 62
fileio.read_line_array(sys.argv[1])
"""
TOKENIZE = """
import sys
from sparsebench.core.fileio import read_line_array
from sparsebench.analysis import batch_tokens

texts = read_line_array(sys.argv[1])
batch_tokens._whole_bytes_left = 1 << 62 if sys.argv[2] == "numpy" else 0
batch_tokens.standard_tokens(texts)
"""
WRITE_LINES = """
import sys
import numpy as np
from sparsebench.runs import runfile

n = int(sys.argv[1])
runfile._numpy_lines_left = 1 << 62 if sys.argv[2] == "numpy" else 0
if sys.argv[2] == "compiled":
    from sparsebench.runs.text import load_compiled  # as the retrieve stage does

    load_compiled()
rng = np.random.default_rng(0)
docs = np.array([f"doc{i:07d}" for i in range(100_000)], dtype=object)
queries = np.array([f"q{i}" for i in range(n // 1000 + 1)], dtype=object)
lines = runfile.RunLines(queries, docs, "bm25")
rows = np.arange(n) // 1000
scores = rng.random(n).astype(np.float32) * 20
lines(rows, rng.integers(0, len(docs), n), np.arange(n) % 1000 + 1, scores)
"""


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of `command` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_of(command: list[str], repeat: int) -> tuple[float, float]:
    timed(command)  # the files in the page cache
    runs = [timed(command) for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def script_imports(repeat: int) -> list[tuple[str, float, float]]:
    rows = []
    for script in sorted((REPO / "scripts").glob("*.py")):
        code = "\n".join(IMPORT.findall(script.read_text()))
        rows.append((script.name, *median_of([sys.executable, "-c", code], repeat)))
    return rows


def id_reading(sizes: list[int], repeat: int) -> list[tuple[int, int, str, float, float]]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            path = Path(folder) / f"ids-{size}.txt"
            path.write_text("".join(f"msmarco-doc-{i:08d}\n" for i in range(size)))
            for way in ("numpy", "compiled"):
                command = [sys.executable, "-c", READ_IDS, str(path), way]
                rows.append((size, path.stat().st_size, way, *median_of(command, repeat)))
            path.unlink()
    return rows


def tokenizing(megabytes: list[int], repeat: int) -> list[tuple[int, int, str, float, float]]:
    """SciFact's texts (../shared), repeated to each size, tokenized both ways."""
    corpus = REPO.parent / "shared" / "data" / "beir-scifact" / "corpus.jsonl"
    texts = [json.loads(line)["text"].replace("\n", " ") for line in corpus.open()]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for size in megabytes:
            path = Path(folder) / f"texts-{size}.txt"
            with path.open("w") as handle:
                written, at = 0, 0
                while written < size << 20:
                    text = texts[at % len(texts)]
                    handle.write(text + "\n")
                    written, at = written + len(text.encode()) + 1, at + 1
            for way in ("numpy", "compiled"):
                command = [sys.executable, "-c", TOKENIZE, str(path), way]
                rows.append((size, path.stat().st_size, way, *median_of(command, repeat)))
    return rows


def line_writing(counts: list[int], repeat: int) -> list[tuple[int, str, float, float]]:
    rows = []
    for n in counts:
        for way in ("numpy", "compiled"):
            command = [sys.executable, "-c", WRITE_LINES, str(n), way]
            rows.append((n, way, *median_of(command, repeat)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ids", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    parser.add_argument("--text-mb", type=int, nargs="+", default=[1, 8, 32])
    lines = [10_000, 200_000, 500_000, 1_000_000]
    parser.add_argument("--lines", type=int, nargs="+", default=lines)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, median of {args.repeat}")
    baseline = median_of([sys.executable, "-c", "pass"], args.repeat)
    print(f"\npython -c pass: {baseline[0]:.3f} s wall, {baseline[1]:.3f} s CPU\n")
    print("| script | imports: wall s | CPU s |\n|---|---:|---:|")
    for name, wall, cpu in script_imports(args.repeat):
        print(f"| {name} | {wall:.3f} | {cpu:.3f} |")
    print("\n| ids | bytes | cut by | process: wall s | CPU s |\n|---:|---:|---|---:|---:|")
    for size, size_bytes, way, wall, cpu in id_reading(args.ids, args.repeat):
        print(f"| {size:,} | {size_bytes:,} | {way} | {wall:.3f} | {cpu:.3f} |")
    print("\n| text | bytes | tokenized | process: wall s | CPU s |\n|---:|---:|---|---:|---:|")
    for size, size_bytes, way, wall, cpu in tokenizing(args.text_mb, args.repeat):
        print(f"| {size} MB | {size_bytes:,} | {way} | {wall:.3f} | {cpu:.3f} |")
    print("\n| run lines | written by | process: wall s | CPU s |\n|---:|---|---:|---:|")
    for n, way, wall, cpu in line_writing(args.lines, args.repeat):
        print(f"| {n:,} | {way} | {wall:.3f} | {cpu:.3f} |")


if __name__ == "__main__":
    main()
