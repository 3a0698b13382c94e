"""What a workflow job pays before its work: each Snakemake script's imports in a new
Python process, and reading a file of document ids both ways (numpy's passes, and the
compiled ones with numba's import and cached code) in a new process.

    python benchmarks/bench_startup.py [--repeat 5] [--ids 100000 1000000 10000000]

Each figure is the median over `--repeat` new processes (wall seconds, and CPU seconds:
user + system of the child). Run it with the package's numba cache warm (`sparsebench
compile`), on an otherwise idle machine. Results: benchmarks/RESULTS.md, "A job's
start-up".
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ids", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
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


if __name__ == "__main__":
    main()
