"""Read a BEIR-format collection into the pipeline's canonical files, checking it.

Outputs: corpus.parquet (doc_id, text), queries.parquet (query_id, text), qrels.tsv
(query-id, corpus-id, score) and dataset.json (counts, checksums, warnings). Ids are
strings end to end; a document's text is (title + " " + text).strip(), as BEIR builds
it. The corpus is streamed in blocks, so memory follows the block size plus the id
column, not the corpus text.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj
import pyarrow.parquet as pq
from tqdm.utils import CallbackIOWrapper

from sparsebench.data.collection import FolderSource, ZipSource
from sparsebench.data.textfiles import NotUtf8, Utf8Reader, first_bad, first_bad_line, read_fields
from sparsebench.errors import DataError
from sparsebench.fileio import atomic_path, file_digest, write_json
from sparsebench.workflow.logs import progress

log = logging.getLogger(__name__)

CORPUS_SCHEMA = pa.schema([("doc_id", pa.string()), ("text", pa.string())])
QUERIES_SCHEMA = pa.schema([("query_id", pa.string()), ("text", pa.string())])
ROW_GROUP_SIZE = 10_000
_JSON_BLOCK = 8 << 20
_SAMPLE = 5


class Source(Protocol):
    split: str

    def check(self) -> None: ...
    def open(self, member: str): ...
    def size(self, member: str) -> int: ...
    def fingerprint(self) -> dict[str, Any]: ...


def _json_batches(handle, fields: list[str], what: str) -> Iterator[pa.RecordBatch]:
    """Stream a JSON-lines member as record batches with the named string fields.

    Arrow parses the blocks; the bytes are checked for UTF-8 as they are read, and every
    record must have an `_id`. On any failure the file is read again, line by line, to
    name the first bad line and what is wrong with it (Arrow's own messages count rows
    from 0 within a block and skip blank lines, so they cannot name a line).
    """
    schema = pa.schema([(f, pa.string()) for f in fields])
    checked = Utf8Reader(handle)
    try:
        reader = pj.open_json(
            checked,
            read_options=pj.ReadOptions(block_size=_JSON_BLOCK),
            parse_options=pj.ParseOptions(
                explicit_schema=schema, unexpected_field_behavior="ignore"
            ),
        )
        for batch in reader:
            if batch.column("_id").null_count:
                checked.stop()
                raise _bad_line(handle, fields, what, f"{what}: a record has no `_id`")
            yield batch
    except NotUtf8 as exc:
        checked.stop()
        raise _bad_line(handle, fields, what, f"{what}: {exc}") from None
    except pa.ArrowInvalid as exc:
        checked.stop()
        message = str(exc)
        if "Empty JSON stream" in message:
            return
        raise _bad_line(
            handle, fields, what, f"{what}: not valid JSON lines with string fields: {message}"
        ) from None


def _bad_line(handle, fields: list[str], what: str, fallback: str) -> DataError:
    """The error naming the first bad line of a JSON-lines file (`fallback` when the
    stream cannot be read again, or no line is found wrong)."""
    found = first_bad_line(handle, lambda text: _json_line_problem(text, fields))
    if found is None:
        return DataError(fallback)
    return DataError(f"{what} line {found[0]}: {found[1]}")


def _json_kind(value: Any) -> str:
    for kind, name in ((dict, "object"), (list, "array"), (str, "string"), (bool, "boolean")):
        if isinstance(value, kind):
            return name
    return "null" if value is None else "number"


def _json_line_problem(text: str, fields: list[str]) -> str | None:
    """What is wrong with one line of a JSON-lines corpus or queries file, or None.
    Blank lines are allowed (and skipped), as Arrow skips them."""
    if not text.strip(" \t\r\n"):
        return None
    try:
        record = json.loads(text.rstrip("\r\n"))  # a line ending inside a string is cut short
    except json.JSONDecodeError as exc:
        what = exc.msg.removesuffix(" at").lower()
        problem = f"malformed JSON ({what} at column {exc.colno})"
        if not text.endswith("\n"):
            problem += "; the file ends in this line: was it cut short?"
        return problem
    if not isinstance(record, dict):
        return f"a JSON {_json_kind(record)}, not an object with `_id` and text fields"
    for field in fields:
        value = record.get(field)
        if value is None or isinstance(value, str):
            continue
        if field == "_id" and _json_kind(value) == "number":
            return (
                f"`_id` {value!r} is a JSON number, not a string. Ids must be strings end to "
                "end, since '0123' and 123 never match; quote the ids in the file."
            )
        return f"`{field}` is a JSON {_json_kind(value)}, not a string"
    if record.get("_id") is None:
        return "the record has no `_id`"
    return None


def _tsv_batches(handle, fields: list[str], what: str) -> Iterator[pa.RecordBatch]:
    """Stream a TSV member (id, text) or (id, title, text), no header, as record batches
    with the named fields."""
    import pyarrow.csv as pacsv

    checked = Utf8Reader(handle)
    try:
        reader = pacsv.open_csv(
            checked,
            read_options=pacsv.ReadOptions(autogenerate_column_names=True, block_size=_JSON_BLOCK),
            parse_options=pacsv.ParseOptions(delimiter="\t", quote_char=False),
            convert_options=pacsv.ConvertOptions(
                strings_can_be_null=False, column_types={f"f{i}": pa.string() for i in range(3)}
            ),
        )
        for batch in reader:
            columns = batch.columns
            if len(columns) not in (2, 3):
                raise DataError(
                    f"{what} line 1: a TSV line has 2 (id, text) or 3 (id, title, text) "
                    f"fields, found {len(columns)}"
                )
            values = {"_id": columns[0], "text": columns[-1]}
            if "title" in fields:
                values["title"] = (
                    columns[1] if len(columns) == 3 else pa.nulls(len(batch), pa.string())
                )
            yield pa.record_batch([values[f] for f in fields], names=fields)
    except (NotUtf8, pa.ArrowInvalid) as exc:
        checked.stop()
        if "Empty CSV file" in str(exc):
            return
        found = first_bad_line(handle, _TsvFieldCount())
        if found is not None:
            raise DataError(f"{what} line {found[0]}: {found[1]}") from None
        raise DataError(f"{what}: not a valid TSV file: {exc}") from None


class _TsvFieldCount:
    """Line check: every non-blank line has as many tab-separated fields as the first."""

    def __init__(self) -> None:
        self.expected: int | None = None

    def __call__(self, text: str) -> str | None:
        line = text.rstrip("\r\n")
        if not line:
            return None
        found = line.count("\t") + 1
        if self.expected is None:
            self.expected = found
        elif found != self.expected:
            return f"{found} tab-separated fields, where the first line has {self.expected}"
        return None


def _batches(source: Source, handle, member: str, fields: list[str]) -> Iterator[pa.RecordBatch]:
    """Record batches of a corpus or queries member, JSON lines or TSV."""
    tsv = getattr(source, "format", lambda m: "jsonl")(member) == "tsv"
    what = getattr(source, "label", lambda m: None)(member)
    what = what or (f"{member}.tsv" if tsv else f"{member}.jsonl")
    yield from (_tsv_batches if tsv else _json_batches)(handle, fields, what)


def _combine_text(batch: pa.RecordBatch, has_title: bool) -> pa.Array:
    text = pc.fill_null(batch.column("text"), "")
    if has_title:
        title = pc.fill_null(batch.column("title"), "")
        text = pc.binary_join_element_wise(title, text, " ")
    return pc.utf8_trim_whitespace(text)


def _check_ids(ids: pa.ChunkedArray, what: str) -> None:
    if ids.null_count:
        raise DataError(f"{what}: {ids.null_count} records have no `_id`")
    empty = pc.equal(pc.utf8_length(ids), 0)
    if pc.any(empty).as_py():
        raise DataError(f"{what}: {pc.sum(empty).as_py()} records have an empty `_id`")
    spaced = pc.match_substring_regex(ids, r"\s")
    if pc.any(spaced).as_py():
        example = pc.filter(ids, spaced)[0].as_py()
        raise DataError(
            f"{what}: id {example!r} contains whitespace, which TREC run and qrels files "
            "cannot hold"
        )
    if pc.count_distinct(ids).as_py() != len(ids):
        counts = pc.value_counts(ids)
        repeated = pc.filter(counts, pc.greater(counts.field("counts"), 1))
        examples = repeated.field("values")[:_SAMPLE].to_pylist()
        raise DataError(
            f"{what}: {len(repeated)} duplicate ids (e.g. {', '.join(map(repr, examples))}); "
            "every id must be unique"
        )


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
        yield _batches(source, counted, "corpus", ["_id", "title", "text"])


def _counted(batches: Iterator[pa.RecordBatch], bar) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        bar.update(batch.num_rows)
        yield batch


def write_corpus(source: Source, out_path: str | Path) -> dict[str, Any]:
    """Stream the corpus into Parquet; return its counts."""
    ids: list[pa.Array] = []
    lengths: list[pa.Array] = []
    with corpus_batches(source) as batches, atomic_path(out_path) as tmp:
        writer = pq.ParquetWriter(tmp, CORPUS_SCHEMA)
        try:
            for batch in batches:
                text = _combine_text(batch, has_title=True)
                table = pa.table(
                    {"doc_id": batch.column("_id"), "text": text}, schema=CORPUS_SCHEMA
                )
                writer.write_table(table, row_group_size=ROW_GROUP_SIZE)
                ids.append(batch.column("_id"))
                lengths.append(pc.utf8_length(text))
        finally:
            writer.close()
        doc_ids = pa.chunked_array(ids, type=pa.string())
        if len(doc_ids) == 0:
            raise DataError("the corpus holds no documents")
        _check_ids(doc_ids, "corpus")
    empty = _warn_empty(doc_ids, pa.chunked_array(lengths, type=pa.int32()), "corpus")
    return {"n_docs": len(doc_ids), "n_empty_docs": len(empty), "empty_doc_ids": empty[:100]}


def read_queries_and_qrels(source: Source) -> tuple[pa.Table, pd.DataFrame]:
    if hasattr(source, "queries_and_qrels"):
        queries, qrels = source.queries_and_qrels()
        _check_ids(queries.column("query_id"), "queries")
        return queries.cast(QUERIES_SCHEMA), qrels
    with source.open("qrels") as handle:
        what = getattr(source, "label", lambda m: None)("qrels") or f"qrels/{source.split}.tsv"
        qrels = parse_qrels(handle, what=what)
    return read_queries(source), qrels


def read_queries(source: Source) -> pa.Table:
    with source.open("queries") as handle:
        batches = list(_batches(source, handle, "queries", ["_id", "text"]))
    ids = pa.chunked_array([b.column("_id") for b in batches], type=pa.string())
    text = pa.chunked_array([_combine_text(b, has_title=False) for b in batches], type=pa.string())
    if len(ids) == 0:
        raise DataError("queries.jsonl holds no queries")
    _check_ids(ids, "queries.jsonl")
    return pa.table({"query_id": ids, "text": text}, schema=QUERIES_SCHEMA)


def parse_qrels(source, what: str = "qrels") -> pd.DataFrame:
    """Read BEIR TSV qrels (query-id, corpus-id, score; header optional) or TREC qrels
    (query-id, iteration, doc-id, grade) into a frame of string ids and integer grades.
    Identical duplicate lines collapse; conflicting grades for one pair are an error."""
    frame, lines = read_fields(source, what)
    if frame.shape[1] == 4:
        frame = frame[[0, 2, 3]]
    elif frame.shape[1] != 3:
        raise DataError(
            f"{what}: line {lines[0]} has {frame.shape[1]} fields; qrels lines have 3 "
            "(query-id corpus-id score) or 4 (TREC: query-id iteration doc-id grade)"
        )
    frame.columns = ["query_id", "doc_id", "grade"]
    if not _is_int(frame["grade"].iloc[0]):  # a header line
        frame, lines = frame.iloc[1:].reset_index(drop=True), lines[1:]
    if frame.empty:
        raise DataError(f"{what}: no judgments")
    grades = pd.to_numeric(frame["grade"], errors="coerce")
    bad = first_bad(grades.isna() | (grades != grades.round()))
    if bad is not None:
        raise DataError(
            f"{what}: line {lines[bad]}: grade {frame['grade'][bad]!r} is not an integer"
        )
    frame = frame.assign(grade=grades.astype(np.int64))
    pairs = frame.drop_duplicates()
    conflicts = pairs.duplicated(["query_id", "doc_id"], keep=False)
    if conflicts.any():
        row = pairs[conflicts].iloc[0]
        raise DataError(
            f"{what}: ({row.query_id}, {row.doc_id}) is judged more than once with different grades"
        )
    if len(pairs) != len(frame):
        log.warning("%s: %d repeated judgment lines collapsed", what, len(frame) - len(pairs))
    return pairs.reset_index(drop=True)


def _is_int(value: str) -> bool:
    try:
        int(value)
    except (TypeError, ValueError):
        return False
    return True


def _unknown(values: pd.Series, known: pa.ChunkedArray | pa.Array) -> list[str]:
    distinct = pa.array(values.unique().astype(object), type=pa.string())
    missing = pc.invert(pc.is_in(distinct, value_set=known))
    return pc.filter(distinct, missing).to_pylist()


def check_qrels(qrels: pd.DataFrame, query_ids: pa.ChunkedArray, doc_ids: pa.ChunkedArray) -> None:
    """Every judged query and document must exist, or ids are being written differently."""
    for column, known, where in (
        ("query_id", query_ids, "queries.jsonl"),
        ("doc_id", doc_ids, "corpus.jsonl"),
    ):
        missing = _unknown(qrels[column], known)
        if missing:
            raise DataError(
                f"qrels name {len(missing)} {column.split('_')[0]} ids that are not in {where} "
                f"(e.g. {', '.join(map(repr, missing[:_SAMPLE]))}); the qrels belong to another "
                "collection or ids are written differently"
            )


def write_qrels(path: str | Path, qrels: pd.DataFrame) -> None:
    """Normalised qrels: BEIR TSV with header, sorted by query then document id."""
    ordered = qrels.sort_values(["query_id", "doc_id"], kind="stable")
    with atomic_path(path) as tmp:
        ordered.rename(
            columns={"query_id": "query-id", "doc_id": "corpus-id", "grade": "score"}
        ).to_csv(tmp, sep="\t", index=False, lineterminator="\n")


def read_qrels(path: str | Path) -> pd.DataFrame:
    """Read qrels (normalised, BEIR or TREC format) as query_id, doc_id, grade."""
    with open(path, "rb") as handle:
        return parse_qrels(handle, what=str(path))


def prepare_dataset(
    source: Source, out_dir: str | Path, name: str, settings: dict[str, Any]
) -> dict[str, Any]:
    """Write the canonical files of one dataset into out_dir and return its summary."""
    out_dir = Path(out_dir)
    source.check()
    log.info("preparing %s from %s (split %s)", name, source.fingerprint()["path"], source.split)
    corpus = write_corpus(source, out_dir / "corpus.parquet")
    queries, qrels = read_queries_and_qrels(source)
    doc_ids = pq.read_table(out_dir / "corpus.parquet", columns=["doc_id"]).column("doc_id")
    check_qrels(qrels, queries.column("query_id"), doc_ids)
    queries, tuning_qrels, tuning_split = _tuning_judgments(
        source, settings.get("tuning_split", "auto"), queries, qrels, doc_ids
    )
    if settings.get("subsample"):
        corpus["subsample"] = subsample_corpus(
            out_dir / "corpus.parquet", doc_ids, qrels, **settings["subsample"]
        )
        corpus["n_docs"] = corpus["subsample"]["documents"]
    empty_queries = _warn_empty(
        queries.column("query_id"), pc.utf8_length(queries.column("text")), "queries.jsonl"
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
        **corpus,
        "n_queries": queries.num_rows,
        "n_judged_queries": int(len(judged)),
        "n_judged_queries_without_relevant": int((judged <= 0).sum()),
        "n_qrels": int(len(qrels)),
        "grades": {str(g): int(c) for g, c in sorted(qrels["grade"].value_counts().items())},
        "tuning_split": tuning_split,
        "n_tuning_queries": int(tuning_qrels["query_id"].nunique()),
        "n_empty_queries": len(empty_queries),
        "empty_query_ids": empty_queries[:100],
        "files": {
            f: file_digest(out_dir / f) for f in ("corpus.parquet", "queries.parquet", "qrels.tsv")
        },
    }
    log.info(
        "%s: %d documents, %d queries (%d judged), %d judgments, grades %s",
        name,
        summary["n_docs"],
        summary["n_queries"],
        summary["n_judged_queries"],
        summary["n_qrels"],
        summary["grades"],
    )
    write_json(out_dir / "dataset.json", summary)
    return summary


TUNING_SPLITS = ("train", "dev")  # looked for, in this order, by tuning_split: auto


def _tuning_source(source: Source, tuning_split: str) -> Source | None:
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
) -> tuple[pa.Table, pd.DataFrame, str | None]:
    """(every query, the training split's judgments, its name or None): the queries of a
    training split are added to the evaluated ones, its judgments checked like theirs."""
    tuning = _tuning_source(source, tuning_split)
    if tuning is None:
        return queries, qrels.iloc[:0], None
    try:
        tuning_queries, tuning_qrels = read_queries_and_qrels(tuning)
        every_query = _union_queries(queries, tuning_queries)
        check_qrels(tuning_qrels, every_query.column("query_id"), doc_ids)
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
    path: str | Path, doc_ids: pa.ChunkedArray, qrels: pd.DataFrame, documents: int, seed: int = 0
) -> dict[str, Any]:
    """Keep every judged document and random others (seeded) up to `documents` in all;
    the Parquet file is rewritten one row group at a time."""
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
    with atomic_path(path) as tmp:
        writer = pq.ParquetWriter(tmp, CORPUS_SCHEMA)
        offset = 0
        for group in range(parquet.num_row_groups):
            table = parquet.read_row_group(group)
            mask = keep[offset : offset + table.num_rows]
            offset += table.num_rows
            writer.write_table(table.filter(pa.array(mask)), row_group_size=ROW_GROUP_SIZE)
        writer.close()
    return {"documents": kept, "of": len(keep), "judged": n_judged, "seed": seed}


def read_corpus_slice(
    path: str | Path, start: int, stop: int, columns: list[str] | None = None
) -> pa.Table:
    """Rows [start, stop) of corpus.parquet (only `columns`, default all), reading only
    the row groups that hold them."""
    parquet = pq.ParquetFile(path)
    tables, offset = [], 0
    for group in range(parquet.num_row_groups):
        rows = parquet.metadata.row_group(group).num_rows
        if offset + rows > start and offset < stop:
            table = parquet.read_row_group(group, columns=columns)
            lo, hi = max(start - offset, 0), min(stop - offset, rows)
            tables.append(table.slice(lo, hi - lo))
        offset += rows
        if offset >= stop:
            break
    if not tables:
        empty = CORPUS_SCHEMA.empty_table()
        return empty if columns is None else empty.select(columns)
    return pa.concat_tables(tables)
