"""Read a collection into the pipeline's canonical files, checking it.

A corpus: corpus.parquet (doc_id, title, body: the record's fields as read, title null
where the source has none) and corpus.json (counts, checksums, warnings), streamed in
blocks, so memory follows the block size plus the id column, not the corpus text. A
dataset: queries.parquet (query_id, text), qrels.tsv (query-id, corpus-id, score) and
dataset.json, its judgments checked against the documents of its corpus. Ids are strings
end to end; a document's text is (title + " " + body).strip(), as BEIR builds it
(corpusfile.read_corpus_slice adds it); multifield models read the fields apart.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from tqdm.utils import CallbackIOWrapper

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path, file_digest, write_json
from sparsebench.core.progress import progress
from sparsebench.data.collection import FolderSource, ZipSource
from sparsebench.data.corpusfile import CORPUS_SCHEMA
from sparsebench.data.expansions import expanded_batches
from sparsebench.data.ids import check_ids, member_label
from sparsebench.data.qrels import check_qrels, parse_qrels, write_qrels
from sparsebench.data.records import Source, combine_text, record_batches

log = logging.getLogger(__name__)

QUERIES_SCHEMA = pa.schema([("query_id", pa.string()), ("text", pa.string())])
ROW_GROUP_SIZE = 10_000
_SAMPLE = 5


def _warn_empty(ids: pa.ChunkedArray, lengths: pa.ChunkedArray, what: str) -> list[str]:
    empty = pc.equal(lengths, 0)
    empty_ids = pc.filter(ids, empty).to_pylist()
    if empty_ids:
        log.warning(
            "%s: %d records have empty text (e.g. %s); they are kept but cannot be retrieved",
            what,
            len(empty_ids),
            ", ".join(map(repr, empty_ids[:_SAMPLE])),
        )
    return empty_ids


@contextlib.contextmanager
def corpus_batches(source: Source) -> Iterator[Iterator[pa.RecordBatch]]:
    """The corpus as record batches (_id, title, text), from files or a hub source, with
    progress in the log: bytes read of a file (rate and ETA), documents of a hub stream."""
    if hasattr(source, "corpus_batches"):
        with progress(None, "reading corpus", unit="doc", scale=True) as bar:
            yield _counted(source.corpus_batches(), bar)
        return
    with (
        source.open("corpus") as handle,
        progress(source.size("corpus"), "reading corpus", unit="B", scale=True) as bar,
    ):
        counted = CallbackIOWrapper(bar.update, handle, "read")
        yield record_batches(source, counted, "corpus", ["_id", "title", "text"])


def _counted(batches: Iterator[pa.RecordBatch], bar) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        bar.update(batch.num_rows)
        yield batch


def write_corpus(
    source: Source, out_path: str | Path, expansions: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Stream the corpus into Parquet, each text with its `expansions` appended when
    given (sparsebench.data.expansions); return its counts."""
    ids: list[pa.Array] = []
    lengths: list[pa.Array] = []
    with corpus_batches(source) as batches, atomic_path(out_path) as tmp:
        writer = pq.ParquetWriter(tmp, CORPUS_SCHEMA)
        try:
            for batch in expanded_batches(batches, expansions):
                fields = [batch.column(name) for name in ("_id", "title", "text")]
                table = pa.Table.from_arrays(fields, schema=CORPUS_SCHEMA)
                writer.write_table(table, row_group_size=ROW_GROUP_SIZE)
                ids.append(batch.column("_id"))
                lengths.append(pc.utf8_length(combine_text(batch, has_title=True)))
        finally:
            writer.close()
        doc_ids = pa.chunked_array(ids, type=pa.string())
        if len(doc_ids) == 0:
            raise DataError("the corpus holds no documents")
        check_ids(doc_ids, member_label(source, "corpus"), source, "corpus")
    empty = _warn_empty(doc_ids, pa.chunked_array(lengths, type=pa.int32()), "corpus")
    return {"n_docs": len(doc_ids), "n_empty_docs": len(empty), "empty_doc_ids": empty[:100]}


def read_queries_and_qrels(source: Source) -> tuple[pa.Table, pd.DataFrame]:
    if hasattr(source, "queries_and_qrels"):
        queries, qrels = source.queries_and_qrels()
        check_ids(queries.column("query_id"), "queries")
        return queries.cast(QUERIES_SCHEMA), qrels
    return read_queries(source), read_source_qrels(source)


def read_source_qrels(source: Source) -> pd.DataFrame:
    """The judgments of a source that opens its qrels file as a stream."""
    with source.open("qrels") as handle:
        what = getattr(source, "label", lambda m: None)("qrels") or f"qrels/{source.split}.tsv"
        return parse_qrels(handle, what=what)


def read_queries(source: Source) -> pa.Table:
    with source.open("queries") as handle:
        batches = list(record_batches(source, handle, "queries", ["_id", "text"]))
    ids = pa.chunked_array([b.column("_id") for b in batches], type=pa.string())
    text = pa.chunked_array([combine_text(b, has_title=False) for b in batches], type=pa.string())
    if len(ids) == 0:
        raise DataError("queries.jsonl holds no queries")
    check_ids(ids, member_label(source, "queries"), source, "queries")
    return pa.table({"query_id": ids, "text": text}, schema=QUERIES_SCHEMA)


def write_corpus_files(
    source: Source | None,
    out_dir: str | Path,
    name: str,
    identity: dict[str, Any],
    sample: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """corpus.parquet from `source` (unless a subsample wrote it: `sample` is its record)
    and corpus.json; returns the summary."""
    out_dir = Path(out_dir)
    if source is not None:
        log.info(
            "preparing corpus %s from %s",
            name,
            source.label("corpus") if hasattr(source, "label") else source.fingerprint()["path"],
        )
        expansions = identity.get("expansions")
        counts = write_corpus(source, out_dir / "corpus.parquet", expansions)
        # what the documents alone are read from (a hub reader also knows its topics)
        origin = getattr(source, "corpus_fingerprint", source.fingerprint)()
        if expansions:  # the expansions file read, by its checksum
            origin = {**origin, "expansions": file_digest(expansions["path"])}
    else:
        counts, origin = {"n_docs": sample["documents"]}, None
    summary = {
        "name": name,
        "identity": identity,
        "source": origin,
        **counts,
        **({"subsample": sample} if sample else {}),
        "files": {"corpus.parquet": file_digest(out_dir / "corpus.parquet")},
    }
    log.info("corpus %s: %d documents", name, summary["n_docs"])
    write_json(out_dir / "corpus.json", summary)
    return summary


def prepare_dataset(
    source: Source,
    out_dir: str | Path,
    name: str,
    settings: dict[str, Any],
    documents: str | Path,
    corpus: str,
) -> dict[str, Any]:
    """Write the canonical queries and judgments of one dataset into out_dir, judgments
    checked against `documents` (the corpus.parquet of its corpus, named `corpus`), and
    return its summary."""
    out_dir = Path(out_dir)
    source.check()
    log.info("preparing %s from %s (split %s)", name, source.fingerprint()["path"], source.split)
    queries, qrels = read_queries_and_qrels(source)
    doc_ids = pq.read_table(documents, columns=["doc_id"]).column("doc_id")
    unknown_documents = settings.get("unknown_judged_documents", "error")
    qrels, unknown = check_qrels(qrels, queries.column("query_id"), doc_ids, unknown_documents)
    queries, tuning_qrels, tuning_split = _tuning_judgments(
        source, settings.get("tuning_split", "auto"), queries, qrels, doc_ids, unknown_documents
    )
    queries_file = member_label(source, "queries")
    empty_queries = _warn_empty(
        queries.column("query_id"), pc.utf8_length(queries.column("text")), queries_file
    )
    if len(empty_queries) == queries.num_rows:
        raise DataError(
            f"{queries_file}: every query's text is empty (e.g. {empty_queries[0]!r}); "
            "nothing could be retrieved. Is the text in another field or column?"
        )
    with atomic_path(out_dir / "queries.parquet") as tmp:
        pq.write_table(queries, tmp)
    write_qrels(out_dir / "qrels.tsv", qrels)
    write_qrels(out_dir / "qrels.tuning.tsv", tuning_qrels)

    judged = qrels.groupby("query_id")["grade"].max()
    summary = {
        "name": name,
        "split": source.split,
        "settings": settings,
        "source": source.fingerprint(),
        "corpus": corpus,
        "n_queries": queries.num_rows,
        "n_judged_queries": int(len(judged)),
        "n_judged_queries_without_relevant": int((judged <= 0).sum()),
        "n_qrels": int(len(qrels)),
        "unknown_judged_documents": unknown_documents,
        "n_unknown_judged_documents": len(unknown),  # kept or dropped, as the line above
        "unknown_judged_document_ids": unknown[:100],
        "grades": {str(g): int(c) for g, c in sorted(qrels["grade"].value_counts().items())},
        "tuning_split": tuning_split,
        "n_tuning_queries": int(tuning_qrels["query_id"].nunique()),
        "n_empty_queries": len(empty_queries),
        "empty_query_ids": empty_queries[:100],
        "files": {f: file_digest(out_dir / f) for f in ("queries.parquet", "qrels.tsv")},
    }
    log.info(
        "%s: %d queries (%d judged), %d judgments, grades %s, over corpus %s",
        name,
        summary["n_queries"],
        summary["n_judged_queries"],
        summary["n_qrels"],
        summary["grades"],
        corpus,
    )
    write_json(out_dir / "dataset.json", summary)
    return summary


TUNING_SPLITS = ("train", "dev")  # looked for, in this order, by tuning_split: auto


def tuning_source(source: Source, tuning_split: str) -> Source | None:
    """The same collection opened on its training split: the one named, or with `auto` the
    first of train and dev that a BEIR folder or archive has (other than the evaluated
    split); None for `none`."""
    if tuning_split == "none":
        return None
    if tuning_split != "auto":
        if tuning_split == source.split:
            raise DataError(f"tuning_split {tuning_split!r} is the evaluated split itself")
        named = dataclasses.replace(source, split=tuning_split)
        named.check()
        return named
    if not isinstance(source, FolderSource | ZipSource):
        return None
    for split in TUNING_SPLITS:
        if split != source.split:
            candidate = dataclasses.replace(source, split=split)
            try:
                candidate.check()
            except DataError:
                continue
            return candidate
    return None


def _tuning_judgments(
    source: Source,
    tuning_split: str,
    queries: pa.Table,
    qrels: pd.DataFrame,
    doc_ids: pa.ChunkedArray,
    unknown_documents: str,
) -> tuple[pa.Table, pd.DataFrame, str | None]:
    """(every query, the training split's judgments, its name or None): the queries of a
    training split are added to the evaluated ones, its judgments checked like theirs."""
    tuning = tuning_source(source, tuning_split)
    if tuning is None:
        return queries, qrels.iloc[:0], None
    try:
        tuning_queries, tuning_qrels = read_queries_and_qrels(tuning)
        every_query = _union_queries(queries, tuning_queries)
        tuning_qrels, _ = check_qrels(
            tuning_qrels, every_query.column("query_id"), doc_ids, unknown_documents
        )
    except DataError as error:
        if tuning_split != "auto":
            raise
        # a split found by looking is a convenience: a broken one must not stop a run that
        # may not tune at all; sweeps then cross-validate
        log.warning("training split %s left unused: %s", tuning.split, error)
        return queries, qrels.iloc[:0], None
    return every_query, _without_evaluated_queries(tuning_qrels, qrels, tuning.split), tuning.split


def _union_queries(queries: pa.Table, more: pa.Table) -> pa.Table:
    """queries, then the queries of `more` whose ids it lacks (splits may keep their topics
    in separate files, as MIRACL does)."""
    new = pc.invert(pc.is_in(more.column("query_id"), value_set=queries.column("query_id")))
    return pa.concat_tables([queries, more.filter(new).cast(queries.schema)])


def _without_evaluated_queries(tuning: pd.DataFrame, evaluated: pd.DataFrame, split: str):
    """Training judgments of queries that are not evaluated: a query in both splits would
    be tuned on and then scored."""
    shared = tuning["query_id"].isin(set(evaluated["query_id"]))
    if shared.any():
        log.warning(
            "%d queries of split %s are also evaluated; they are left out of tuning",
            tuning.loc[shared, "query_id"].nunique(),
            split,
        )
    return tuning[~shared]


def subsample_corpus(
    path: str | Path,
    out_path: str | Path,
    qrels: pd.DataFrame,
    documents: int,
    seed: int = 0,
) -> dict[str, Any]:
    """Keep every judged document of the corpus at `path` and random others (seeded) up
    to `documents` in all, into out_path, one row group at a time."""
    doc_ids = pq.read_table(path, columns=["doc_id"]).column("doc_id")
    judged = pc.is_in(
        doc_ids, value_set=pa.array(qrels["doc_id"].unique().astype(object), type=pa.string())
    )
    keep = judged.to_numpy(zero_copy_only=False).copy()
    n_judged = int(keep.sum())
    extra = max(documents - n_judged, 0)
    others = np.nonzero(~keep)[0]
    if extra < len(others):
        priority = np.random.default_rng(seed).random(len(others))
        others = others[np.argpartition(priority, extra)[:extra]] if extra else others[:0]
    keep[others] = True
    kept = int(keep.sum())
    log.warning(
        "SUBSAMPLE: keeping %d of %d documents (all %d judged ones, seed %d); retrieval on a "
        "subsample is easier than on the full corpus and its scores are not comparable",
        kept,
        len(keep),
        n_judged,
        seed,
    )
    parquet = pq.ParquetFile(path)
    with atomic_path(out_path) as tmp:
        writer = pq.ParquetWriter(tmp, CORPUS_SCHEMA)
        offset = 0
        for group in range(parquet.num_row_groups):
            table = parquet.read_row_group(group)
            mask = keep[offset : offset + table.num_rows]
            offset += table.num_rows
            writer.write_table(table.filter(pa.array(mask)), row_group_size=ROW_GROUP_SIZE)
        writer.close()
    return {"documents": kept, "of": len(keep), "judged": n_judged, "seed": seed}
