"""Speed and memory of the metric engine against pytrec_eval-terrier (and ranx), same
run, same machine.

A synthetic run of Q queries x D results (default 10,000 x 1,000) with graded qrels
(grades 0-3, about 40 judgments per query, ties in the scores) is written to files;
each implementation then runs in its own process, from the files to the per-query
values, and reports wall time and peak RSS. Values are compared afterwards.

Two tables: in-process (each library's load and evaluate steps, timed inside the
process), and whole processes from start to exit, imports included: `sparsebench
evaluate --per-query` (the command line) against a pytrec_eval script and, with
--ranx-python (a Python where ranx is installed), a ranx script, run twice (numba
compiles ranx's kernels on its first run and caches them; the second run is the one
compared).

    python benchmarks/bench_metrics.py                  # prints the markdown tables
    python benchmarks/bench_metrics.py --queries 1000   # a quicker look
    python benchmarks/bench_metrics.py --ranx-python /path/to/venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# sparsebench name -> pytrec_eval name
MEASURES = {
    "nDCG@10": "ndcg_cut_10",
    "nDCG@100": "ndcg_cut_100",
    "Recall@100": "recall_100",
    "Recall@1000": "recall_1000",
    "P@10": "P_10",
    "MAP": "map",
    "MRR": "recip_rank",
    "R-Precision": "Rprec",
    "bpref": "bpref",
}
TREC_MEASURES = {
    "ndcg_cut.10,100",
    "recall.100,1000",
    "P.10",
    "map",
    "recip_rank",
    "Rprec",
    "bpref",
}


def make_data(folder: Path, n_queries: int, depth: int, seed: int = 0) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    n_docs = 2_000_000
    run_path, qrels_path = folder / "run.trec", folder / "qrels.tsv"
    with open(run_path, "w") as run, open(qrels_path, "w") as qrels:
        qrels.write("query-id\tcorpus-id\tscore\n")
        for q in range(n_queries):
            docs = rng.choice(n_docs, size=depth, replace=False)
            scores = np.sort(np.round(rng.gamma(2.0, 3.0, size=depth), 2))[::-1]  # ties
            run.write(
                "".join(
                    f"q{q} Q0 d{d} {r} {s:.2f} bench\n"
                    for r, (d, s) in enumerate(zip(docs, scores, strict=True), 1)
                )
            )
            judged = np.concatenate(
                [rng.choice(docs[:200], 25, replace=False), rng.choice(n_docs, 15, replace=False)]
            )
            grades = rng.integers(0, 4, size=len(judged))
            qrels.write(
                "".join(
                    f"q{q}\td{d}\t{g}\n" for d, g in dict(zip(judged, grades, strict=True)).items()
                )
            )
    return run_path, qrels_path


def run_sparsebench(run_path: str, qrels_path: str) -> dict:
    from sparsebench.data.qrels import read_qrels
    from sparsebench.evaluate.metrics import evaluate_run
    from sparsebench.runs.runfile import read_run

    start = time.perf_counter()
    run, qrels = read_run(run_path), read_qrels(qrels_path)
    loaded = time.perf_counter()
    result = evaluate_run(run, qrels, list(MEASURES), query_set="run")
    done = time.perf_counter()
    return {
        "load_s": loaded - start,
        "eval_s": done - loaded,
        "values": result.per_query.to_dict(orient="index"),
    }


def run_pytrec_eval(run_path: str, qrels_path: str) -> dict:
    import pytrec_eval

    start = time.perf_counter()
    with open(run_path) as handle:
        run = pytrec_eval.parse_run(handle)
    qrels: dict = {}
    with open(qrels_path) as handle:
        next(handle)
        for line in handle:
            q, d, g = line.split()
            qrels.setdefault(q, {})[d] = int(g)
    loaded = time.perf_counter()
    values = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES).evaluate(run)
    done = time.perf_counter()
    renamed = {q: {ours: v[theirs] for ours, theirs in MEASURES.items()} for q, v in values.items()}
    return {"load_s": loaded - start, "eval_s": done - loaded, "values": renamed}


# sparsebench name -> ranx name (ranx's nDCG is trec_eval's, with linear gains)
RANX_MEASURES = {
    "nDCG@10": "ndcg@10",
    "nDCG@100": "ndcg@100",
    "Recall@100": "recall@100",
    "Recall@1000": "recall@1000",
    "P@10": "precision@10",
    "MAP": "map",
    "MRR": "mrr",
    "R-Precision": "r-precision",
    "bpref": "bpref",
}
# The qrels as {query: {document: grade}}, in the scripts each library's process runs.
READ_QRELS = """
import json, sys
judged = {}
with open(sys.argv[2]) as handle:
    next(handle)
    for line in handle:
        q, d, g = line.split()
        judged.setdefault(q, {})[d] = int(g)
"""
RANX_SCRIPT = (
    READ_QRELS
    + """
from ranx import Qrels, Run, evaluate
run_path, qrels_path, out, names = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
qrels = Qrels(judged)
run = Run.from_file(run_path, kind="trec")
evaluate(qrels, run, list(names.values()), return_mean=False)
values = {q: {ours: float(run.scores[theirs][q]) for ours, theirs in names.items()}
          for q in run.scores[next(iter(names.values()))]}
json.dump(values, open(out, "w"))
"""
)
PYTREC_SCRIPT = (
    READ_QRELS
    + """
import pytrec_eval
run_path, qrels_path, out, names, measures = sys.argv[1:6]
with open(run_path) as handle:
    run = pytrec_eval.parse_run(handle)
values = pytrec_eval.RelevanceEvaluator(judged, set(json.loads(measures))).evaluate(run)
names = json.loads(names)
json.dump({q: {o: v[t] for o, t in names.items()} for q, v in values.items()}, open(out, "w"))
"""
)


def whole_process(command: list[str], out: Path | None = None) -> tuple[float, dict]:
    """Seconds from start to exit of a command, and the per-query values it wrote (a
    JSON file `out`, or sparsebench's per-query TSV on its standard output)."""
    start = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if out is not None:
        return seconds, json.loads(out.read_text())
    values: dict[str, dict[str, float]] = {}
    for line in done.stdout.splitlines()[1:]:
        query, metric, value = line.split("\t")
        values.setdefault(query, {})[metric] = float(value)
    return seconds, values


def whole_processes(
    run_path: Path, qrels_path: Path, folder: Path, ranx_python: str | None, repeat: int
) -> dict[str, tuple[float, dict]]:
    """Each implementation as a whole process (imports included): the median seconds of
    `repeat` runs, the implementations taking turns, and the values of the last."""
    out = folder / "whole.json"
    commands = {
        "pytrec_eval script": (
            [sys.executable, "-c", PYTREC_SCRIPT, str(run_path), str(qrels_path), str(out)]
            + [json.dumps(MEASURES), json.dumps(sorted(TREC_MEASURES))],
            out,
        ),
        "sparsebench evaluate (command line)": (
            [sys.executable, "-m", "sparsebench.cli", "evaluate", "--qrels", str(qrels_path)]
            + ["--run", str(run_path), "--metrics", ",".join(MEASURES), "--query-set", "run"]
            + ["--per-query", "--format", "tsv", "--quiet"],
            None,
        ),
    }
    names = {name: name for name in commands}
    if ranx_python:
        command = [ranx_python, "-c", RANX_SCRIPT, str(run_path), str(qrels_path), str(out)]
        command.append(json.dumps(RANX_MEASURES))
        first, _ = whole_process(command, out)
        commands["ranx"] = (command, out)
        names["ranx"] = f"ranx (first run {first:.1f} s: numba compiles)"
    seconds: dict[str, list[float]] = {name: [] for name in commands}
    values: dict[str, dict] = {}
    for _ in range(repeat):
        for name, (command, written) in commands.items():
            took, values[name] = whole_process(command, written)
            seconds[name].append(took)
    return {names[n]: (float(np.median(seconds[n])), values[n]) for n in commands}


def peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM): unlike ru_maxrss it is not inherited
    from the parent that forked the process."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(impl: str, run_path: str, qrels_path: str, out: str) -> None:
    result = (run_sparsebench if impl == "sparsebench" else run_pytrec_eval)(run_path, qrels_path)
    result["peak_rss_mb"] = peak_rss_mb()
    Path(out).write_text(json.dumps(result))


def measure(impl: str, run_path: Path, qrels_path: Path, folder: Path) -> dict:
    out = folder / f"{impl}.json"
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, __file__, "--child", impl, str(run_path), str(qrels_path), str(out)],
        check=True,
    )
    result = json.loads(out.read_text())
    result["process_s"] = time.perf_counter() - start
    return result


def checkout_state(folder: Path) -> str:
    """The commit of the checkout that holds `folder`, and whether its tree differs from
    it: a figure measured on uncommitted code says so."""

    def git(*arguments: str) -> str:
        done = subprocess.run(["git", *arguments], capture_output=True, text=True, cwd=folder)
        return done.stdout.strip()

    changed = git("status", "--porcelain", "--untracked-files=no")
    return git("rev-parse", "--short", "HEAD") + (" with uncommitted changes" if changed else "")


def machine(packages: tuple[str, ...] = ("pandas", "pytrec_eval-terrier")) -> str:
    """The CPU, cores, memory, Python and numpy, and the versions of `packages`."""
    from importlib import metadata

    from sparsebench.core.devices import cpu_name

    cpu = cpu_name()
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    versions = "".join(f", {name} {metadata.version(name)}" for name in packages)
    return (
        f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB, Python {platform.python_version()}, "
        f"numpy {np.__version__}{versions}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--child", nargs=4, metavar=("IMPL", "RUN", "QRELS", "OUT"))
    parser.add_argument("--ranx-python", help="a Python interpreter with ranx installed")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each whole process")
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        run_path, qrels_path = make_data(folder, args.queries, args.depth)
        results = {
            impl: measure(impl, run_path, qrels_path, folder)
            for impl in ("pytrec_eval", "sparsebench")
        }
        whole = whole_processes(run_path, qrels_path, folder, args.ranx_python, args.repeat)
    ours, ref = results["sparsebench"], results["pytrec_eval"]
    diff = max(
        abs(ours["values"][q][m] - ref["values"][q][m]) for q in ref["values"] for m in MEASURES
    )
    print(
        f"run: {args.queries:,} queries x {args.depth:,} results, graded qrels (0-3); "
        f"measures: {', '.join(MEASURES)}"
    )
    print(f"machine: {machine()}")
    print(f"largest per-query difference over all measures: {diff:.1e}\n")
    print("| implementation | load files (s) | evaluate (s) | total (s) | peak RSS (MiB) |")
    print("|---|---:|---:|---:|---:|")
    for impl, r in results.items():
        print(
            f"| {impl} | {r['load_s']:.2f} | {r['eval_s']:.2f} | {r['load_s'] + r['eval_s']:.2f} "
            f"| {r['peak_rss_mb']:.0f} |"
        )
    speedup_eval = ref["eval_s"] / ours["eval_s"]
    speedup_total = (ref["load_s"] + ref["eval_s"]) / (ours["load_s"] + ours["eval_s"])
    print(
        f"\nsparsebench / pytrec_eval speed-up: evaluate {speedup_eval:.1f}x, "
        f"files to values {speedup_total:.1f}x; "
        f"memory ratio {ours['peak_rss_mb'] / ref['peak_rss_mb']:.2f}"
    )

    reference = whole["pytrec_eval script"]
    print(
        "\nWhole processes, start to exit (imports, reading the files, per-query values), "
        f"median of {args.repeat}:\n"
    )
    print("| implementation | seconds | pytrec_eval / it | largest difference from pytrec_eval |")
    print("|---|---:|---:|---:|")
    for name, (seconds, values) in whole.items():
        largest = max(
            abs(values[q][m] - reference[1][q][m]) for q in reference[1] for m in MEASURES
        )
        print(f"| {name} | {seconds:.2f} | {reference[0] / seconds:.2f}x | {largest:.1e} |")


if __name__ == "__main__":
    main()
