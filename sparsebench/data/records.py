"""The records of a corpus or queries file, JSON lines or TSV, streamed as Arrow batches.

Arrow parses the bytes; when it fails, the file is read again line by line to name the
first bad line (1-based, as an editor shows it) and what is wrong with it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj

from sparsebench.core.errors import DataError
from sparsebench.data.textfiles import NotUtf8, Utf8Reader, first_bad_line

log = logging.getLogger(__name__)


_JSON_BLOCK = 8 << 20


class Source(Protocol):
    split: str

    def check(self) -> None: ...
    def open(self, member: str): ...
    def size(self, member: str) -> int: ...
    def fingerprint(self) -> dict[str, Any]: ...


def json_batches(
    handle, fields: list[str], what: str, names: Mapping[str, str] | None = None
) -> Iterator[pa.RecordBatch]:
    """Stream a JSON-lines member as record batches with the named string fields.

    Arrow parses the blocks; the bytes are checked for UTF-8 as they are read, and every
    record must have its id (the first of `fields`, `_id`). On any failure the file is read
    again, line by line, to name the first bad line and what is wrong with it (Arrow's own
    messages count rows from 0 within a block and skip blank lines, so they cannot name a
    line).

    `names`: the file's own name of each field (Pyserini's `id` and `contents` for `_id`
    and `text`), read under the names of `fields`; a field it does not name is missing
    (null) in every record. Errors name the file's fields.
    """
    if names is not None:
        yield from _renamed_json_batches(handle, fields, what, names)
        return
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
            if batch.column(fields[0]).null_count:
                checked.stop()
                raise _bad_line(handle, fields, what, f"{what}: a record has no `{fields[0]}`")
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


def _renamed_json_batches(
    handle, fields: list[str], what: str, names: Mapping[str, str]
) -> Iterator[pa.RecordBatch]:
    """json_batches of the file's fields that `names` gives, renamed to `fields`."""
    read = list(dict.fromkeys(names[f] for f in fields if f in names))
    for batch in json_batches(handle, read, what):
        yield pa.record_batch(
            [
                batch.column(names[f]) if f in names else pa.nulls(batch.num_rows, pa.string())
                for f in fields
            ],
            names=fields,
        )


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
    """What is wrong with one line of a JSON-lines corpus or queries file (its id field
    first among `fields`), or None. Blank lines are allowed (and skipped), as Arrow skips
    them."""
    id_field = fields[0]
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
        return f"a JSON {_json_kind(record)}, not an object with `{id_field}` and text fields"
    for field in fields:
        value = record.get(field)
        if value is None or isinstance(value, str):
            continue
        if field == id_field and _json_kind(value) == "number":
            return (
                f"`{id_field}` {value!r} is a JSON number, not a string. Ids must be strings "
                "end to end, since '0123' and 123 never match; quote the ids in the file."
            )
        return f"`{field}` is a JSON {_json_kind(value)}, not a string"
    if record.get(id_field) is None:
        return f"the record has no `{id_field}`"
    return None


# A first line naming its columns: an id column, then only text columns.
_ID_HEADERS = {
    "id", "_id", "docid", "doc_id", "doc-id", "docno", "did", "pid", "passage_id", "qid",
    "query_id", "query-id", "queryid", "corpus-id", "corpus_id", "topic", "topic_id",
}  # fmt: skip
_TEXT_HEADERS = {
    "text", "title", "body", "contents", "content", "passage", "query", "question",
    "document", "doc", "abstract", "description", "narrative",
}  # fmt: skip


def _is_header(batch: pa.RecordBatch) -> bool:
    first = [column[0].as_py().strip().lower() for column in batch.columns]
    return first[0] in _ID_HEADERS and all(f in _TEXT_HEADERS for f in first[1:] if f)


class _TsvLayout:
    """What the first block of a TSV file shows, applied to every block: a header line to
    skip, and an empty last field on every line (an exporter's trailing tab) to drop."""

    def __init__(self, first: pa.RecordBatch, what: str) -> None:
        self.header = _is_header(first)
        rows = first.slice(1) if self.header else first
        last = rows.column(rows.num_columns - 1)
        self.trailing_tab = (
            rows.num_columns >= 3
            and rows.num_rows > 0
            and not pc.any(pc.greater(pc.utf8_length(last), 0)).as_py()
        )
        if self.header:
            names = [column[0].as_py() for column in first.columns]
            log.info("%s: line 1 (%s) is a header, not a record", what, " | ".join(names))
        if self.trailing_tab:
            log.warning("%s: every line ends with a tab; the empty last field is ignored", what)
        self.fields = first.num_columns - self.trailing_tab
        self._skip = int(self.header)  # rows still to skip: the header, in the first block

    def columns(self, batch: pa.RecordBatch) -> list[pa.Array]:
        batch, self._skip = batch.slice(self._skip), 0
        columns = list(batch.columns)
        if self.trailing_tab:
            if pc.any(pc.greater(pc.utf8_length(columns[-1]), 0)).as_py():
                raise _TrailingField()
            columns = columns[:-1]
        return columns


class _TrailingField(Exception):
    """A line with a field after the last, in a file whose lines end with an empty one."""


def tsv_batches(handle, fields: list[str], what: str) -> Iterator[pa.RecordBatch]:
    """Stream a TSV member (id, text) or (id, title, text) as record batches with the
    named fields. A header line is skipped, a trailing tab on every line ignored; a
    three-field line read where no title is asked for (queries) is id, title, text, and
    its text is title and text together."""
    import pyarrow.csv as pacsv

    checked = Utf8Reader(handle)
    layout: _TsvLayout | None = None
    try:
        reader = pacsv.open_csv(
            checked,
            read_options=pacsv.ReadOptions(autogenerate_column_names=True, block_size=_JSON_BLOCK),
            parse_options=pacsv.ParseOptions(delimiter="\t", quote_char=False),
            convert_options=pacsv.ConvertOptions(
                strings_can_be_null=False, column_types={f"f{i}": pa.string() for i in range(4)}
            ),
        )
        for batch in reader:
            layout = layout or _TsvLayout(batch, what)
            columns = layout.columns(batch)
            if layout.fields not in (2, 3):
                raise DataError(
                    f"{what} line 1: a TSV line has 2 (id, text) or 3 (id, title, text) "
                    f"fields, found {layout.fields}"
                )
            if len(columns[0]) == 0:
                continue
            three = len(columns) == 3
            values = {"_id": columns[0], "text": columns[-1]}
            if "title" in fields:
                values["title"] = columns[1] if three else pa.nulls(len(columns[0]), pa.string())
            elif three:  # queries: title and text, joined as a document's are
                both = pa.record_batch([columns[1], columns[2]], names=["title", "text"])
                values["text"] = combine_text(both, has_title=True)
            yield pa.record_batch([values[f] for f in fields], names=fields)
    except _TrailingField:
        checked.stop()
        found = first_bad_line(handle, _nonempty_last_field)
        line = f" line {found[0]}" if found else ""
        raise DataError(
            f"{what}{line}: a field after the last, where the first lines end with an empty "
            "one (a trailing tab); every line must have the same fields"
        ) from None
    except (NotUtf8, pa.ArrowInvalid) as exc:
        checked.stop()
        if "Empty CSV file" in str(exc):
            if checked.tell() == 0:
                return
            raise DataError(
                f"{what}: a line is longer than {_JSON_BLOCK:,} bytes, the most a TSV "
                "line may hold; is the file TSV, with one record a line?"
            ) from None
        found = first_bad_line(handle, _TsvFieldCount())
        if found is not None:
            raise DataError(f"{what} line {found[0]}: {found[1]}") from None
        raise DataError(f"{what}: not a valid TSV file: {exc}") from None


def _nonempty_last_field(text: str) -> str | None:
    line = text.rstrip("\r\n")
    return "found" if line and line.count("\t") >= 2 and line.split("\t")[-1] else None


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


def field_names(source: Source | None, member: str | None) -> Mapping[str, str] | None:
    """The file's own names of a JSON-lines member's fields (`_id`, `title`, `text`), where
    the source gives them; None: BEIR's."""
    if source is None or member is None:
        return None
    return getattr(source, "field_names", lambda m: None)(member)


def id_field(source: Source | None, member: str | None) -> str:
    """The field that holds the ids of a JSON-lines member, as errors name it."""
    return (field_names(source, member) or {}).get("_id", "_id")


def record_batches(
    source: Source, handle, member: str, fields: list[str]
) -> Iterator[pa.RecordBatch]:
    """Record batches of a corpus or queries member, JSON lines or TSV."""
    tsv = getattr(source, "format", lambda m: "jsonl")(member) == "tsv"
    what = getattr(source, "label", lambda m: None)(member)
    what = what or (f"{member}.tsv" if tsv else f"{member}.jsonl")
    if tsv:
        yield from tsv_batches(handle, fields, what)
    else:
        yield from json_batches(handle, fields, what, field_names(source, member))


def join_title(title: Any, text: Any) -> Any:
    """(title + " " + text).strip(), nulls as empty strings: a document's text as BEIR
    builds it (arrays or chunked arrays; title None: the text alone, stripped)."""
    text = pc.fill_null(text, "")
    if title is not None:
        text = pc.binary_join_element_wise(pc.fill_null(title, ""), text, " ")
    return pc.utf8_trim_whitespace(text)


def combine_text(batch: pa.RecordBatch, has_title: bool) -> pa.Array:
    return join_title(batch.column("title") if has_title else None, batch.column("text"))
