"""Retrieval over a corpus split into partitions, each its own job: no job holds the
whole corpus, and the merged run is byte for byte the single-job run.

A partition is a run of consecutive encoding shards. The DAG per (model x dataset):

    vocabulary (the union of the shards' terms, as the single job stacks them)
    partition_statistics (xP) -> global_statistics (df, N, total length: sums; the IDF)
    partition_postings (xP: document weights with the global statistics)
    retrieve_partition (xP: the top k of the partition) -> merge_runs (the top k of all)

Why the merge is exact: a score depends only on the query, the document's weights and
the global statistics, never on the other documents of its job, and is defined
independently of summation order (sparsebench.search.exactscores), so each partition computes
the very float32 the single job would. A run orders a query's documents by score, then
document id descending (trec_eval's order), a total order: the k first of the union of
each partition's k first are the k first of the whole corpus, ties at the k-th score
included.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path, read_lines, save_array, write_json, write_lines
from sparsebench.data.corpusfile import read_corpus_slice
from sparsebench.encode.sparse import LabelledCSR, stack_npz_files, union_vocabulary
from sparsebench.encode.statistics import CorpusStatistics
from sparsebench.encode.weighting import Weighting
from sparsebench.retrieve import costs
from sparsebench.runs.runfile import format_run_lines
from sparsebench.search.postings_build import save_postings

log = logging.getLogger(__name__)
_QUERY_BLOCK = 1000  # queries merged at a time: memory follows partitions x block x k


def write_vocabulary(shard_terms: Sequence[str | Path], out_vocab: str | Path) -> None:
    """The corpus vocabulary from the shards' term lists alone (no weights read): the
    one the single job's stacked matrix has."""
    union = union_vocabulary([pa.array(read_lines(t), type=pa.string()) for t in shard_terms])
    write_lines(out_vocab, union.to_pylist())
    log.info("vocabulary of %d shards: %d terms", len(shard_terms), len(union))


def partition_matrix(
    shard_npzs: Sequence[str | Path], shard_terms: Sequence[str | Path], vocab: str | Path
) -> LabelledCSR:
    """The documents of a partition's shards over the whole corpus's vocabulary."""
    vocabulary = pa.array(read_lines(vocab), type=pa.string())
    terms = [pa.array(read_lines(t), type=pa.string()) for t in shard_terms]
    return stack_npz_files([str(p) for p in shard_npzs], terms, vocabulary)


def save_statistics(path: str | Path, statistics: CorpusStatistics) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        fields = {}
        if statistics.column_fields is not None:  # a multifield model's, per field
            fields = {
                "column_fields": statistics.column_fields,
                "field_docs": statistics.field_docs,
                "field_lengths": statistics.field_lengths,
            }
        np.savez(
            handle,
            n_docs=np.int64(statistics.n_docs),
            total_length=np.float64(statistics.total_length),
            df=statistics.df,
            cf=statistics.cf,
            **fields,
        )


def load_statistics(path: str | Path) -> CorpusStatistics:
    with np.load(path) as archive:
        fielded = "column_fields" in archive.files
        return CorpusStatistics(
            int(archive["n_docs"]),
            float(archive["total_length"]),
            archive["df"].astype(np.int64),
            archive["cf"].astype(np.float64),
            *(
                (archive["column_fields"], archive["field_docs"], archive["field_lengths"])
                if fielded
                else ()
            ),
        )


def summed_statistics(paths: Sequence[str | Path]) -> CorpusStatistics:
    """The corpus's statistics: the sum of its partitions'."""
    parts = [load_statistics(p) for p in paths]
    sizes = {len(p.df) for p in parts}
    if len(sizes) != 1:
        raise DataError(f"partition statistics over different vocabularies ({sorted(sizes)})")
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def partition_doc_ids(corpus: str | Path, rows: range) -> pa.Array:
    """The document ids of corpus rows `rows` (reading only their row groups, and only
    the ids)."""
    ids = read_corpus_slice(corpus, rows.start, rows.stop, ["doc_id"]).column("doc_id")
    if len(ids) != len(rows):
        raise DataError(f"{corpus} has no rows {rows.start}..{rows.stop - 1}")
    return ids.combine_chunks()


# --- merging the partitions' runs --------------------------------------------------------


def _run_batches(path: str | Path) -> Iterator[pd.DataFrame]:
    """A run file in record batches (query id, doc id, score as float32), streamed."""
    names = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
    types = {"query_id": pa.string(), "doc_id": pa.string(), "score": pa.float64()}
    reader = pacsv.open_csv(
        path,
        read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 24),
        parse_options=pacsv.ParseOptions(delimiter=" "),
        convert_options=pacsv.ConvertOptions(
            column_types=types, include_columns=["query_id", "doc_id", "score"]
        ),
    )
    for batch in reader:
        frame = batch.to_pandas()
        # 9 significant digits name one float32; via float64 they round back to it
        frame["score"] = frame["score"].to_numpy().astype(np.float32)
        yield frame


class _RunStream:
    """One partition's run, handed out query block by query block (its queries come in
    the order of the shared query list)."""

    def __init__(self, path: str | Path, position: dict[str, int]) -> None:
        self.path, self.position = path, position
        self.batches = _run_batches(path)
        self.pending = pd.DataFrame(columns=["query_id", "doc_id", "score", "pos"])
        self.done = False

    def take_until(self, end: int) -> pd.DataFrame:
        """The rows of queries at positions < end."""
        while not self.done and (self.pending.empty or self.pending["pos"].iloc[-1] < end):
            batch = next(self.batches, None)
            if batch is None:
                self.done = True
                break
            pos = batch["query_id"].map(self.position)
            if pos.isna().any():
                unknown = batch["query_id"][pos.isna()].iloc[0]
                raise DataError(f"{self.path}: query {unknown!r} is not an encoded query")
            batch["pos"] = pos.astype(np.int64)
            self.pending = batch if self.pending.empty else pd.concat([self.pending, batch])
        cut = int(np.searchsorted(self.pending["pos"].to_numpy(), end))
        taken, self.pending = self.pending.iloc[:cut], self.pending.iloc[cut:]
        return taken


def merge_runs(
    parts: Sequence[str | Path],
    query_ids_path: str | Path,
    out_run: str | Path,
    k: int,
    tag: str,
    part_costs: Sequence[str | Path] = (),
    out_cost: str | Path | None = None,
) -> int:
    """The run of the whole corpus from its partitions' runs: per query, the k first of
    their union by score, then document id descending; and (to `out_cost`) the cost of
    the whole search from the partitions' records. Returns the number of lines."""
    if out_cost is not None:
        costs.combine_files(list(part_costs), out_cost)
    query_ids = np.array(read_lines(query_ids_path), dtype=object)
    query_ids = query_ids[np.argsort(query_ids, kind="stable")]  # the order runs are in
    position = {q: i for i, q in enumerate(query_ids)}
    streams = [_RunStream(p, position) for p in parts]
    written = 0
    with atomic_path(out_run) as tmp, open(tmp, "wb") as handle:
        for end in range(_QUERY_BLOCK, len(query_ids) + _QUERY_BLOCK, _QUERY_BLOCK):
            frames = [s.take_until(end) for s in streams]
            block = pd.concat([f for f in frames if not f.empty] or frames[:1])
            if block.empty:
                continue
            # by query, then score down, then document id down in byte order (trec_eval)
            order = pa.table(
                {
                    "pos": block["pos"].to_numpy(),
                    "score": block["score"].to_numpy(dtype=np.float32),
                    "doc_id": pa.array(block["doc_id"], pa.string()),
                }
            ).sort_by([("pos", "ascending"), ("score", "descending"), ("doc_id", "descending")])
            pos = order.column("pos").to_numpy()
            scores = order.column("score").to_numpy()
            docs = np.asarray(order.column("doc_id").to_pylist(), dtype=object)
            starts = np.searchsorted(pos, pos, side="left")
            ranks = np.arange(len(pos)) - starts + 1
            top = ranks <= k
            handle.write(
                format_run_lines(query_ids[pos[top]], docs[top], ranks[top], scores[top], tag)
            )
            written += int(top.sum())
    log.info(
        "merged %d partition runs: %d lines for %d queries", len(parts), written, len(query_ids)
    )
    return written


# --- the stages (one Snakemake rule each) --------------------------------------------------


def partition_statistics(
    shard_npzs: Sequence[str | Path],
    shard_terms: Sequence[str | Path],
    vocab: str | Path,
    weighting: dict[str, Any],
    out_statistics: str | Path,
) -> CorpusStatistics:
    """The statistics of one partition's documents, as the model weighs them (pruned)."""
    recipe = Weighting.from_params(weighting)
    documents = partition_matrix(shard_npzs, shard_terms, vocab)
    matrix = recipe.prepared(documents.matrix)
    statistics = recipe.corpus_statistics(matrix, documents.terms)
    save_statistics(out_statistics, statistics)
    log.info(
        "partition of %d documents: N %d, %d postings",
        matrix.shape[0],
        statistics.n_docs,
        matrix.nnz,
    )
    return statistics


def global_statistics(
    partition_files: Sequence[str | Path],
    weighting: dict[str, Any],
    vocab: str | Path,
    out_statistics: str | Path,
    out_idf: str | Path,
    out_stats: str | Path,
) -> None:
    """The corpus's statistics (sums of the partitions') and the IDF every partition and
    the queries use."""
    recipe = Weighting.from_params(weighting)
    statistics = summed_statistics(partition_files)
    weights = recipe.term_idf(statistics, pa.array(read_lines(vocab), type=pa.string()))
    record = recipe.record(weighting, statistics, weights, int(statistics.df.sum()))
    record["partitions"] = len(partition_files)
    log.info("global statistics: %s", record)
    save_statistics(out_statistics, statistics)
    save_array(out_idf, weights)
    write_json(out_stats, record)


def partition_postings(
    shard_npzs: Sequence[str | Path],
    shard_terms: Sequence[str | Path],
    vocab: str | Path,
    corpus: str | Path,
    rows: range,
    weighting: dict[str, Any],
    statistics_path: str | Path,
    out_postings: str | Path,
    out_doc_ids: str | Path,
) -> None:
    """One partition's term-major document weights, normalised with the whole corpus's
    statistics, and its document ids."""
    recipe = Weighting.from_params(weighting)
    matrix = recipe.prepared(partition_matrix(shard_npzs, shard_terms, vocab).matrix)
    if matrix.shape[0] != len(rows):
        raise DataError(
            f"the partition's shards hold {matrix.shape[0]} documents, not the {len(rows)} "
            f"of corpus rows {rows.start}..{rows.stop - 1}"
        )
    statistics = load_statistics(statistics_path)
    ids = partition_doc_ids(corpus, rows)
    save_postings(
        out_postings,
        matrix,
        lambda part: recipe.document_weights(part, statistics),
        ids,
        packed=recipe.packed,
    )
    write_lines(out_doc_ids, ids.to_pylist())
