"""Partitioned retrieval (retrieval.partitions) against the single job, on synthetic
BM25-like corpora: per-job peak memory, total CPU time (the cost of the extra jobs and
the merge) and wall time with 2 jobs at a time.

The corpus is written as the encoding shards the workflow would (term counts, a Zipfian
vocabulary, ~40 distinct terms a document; queries of ~5 terms), then each stage runs as
its own process, as its Snakemake job would: CPU time from wait4, peak RSS as the
process's own VmHWM (ru_maxrss would report the parent's size at fork):

  single       stack_shards -> term_weights -> retrieve
  partitioned  vocabulary -> partition_statistics (xP) -> global_statistics
               -> partition_postings (xP) -> retrieve_partition (xP) -> merge_runs

Both runs must be byte-identical (checked). Wall time of the partitioned run is measured
with up to 2 of its jobs at a time (the machine has 2 cores), the single run's job by job.

    python benchmarks/bench_partitions.py --docs 1000000 --partitions 4
    python benchmarks/bench_partitions.py --docs 1000000 5000000 --partitions 2 5
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import scipy.sparse as sp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_retrieval import make_matrix  # noqa: E402

VOCABULARY, DOC_TERMS, QUERY_TERMS = 1_000_000, 40, 5
SHARD_SIZE = 250_000  # documents per encoding shard (--shard-size)
WEIGHTING = {"kind": "bm25", "k1": 0.9, "b": 0.4, "k1_plus_one": False, "idf": "lucene"}


def write_problem(folder: Path, docs: int, queries: int, seed: int = 0) -> list[str]:
    """Encoding shards (npz + terms), corpus ids (Parquet) and encoded queries."""
    from sparsebench.core.csrfiles import save_csr
    from sparsebench.core.fileio import write_lines

    rng = np.random.default_rng(seed)
    terms = [f"t{i:07d}" for i in range(VOCABULARY)]  # sorted: every shard lists them all
    shards = []
    for shard, start in enumerate(range(0, docs, SHARD_SIZE)):
        rows = min(SHARD_SIZE, docs - start)
        matrix = make_matrix(rng, rows, VOCABULARY, DOC_TERMS, weighted=False)
        matrix.data = rng.integers(1, 4, matrix.nnz).astype(np.float32)  # term counts
        save_csr(folder / f"shards/{shard}.npz", matrix)
        write_lines(folder / f"shards/{shard}.terms.txt", terms)
        shards.append(str(folder / f"shards/{shard}.npz"))
    ids = pa.array([f"doc{i}" for i in range(docs)], pa.string())
    pq.write_table(pa.table({"doc_id": ids}), folder / "corpus.parquet", row_group_size=10_000)
    query = make_matrix(rng, queries, VOCABULARY, QUERY_TERMS, weighted=False)
    save_csr(folder / "queries.npz", sp.csr_matrix(query))
    write_lines(folder / "query_ids.txt", [f"q{i}" for i in range(queries)])
    return shards


STAGE = """
import json, sys
from pathlib import Path
from sparsebench.partitions import stages as partitions
from sparsebench.encode import stages as encode_stages
from sparsebench.retrieve import stages as retrieve_stages
from sparsebench.search.settings import SearchSettings
folder, name, args = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
shards = [folder / f"shards/{s}" for s in args.get("shards", [])]
npz = [f"{s}.npz" for s in shards]
terms = [f"{s}.terms.txt" for s in shards]
weighting = args.get("weighting")
if name == "stack":
    encode_stages.stack_shards(npz, terms, folder / "corpus.parquet", folder / "single/corpus.npz",
                        folder / "single/vocab.txt", folder / "single/doc_ids.txt")
elif name == "term_weights":
    s = folder / "single"
    encode_stages.term_weights(s / "corpus.npz", s / "vocab.txt", s / "doc_ids.txt", weighting,
                        s / "postings.npz",
                        s / "idf.npy", s / "stats.json")
elif name == "retrieve":
    s = folder / args["dir"]
    retrieve_stages.retrieve_run(s / "postings.npz", folder / args["idf"], folder / "queries.npz",
                        folder / "query_ids.txt", s / "doc_ids.txt", s / "run.trec",
                        args["k"], "m", search=SearchSettings(threads=1))
elif name == "vocabulary":
    partitions.write_vocabulary(terms, folder / "parts/vocab.txt")
elif name == "statistics":
    partitions.partition_statistics(npz, terms, folder / "parts/vocab.txt", weighting,
                                folder / f"parts/{args['p']}/statistics.npz")
elif name == "global":
    partitions.global_statistics(
        [folder / f"parts/{p}/statistics.npz" for p in range(args["count"])], weighting,
        folder / "parts/vocab.txt", folder / "parts/statistics.npz", folder / "parts/idf.npy",
        folder / "parts/stats.json")
elif name == "postings":
    partitions.partition_postings(npz, terms, folder / "parts/vocab.txt", folder / "corpus.parquet",
                              range(*args["rows"]), weighting, folder / "parts/statistics.npz",
                              folder / f"parts/{args['p']}/postings.npz",
                              folder / f"parts/{args['p']}/doc_ids.txt")
elif name == "merge":
    partitions.merge_runs([folder / f"parts/{p}/run.trec" for p in range(args["count"])],
                          folder / "query_ids.txt", folder / "parts/run.trec", args["k"], "m")
for line in open("/proc/self/status"):  # VmHWM: this process's own peak, not the parent's
    if line.startswith("VmHWM:"):
        print(json.dumps({"peak_mib": int(line.split()[1]) / 1024}))
"""


def run_stage(folder: Path, name: str, **args) -> dict:
    """One stage in its own process, as its job would run: wall, CPU (user + system) and
    peak RSS from wait4."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-c", STAGE, str(folder), name, json.dumps(args)],
            env=env,
            stdout=out,
            stderr=err,
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        out.seek(0), err.seek(0)
        if status != 0:
            raise RuntimeError(f"stage {name} failed: {err.read().decode()[-3000:]}")
        peak = json.loads(out.read().decode().strip().splitlines()[-1])["peak_mib"]
    return {
        "stage": name,
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_mib": peak,
    }


def in_parallel(jobs, workers: int = 2) -> list[dict]:
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda job: job(), jobs))


def measure(docs: int, partitions: int, queries: int, k: int) -> dict:
    from sparsebench.workflow.layout import partition_shards

    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        folder = Path(tmp)
        for sub in ("shards", "single", "parts"):
            (folder / sub).mkdir()
        shards = write_problem(folder, docs, queries)
        names = [Path(s).stem for s in shards]
        w = WEIGHTING

        started = time.perf_counter()
        single = [
            run_stage(folder, "stack", shards=names),
            run_stage(folder, "term_weights", weighting=w),
            run_stage(folder, "retrieve", dir="single", idf="single/idf.npy", k=k),
        ]
        single_wall = time.perf_counter() - started

        groups = partition_shards(len(names), partitions)
        for p in range(len(groups)):
            (folder / f"parts/{p}").mkdir()

        def part(p):
            return [names[s] for s in groups[p]]

        started = time.perf_counter()
        parted = [run_stage(folder, "vocabulary", shards=names)]
        parted += in_parallel(
            [
                lambda p=p: run_stage(folder, "statistics", shards=part(p), weighting=w, p=p)
                for p in range(len(groups))
            ]
        )
        parted.append(run_stage(folder, "global", weighting=w, count=len(groups)))

        def rows(p):
            return [groups[p].start * SHARD_SIZE, min(groups[p].stop * SHARD_SIZE, docs)]

        parted += in_parallel(
            [
                lambda p=p: run_stage(
                    folder, "postings", shards=part(p), weighting=w, p=p, rows=rows(p)
                )
                for p in range(len(groups))
            ]
        )
        parted += in_parallel(
            [
                lambda p=p: run_stage(
                    folder, "retrieve", dir=f"parts/{p}", idf="parts/idf.npy", k=k
                )
                for p in range(len(groups))
            ]
        )
        parted.append(run_stage(folder, "merge", count=len(groups), k=k))
        parted_wall = time.perf_counter() - started
        same = (folder / "single/run.trec").read_bytes() == (folder / "parts/run.trec").read_bytes()
    return {
        "docs": docs,
        "partitions": len(groups),
        "queries": queries,
        "k": k,
        "identical": same,
        "single": single,
        "partitioned": parted,
        "single_wall_s": single_wall,
        "partitioned_wall_s": parted_wall,
    }


def summary(result: dict) -> str:
    single, parted = result["single"], result["partitioned"]

    def peak(rows, stage):
        return max((r["peak_mib"] for r in rows if r["stage"] == stage), default=float("nan"))

    merge_cpu = sum(r["cpu_s"] for r in parted if r["stage"] == "merge")
    return (
        f"| {result['docs']:,} | {result['partitions']} | "
        f"{max(r['peak_mib'] for r in single):,.0f} | {max(r['peak_mib'] for r in parted):,.0f} | "
        f"{peak(single, 'retrieve'):,.0f} | {peak(parted, 'retrieve'):,.0f} | "
        f"{sum(r['cpu_s'] for r in single):.1f} | {sum(r['cpu_s'] for r in parted):.1f} | "
        f"{peak(parted, 'merge'):,.0f} / {merge_cpu:.1f} | "
        f"{result['single_wall_s']:.1f} | {result['partitioned_wall_s']:.1f} | "
        f"{result['identical']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--partitions", type=int, nargs="+", default=[4])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("-k", type=int, default=1000)
    parser.add_argument("--shard-size", type=int, default=SHARD_SIZE)
    parser.add_argument("--json", help="write every measurement here")
    args = parser.parse_args()
    globals()["SHARD_SIZE"] = args.shard_size
    results = []
    print(
        "| docs | partitions | peak MiB single job | peak MiB partition job | retrieve peak "
        "single | retrieve peak partition | CPU s single | CPU s partitioned | merge peak MiB / "
        "CPU s | wall s single | wall s partitioned (2 jobs at a time) | identical |"
    )
    print("|" + "---:|" * 10 + "---|")
    for docs in args.docs:
        for partitions in args.partitions:
            result = measure(docs, partitions, args.queries, args.k)
            results.append(result)
            print(summary(result), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
