"""MS MARCO passage's scale on one machine: a synthetic corpus of its shape stacked,
weighed into integer impacts and searched by the workflow's own stage functions, as a
single retrieval job and as `partitions: N`, each stage in a process of its own (wall
time and peak RSS per stage, as a job would take them).

Shape (defaults): 8,841,823 documents of about 119 distinct terms over 30,522 (SPLADE's
BERT vocabulary, Zipfian), float32 weights as a SPLADE encoder gives them, written as
encode shards of 500,000 documents; 6,980 queries of about 43 terms with integer
weights (quantised queries); the model weighs documents with `quantization: {scale:
100}` (integer impacts) and no IDF. The partitioned run must write the single job's run
byte for byte.

    python benchmarks/bench_msmarco_scale.py --folder /data/msmarco-synthetic
    python benchmarks/bench_msmarco_scale.py --folder /tmp/small --docs 200000 --queries 500
    python benchmarks/bench_msmarco_scale.py --folder /tmp/small --packed --stages single

--packed weighs with `packed_postings: true` (packed postings) into folders of their own
(single-packed, partitionsN-packed), and checks the run against the plain single job's
where that was made.

Disk: about 19 bytes a posting (shards, the stacked matrix, the postings of the single
job and of the partitions): some 20 GB at the full size.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_metrics import checkout_state, peak_rss_mb  # noqa: E402

VOCABULARY = 30_522
SHARD_DOCS = 500_000
DOC_DRAWS = 155  # Zipfian draws per document: about 119 distinct terms
QUERY_DRAWS = 50  # about 43 distinct
PACKED = os.environ.get("BENCH_PACKED") == "1"  # --packed (the stages' processes inherit it)
WEIGHTING = {
    "kind": "splade",
    "idf": "none",
    "quantization": {"scale": 100},
    **({"packed": True} if PACKED else {}),  # a model's packed_postings: true
}
_SUFFIX = "-packed" if PACKED else ""  # the packed runs' folders


def zipf_terms(rng: np.random.Generator, size: int) -> np.ndarray:
    ranks = np.floor(np.exp(rng.random(size) * np.log(VOCABULARY))).astype(np.int64) - 1
    return np.minimum(ranks, VOCABULARY - 1)


def synthetic_rows(rng: np.random.Generator, rows: int, draws: int, integer: bool):
    import scipy.sparse as sp

    counts = np.maximum(rng.poisson(draws, rows), 1)
    row = np.repeat(np.arange(rows, dtype=np.int32), counts)
    col = zipf_terms(rng, int(counts.sum())).astype(np.int32)
    data = rng.gamma(1.5, 0.6, len(col)).astype(np.float32)
    if integer:
        data = np.maximum(np.rint(data * 100), 1).astype(np.float32)
    matrix = sp.csr_matrix((data, (row, col)), shape=(rows, VOCABULARY), dtype=np.float32)
    matrix.sum_duplicates()  # a term drawn twice: one weight (their sum)
    return matrix


def generate(folder: Path, docs: int, queries: int) -> dict:
    """Encode shards (matrix and term list, as encode_corpus_shard writes them), the
    corpus's document ids, and the encoded queries."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sparsebench.core.csrfiles import save_csr
    from sparsebench.core.fileio import write_lines

    shards = folder / "shards"
    shards.mkdir(parents=True, exist_ok=True)
    terms = [f"t{j:05d}" for j in range(VOCABULARY)]
    postings = 0
    for number, start in enumerate(range(0, docs, SHARD_DOCS)):
        rows = min(SHARD_DOCS, docs - start)
        matrix = synthetic_rows(np.random.default_rng(number), rows, DOC_DRAWS, False)
        save_csr(shards / f"{number}.npz", matrix)
        write_lines(shards / f"{number}.terms.txt", terms)
        postings += matrix.nnz
    doc_ids = pa.array([f"D{i}" for i in range(docs)], type=pa.string())
    pq.write_table(pa.table({"doc_id": doc_ids}), folder / "corpus.parquet")
    query_matrix = synthetic_rows(np.random.default_rng(10**6), queries, QUERY_DRAWS, True)
    save_csr(folder / "queries.npz", query_matrix)
    write_lines(folder / "query_ids.txt", [f"Q{i:05d}" for i in range(queries)])
    return {"postings": postings, "query terms": round(query_matrix.nnz / queries, 1)}


def shard_files(folder: Path) -> tuple[list[str], list[str]]:
    numbers = sorted(int(p.stem) for p in (folder / "shards").glob("*.npz"))
    return (
        [str(folder / "shards" / f"{n}.npz") for n in numbers],
        [str(folder / "shards" / f"{n}.terms.txt") for n in numbers],
    )


def stage(folder: Path, name: str, partitions: int, part: int) -> dict:
    """One stage, as its job runs it."""
    from sparsebench.encode.stages import stack_shards, term_weights
    from sparsebench.partitions import stages as parts

    single, split = folder / f"single{_SUFFIX}", folder / f"partitions{partitions}{_SUFFIX}"
    shards, terms = shard_files(folder)
    if name == "generate":
        return generate(folder, *json.loads((folder / "shape.json").read_text()))
    if name == "stack":
        single.mkdir(exist_ok=True)
        stacked = stack_shards(
            shards,
            terms,
            folder / "corpus.parquet",
            single / "matrix.npz",
            single / "vocab.txt",
            single / "doc_ids.txt",
        )
        return {"postings": stacked.matrix.nnz}
    if name == "weigh":
        term_weights(
            single / "matrix.npz",
            single / "vocab.txt",
            single / "doc_ids.txt",
            WEIGHTING,
            single / "postings.npz",
            single / "idf.npy",
            single / "term_stats.json",
        )
        return {"index bytes": (single / "postings.npz").stat().st_size}
    if name == "retrieve":
        return search(folder, single, single / "idf.npy")
    mine = np.array_split(np.arange(len(shards)), partitions)[part]
    rows = range(
        int(mine[0]) * SHARD_DOCS, min((int(mine[-1]) + 1) * SHARD_DOCS, _documents(folder))
    )
    here = split / str(part)
    here.mkdir(parents=True, exist_ok=True)
    if name == "vocabulary":
        parts.write_vocabulary(terms, split / "vocab.txt")
        return {}
    if name == "partition_statistics":
        statistics = parts.partition_statistics(
            [shards[i] for i in mine],
            [terms[i] for i in mine],
            split / "vocab.txt",
            WEIGHTING,
            here / "statistics.npz",
        )
        return {"documents": statistics.n_docs}
    if name == "global_statistics":
        parts.global_statistics(
            [split / str(p) / "statistics.npz" for p in range(partitions)],
            WEIGHTING,
            split / "vocab.txt",
            split / "statistics.npz",
            split / "idf.npy",
            split / "term_stats.json",
        )
        return {}
    if name == "partition_postings":
        parts.partition_postings(
            [shards[i] for i in mine],
            [terms[i] for i in mine],
            split / "vocab.txt",
            folder / "corpus.parquet",
            rows,
            WEIGHTING,
            split / "statistics.npz",
            here / "postings.npz",
            here / "doc_ids.txt",
        )
        return {"index bytes": (here / "postings.npz").stat().st_size}
    if name == "retrieve_partition":
        return search(folder, here, split / "idf.npy")
    if name == "merge_runs":
        lines = parts.merge_runs(
            [split / str(p) / "run.trec" for p in range(partitions)],
            folder / "query_ids.txt",
            split / "run.trec",
            1000,
            "synthetic",
        )
        return {"lines": lines}
    raise SystemExit(f"unknown stage {name}")


def search(folder: Path, index: Path, idf: Path) -> dict:
    """The retrieve stage over the postings and document ids in `index`."""
    from sparsebench.retrieve.stages import retrieve_run
    from sparsebench.search.settings import SearchSettings

    files = (folder / "queries.npz", folder / "query_ids.txt", index / "doc_ids.txt")
    retrieve_run(
        index / "postings.npz",
        idf,
        *files,
        index / "run.trec",
        1000,
        "synthetic",
        search=SearchSettings(threads=2),
    )
    return {}


def _documents(folder: Path) -> int:
    return json.loads((folder / "shape.json").read_text())[0]


def child(folder: str, name: str, partitions: int, part: int, out: str) -> None:
    start = time.perf_counter()
    facts = stage(Path(folder), name, partitions, part)
    facts.update(seconds=time.perf_counter() - start, peak_mb=peak_rss_mb())
    Path(out).write_text(json.dumps(facts))


def run_stage(folder: Path, name: str, partitions: int = 1, part: int = -1) -> dict:
    out = folder / f".{name}.{part}.json"
    command = [sys.executable, __file__, "--child", str(folder), name, str(partitions), str(part)]
    subprocess.run([*command, str(out)], check=True)
    facts = json.loads(out.read_text())
    label = name if part < 0 else f"{name} {part}"
    seconds, peak = facts.pop("seconds"), facts.pop("peak_mb")
    notes = ", ".join(f"{key} {value:,}" for key, value in facts.items())
    print(f"| {label} | {seconds:,.0f} | {peak:,.0f} | {notes} |", flush=True)
    return facts


def same_runs(a: Path, b: Path) -> str:
    """'identical', or where the first differing line is."""
    with open(a, "rb") as left, open(b, "rb") as right:
        for number, (x, y) in enumerate(zip(left, right, strict=False), 1):
            if x != y:
                return f"line {number} differs"
        return "identical" if left.read(1) == right.read(1) else "lengths differ"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--folder", type=Path, help="where the corpus and indexes go")
    parser.add_argument("--docs", type=int, default=8_841_823)
    parser.add_argument("--queries", type=int, default=6_980)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--stages", nargs="+", default=["generate", "single", "partitions"])
    parser.add_argument("--packed", action="store_true", help="packed postings (see above)")
    parser.add_argument("--child", nargs=5)
    args = parser.parse_args()
    if args.packed and not PACKED:  # the weighting is read when the module is imported
        os.environ["BENCH_PACKED"] = "1"
        os.execv(sys.executable, [sys.executable, __file__, *sys.argv[1:]])
    if args.child:
        folder, name, partitions, part, out = args.child
        child(folder, name, int(partitions), int(part), out)
        return
    if args.folder is None:
        parser.error("--folder is required")
    args.folder.mkdir(parents=True, exist_ok=True)
    (args.folder / "shape.json").write_text(json.dumps([args.docs, args.queries]))
    commit = checkout_state(HERE)
    print(
        f"machine: {platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, numpy {np.__version__}, commit {commit}; "
        f"{args.docs:,} documents, {args.queries:,} queries"
        f"{', packed postings' if PACKED else ''}\n"
    )
    print("| stage | seconds | peak RSS (MiB) | |\n|---|---:|---:|---|")
    if "generate" in args.stages:
        run_stage(args.folder, "generate")
    if "single" in args.stages:
        for name in ("stack", "weigh", "retrieve"):
            run_stage(args.folder, name)
        plain = args.folder / "single" / "run.trec"
        if PACKED and plain.exists():
            packed = args.folder / "single-packed" / "run.trec"
            outcome = same_runs(packed, plain)
            print(f"\nthe packed postings' run against the plain postings': {outcome}")
    if "partitions" in args.stages:
        n = args.partitions
        run_stage(args.folder, "vocabulary", n, 0)
        for part in range(n):
            run_stage(args.folder, "partition_statistics", n, part)
        run_stage(args.folder, "global_statistics", n, 0)
        for part in range(n):
            run_stage(args.folder, "partition_postings", n, part)
        for part in range(n):
            run_stage(args.folder, "retrieve_partition", n, part)
        run_stage(args.folder, "merge_runs", n, 0)
        single = args.folder / f"single{_SUFFIX}" / "run.trec"
        if single.exists():
            merged = args.folder / f"partitions{n}{_SUFFIX}" / "run.trec"
            print(f"\npartitioned run against the single job's: {same_runs(merged, single)}")


if __name__ == "__main__":
    main()
