"""The whole experiment, as a user runs it: `snakemake --cores N` over the shared
collections (BM25 with Anserini's BEIR settings, and splade-tiny when asked), from an
empty results/ folder and a warm numba cache, split into what every job pays and the
work; beside it a real Anserini (Pyserini's fatjar) doing the same BM25 experiment on
the same collections: index, search, trec_eval.

What is timed on our side, each from an empty results/:
- the whole DAG (`snakemake --cores N`: runs, metrics, significance, leaderboard,
  visual report);
- the comparable part: the run and the metrics of every pair (targets
  results/eval/{model}/{dataset}/metrics.json), as Anserini's index, search and
  trec_eval make them;
- Snakemake's own start (a dry run of the same targets: reading the config, planning);
- each job's fixed cost: a new Python process importing the stage's module (measured
  here for every rule, times the rule's jobs).

On Anserini's side, per collection: IndexCollection (BeirFlatCollection, -threads N),
SearchCollection (BM25 k1 0.9, b 0.4, top 1000, -threads N) and trec_eval
(-c -m ndcg_cut.10 -m recall.100), each its own JVM as a user runs them. Both sides'
nDCG@10 are printed side by side (they are equal to 4 decimals).

    python benchmarks/bench_experiment.py --shared ../shared
    python benchmarks/bench_experiment.py --shared ../shared --splade \\
        --java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java \\
        --anserini-jar pyserini/resources/jars/anserini-1.7.1-fatjar.jar
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
COLLECTIONS = ("adi", "time", "medline", "cranfield", "cisi", "cacm", "lisa", "npl",
               "beir-scifact")  # fmt: skip
BM25 = {"kind": "bm25", "k1": 0.9, "b": 0.4, "statistics": "lucene"}  # bm25-flat, as Anserini
# each rule's stage module (scripts/<rule>.py imports it): what a job of it imports
RULE_MODULES = {
    "prepare_corpus": "sparsebench.data.stages",
    "prepare": "sparsebench.data.stages",
    "encode_corpus_shard": "sparsebench.encode.stages",
    "stack_shards": "sparsebench.encode.stages",
    "term_weights": "sparsebench.encode.stages",
    "encode_queries": "sparsebench.encode.stages",
    "retrieve": "sparsebench.retrieve.stages",
    "evaluate": "sparsebench.evaluate.stages",
    "significance": "sparsebench.evaluate.stages",
    "leaderboard": "sparsebench.evaluate.stages",
}
REPORT_MODULE = "sparsebench.report.stages"


def timed(command: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        output = result.stdout[-3000:] + result.stderr[-3000:]
        raise SystemExit(f"{' '.join(command)} failed:\n{output}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def import_seconds(module: str, repeats: int = 3) -> float:
    """A new process that imports `module`: the median wall time (Python's start too)."""
    runs = [timed([sys.executable, "-c", f"import {module}"], REPO)[0] for _ in range(repeats)]
    return statistics.median(runs)


def experiment(folder: Path, shared: Path, splade: bool) -> Path:
    """A config of every shared collection and the models; its path."""
    datasets = {
        name: {"source": "local", "path": str(shared / "data" / name)} for name in COLLECTIONS
    }
    models = {"bm25": BM25}
    if splade:
        models["splade-tiny"] = {"kind": "splade", "model": str(shared / "models" / "splade-tiny")}
    config = {"datasets": datasets, "models": models, "significance": {"resamples": 1000}}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "experiment.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def ours(folder: Path, shared: Path, cores: int, splade: bool) -> dict:
    """Our whole experiment and its comparable part, from empty results/ folders."""
    configfile = experiment(folder, shared, splade)
    snakemake = [str(Path(sys.executable).with_name("snakemake")), "-s", str(REPO / "Snakefile")]
    # SLURM's executor plugin, when installed, asks `scontrol show config` at every start,
    # and on a machine with SLURM's client but no controller waits 9 s for it
    env = {**os.environ, "SLURM_CONF": "/dev/null"}
    base = [*snakemake, "--configfile", str(configfile), "--cores", str(cores)]
    comparable = [f"results/eval/bm25/{d}/metrics.json" for d in COLLECTIONS]
    found: dict = {}
    work = folder / "comparable"
    work.mkdir()
    found["plan_seconds"] = timed([*base, "-n", *comparable], work, env)[0]
    found["comparable"] = timed([*base, *comparable], work, env)
    jobs = {
        rule: sum(1 for _ in (work / "results" / "benchmarks" / rule).rglob("*.tsv"))
        for rule in RULE_MODULES
    }
    found["comparable_jobs"] = {r: n for r, n in jobs.items() if n}
    found["ndcg"] = {
        d: json.loads((work / f"results/eval/bm25/{d}/metrics.json").read_text())["nDCG@10"]
        for d in COLLECTIONS
    }
    whole = folder / "whole"
    whole.mkdir()
    found["whole"] = timed(base, whole, env)
    benchmarks = whole / "results" / "benchmarks"
    found["whole_jobs"] = sum(1 for _ in benchmarks.rglob("*.tsv"))
    rules = [p.relative_to(benchmarks).parts[0] for p in benchmarks.rglob("*.tsv")]
    found["whole_report_jobs"] = rules.count("visual_report.tsv")
    return found


def anserini(folder: Path, shared: Path, java: Path, jar: Path, cores: int) -> dict:
    """Anserini's BM25 experiment, collection by collection (index, search, trec_eval)."""
    totals = {"index": [0.0, 0.0], "search": [0.0, 0.0], "trec_eval": [0.0, 0.0]}
    ndcg = {}
    jvm = [str(java), "-cp", str(jar)]
    for name in COLLECTIONS:
        data = shared / "data" / name
        corpus = folder / name / "corpus"
        corpus.mkdir(parents=True)
        (corpus / "corpus.jsonl").symlink_to(data / "corpus.jsonl")
        lines = (data / "qrels/test.tsv").read_text().splitlines()[1:]  # the header apart
        judgments = [line.split("\t") for line in lines]
        judged = {query for query, _, _ in judgments}
        topics = folder / name / "topics.tsv"
        with open(data / "queries.jsonl") as handle, open(topics, "w") as out:
            for line in handle:
                query = json.loads(line)
                if query["_id"] in judged:
                    out.write(f"{query['_id']}\t{' '.join(query['text'].split())}\n")
        qrels = folder / name / "qrels.txt"
        qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in judgments))
        index, run = folder / name / "index", folder / name / "run.txt"
        steps = {
            "index": [*jvm, "io.anserini.index.IndexCollection", "-collection",
                      "BeirFlatCollection", "-input", str(corpus), "-index", str(index),
                      "-generator", "DefaultLuceneDocumentGenerator", "-threads", str(cores)],
            "search": [*jvm, "io.anserini.search.SearchCollection", "-index", str(index),
                       "-topics", str(topics), "-topicReader", "TsvString", "-output", str(run),
                       "-bm25", "-bm25.k1", "0.9", "-bm25.b", "0.4", "-hits", "1000",
                       "-threads", str(cores)],
        }  # fmt: skip
        for step, command in steps.items():
            wall, cpu = timed(command, folder)
            totals[step][0] += wall
            totals[step][1] += cpu
        evaluation = [*jvm, "trec_eval", "-c", "-m", "ndcg_cut.10", "-m", "recall.100",
                      str(qrels), str(run)]  # fmt: skip
        began = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        result = subprocess.run(evaluation, cwd=folder, capture_output=True, text=True, check=True)
        totals["trec_eval"][0] += time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        totals["trec_eval"][1] += after.ru_utime - began.ru_utime + after.ru_stime - began.ru_stime
        for line in result.stdout.splitlines():
            fields = line.split()
            if fields and fields[0] == "ndcg_cut_10" and fields[1] == "all":
                ndcg[name] = float(fields[2])
    return {"steps": totals, "ndcg": ndcg}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--splade", action="store_true", help="splade-tiny in the whole DAG too")
    parser.add_argument("--java", type=Path, help="a Java 21 or later, for Anserini")
    parser.add_argument("--anserini-jar", type=Path, help="Anserini's fatjar")
    args = parser.parse_args()
    if bool(args.java) != bool(args.anserini_jar):
        raise SystemExit("--java and --anserini-jar go together")
    subprocess.run(
        [sys.executable, "-m", "sparsebench.cli", "compile"], check=True, capture_output=True
    )  # fmt: skip  (a warm cache: no job compiles)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        mine = ours(root / "ours", args.shared.resolve(), args.cores, args.splade)
        theirs = anserini(root / "anserini", args.shared.resolve(), args.java, args.anserini_jar,
                          args.cores) if args.java else None  # fmt: skip
    starts = {rule: import_seconds(module) for rule, module in RULE_MODULES.items()}
    fixed = sum(starts[rule] * n for rule, n in mine["comparable_jobs"].items())
    wall, cpu = mine["comparable"]
    jobs = sum(mine["comparable_jobs"].values())
    print(f"Collections: {', '.join(COLLECTIONS)}; {args.cores} cores; numba cache warm.")
    print("\n| side | what | wall s | CPU s |\n|---|---|---:|---:|")
    print(f"| sparsebench | runs + metrics of BM25 ({jobs} jobs) | {wall:.1f} | {cpu:.1f} |")
    print(f"| | of which Snakemake's start (a dry run) | {mine['plan_seconds']:.1f} | |")
    print(f"| | of which the jobs' start-up (Python + the stage's imports) | | {fixed:.1f} |")
    print(f"| | of which the work (the rest) | | {cpu - fixed - mine['plan_seconds']:.1f} |")
    whole_wall, whole_cpu = mine["whole"]
    models = "BM25 and splade-tiny" if args.splade else "BM25"
    what = f"the whole DAG, {models} ({mine['whole_jobs']} jobs, "
    what += f"{mine['whole_report_jobs']} of them the report's)"
    print(f"| sparsebench | {what} | {whole_wall:.1f} | {whole_cpu:.1f} |")
    if theirs:
        total = [sum(v[i] for v in theirs["steps"].values()) for i in (0, 1)]
        for step, (w, c) in theirs["steps"].items():
            print(f"| Anserini | {step} ({len(COLLECTIONS)} JVMs) | {w:.1f} | {c:.1f} |")
        print(f"| Anserini | index + search + trec_eval | {total[0]:.1f} | {total[1]:.1f} |")
        print(f"\nsparsebench / Anserini, wall: {wall / total[0]:.2f}x; CPU: {cpu / total[1]:.2f}x")
    print("\nJob start-up, a new process importing the stage's module (median of 3):")
    for rule, seconds in starts.items():
        print(f"  {rule}: {seconds:.2f} s")
    print("\nnDCG@10 | " + " | ".join(COLLECTIONS))
    print("sparsebench | " + " | ".join(f"{mine['ndcg'][d]:.4f}" for d in COLLECTIONS))
    if theirs:
        scores = [theirs["ndcg"].get(d, float("nan")) for d in COLLECTIONS]
        print("Anserini | " + " | ".join(f"{score:.4f}" for score in scores))
    print(f"\nmachine: {os.cpu_count()} CPUs; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
