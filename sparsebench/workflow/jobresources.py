"""What a job asks a batch scheduler for: memory, run time, GPUs and threads.

Estimates follow the data a job handles, so that a cluster run asks for what one shard or
one index needs rather than a blanket maximum: encode jobs scale with the shard size and
the encoder, retrieve jobs with the index and the query-batch budget. They are
deliberately generous (a job that outgrows its request is killed; one that asks too much
only waits longer). A profile can override any of them per rule (`set-resources`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

# Documents per second one encode job is assumed to sustain, on the slow side: BM25-style
# analysis runs at thousands per second on one core, a BERT-base SPLADE at hundreds per
# second on a GPU and at a few per second on CPU threads.
ENCODE_DOCS_PER_SECOND = {"lexical": 1500.0, "gpu": 150.0, "cpu": 5.0}
# Memory one encode job needs: the interpreter and libraries (with torch and a BERT-size
# model for SPLADE), plus per document of the shard its text, tokens and sparse row.
ENCODE_BASE_MB = {"lexical": 768, "gpu": 4096, "cpu": 4096}
ENCODE_MB_PER_DOC = 0.02
MIN_RUNTIME_MIN = 10
# A search or neural encoding job takes several threads only when its work, the items it
# handles times the bytes each one reads, reaches SHARED_WORK; else one. Below it a
# second thread saves less than the job's start-up and only keeps another job from the
# core. A search: its queries times its index's bytes (1,000 queries over a 10 MB index,
# about a 40,000-document BM25 corpus; SciFact's 300 queries over 3.4 MB search slower
# on two threads: benchmarks/RESULTS.md). An encoding: its texts times the model files'
# bytes (23 texts of a BERT-base SPLADE, 565 of the 18 MB splade-tiny, whose job's time
# is its imports of torch and transformers).
SHARED_WORK = 10 * 10**9
SEARCH_THREADS = 2


def encode_gpus(hardware: str) -> int:
    """GPUs an encode job asks for: one for a neural encoder that may use one (the
    `hardware` of its encoding: lexical, cpu or gpu; sparsebench.kinds)."""
    return int(hardware == "gpu")


def encode_memory_mb(hardware: str, shard_size: int) -> int:
    """Memory of one encode job over a shard of `shard_size` documents."""
    return int(ENCODE_BASE_MB[hardware] + ENCODE_MB_PER_DOC * shard_size)


def encode_runtime_min(hardware: str, shard_size: int) -> int:
    """Wall-time limit of one encode job, in minutes."""
    seconds = shard_size / ENCODE_DOCS_PER_SECOND[hardware]
    return max(MIN_RUNTIME_MIN, math.ceil(seconds / 60))


def retrieve_memory_mb(postings_npz: str | Path, max_block_mb: float) -> int:
    """Memory of a retrieve job: the blocked index mapped from its file (its size once
    known, else nothing yet; compact, never copied whole: retrieve.postings), the ids and
    tie keys beside it, the touched postings widened and the score blocks of a query
    batch (retrieval.max_block_mb), and the interpreter."""
    path = Path(postings_npz)
    index_mb = path.stat().st_size / 2**20 if path.exists() else 0
    return int(1.3 * index_mb + max_block_mb + 512)


def matrix_memory_mb(npz_paths: list[str | Path]) -> int:
    """Memory of a job that holds a corpus's (or a partition's) matrix: stacking the
    shards, weighing the stacked matrix, a partition's statistics and postings. The
    matrices are uncompressed CSR files, their size on disk their size in memory; the
    job holds one copy (quantisation, column totals and the postings work in place or a
    chunk or block at a time: search.postings_build.save_postings), plus room for that
    chunk, one shard and the interpreter. Measured at MS MARCO's scale
    (benchmarks/RESULTS.md): stacking 7.9 GiB of shards peaked at 8.9 GiB, weighing
    the stacked 7.9 GiB at 8.5 GiB. Before the files exist, the interpreter only."""
    matrices_mb = sum(Path(p).stat().st_size for p in npz_paths if Path(p).exists()) / 2**20
    return int(1.15 * matrices_mb + 1024)


def search_threads(query_ids: str | Path, postings_npz: str | Path) -> int:
    """Threads of a retrieve job: SEARCH_THREADS for a large search, else 1. Read from
    its inputs once they exist (Snakemake evaluates a ready job's threads again); before,
    SEARCH_THREADS."""
    queries, postings = Path(query_ids), Path(postings_npz)
    if not (queries.exists() and postings.exists()):
        return SEARCH_THREADS
    n_queries = queries.read_bytes().count(b"\n")  # a query id a line: a few MB at most
    return _shared(SEARCH_THREADS, n_queries, postings.stat().st_size)


def encode_threads(most: int, texts: int | None, model_files: Sequence[str | Path]) -> int:
    """Threads of an encode job: `most` (the encoding's) for a large one, else 1; `most`
    while the texts' count (None) or the model's size (a hub model's, none local) is not
    known (Snakemake evaluates a ready job's threads again)."""
    if most <= 1 or texts is None or not model_files:
        return most
    weights = sum(Path(f).stat().st_size for f in model_files if Path(f).exists())
    return _shared(most, texts, weights)


def _shared(most: int, items: int, item_bytes: int) -> int:
    """`most` threads for work of at least SHARED_WORK, else 1."""
    return most if items * item_bytes >= SHARED_WORK else 1


def shard_documents(corpus_json: str | Path, shard: int, shard_size: int) -> int | None:
    """The documents of a corpus's shard, from its corpus.json (None before it exists)."""
    path = Path(corpus_json)
    if not path.exists():
        return None
    n_docs = int(json.loads(path.read_text(encoding="utf-8"))["n_docs"])
    return max(0, min(shard_size, n_docs - shard * shard_size))


def judged_queries(dataset_json: str | Path, queryset: str) -> int | None:
    """The queries a dataset's query set encodes (its judged ones, or its training
    split's), from its dataset.json (None before it exists)."""
    path = Path(dataset_json)
    if not path.exists():
        return None
    summary = json.loads(path.read_text(encoding="utf-8"))
    return int(summary["n_tuning_queries" if queryset == "tuning" else "n_judged_queries"])
