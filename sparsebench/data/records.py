"""The records of a corpus or queries file, JSON lines or TSV, streamed as Arrow batches.

Arrow parses the bytes; when it fails, the file is read again line by line to name the
first bad line (1-based, as an editor shows it) and what is wrong with it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj

from sparsebench.data.textfiles import NotUtf8, Utf8Reader, first_bad_line
from sparsebench.errors import DataError

log = logging.getLogger(__name__)


_JSON_BLOCK = 8 << 20


class Source(Protocol):
    split: str

    def check(self) -> None: ...
    def open(self, member: str): ...
    def size(self, member: str) -> int: ...
    def fingerprint(self) -> dict[str, Any]: ...


def json_batches(handle, fields: list[str], what: str) -> Iterator[pa.RecordBatch]:
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


def tsv_batches(handle, fields: list[str], what: str) -> Iterator[pa.RecordBatch]:
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


def record_batches(
    source: Source, handle, member: str, fields: list[str]
) -> Iterator[pa.RecordBatch]:
    """Record batches of a corpus or queries member, JSON lines or TSV."""
    tsv = getattr(source, "format", lambda m: "jsonl")(member) == "tsv"
    what = getattr(source, "label", lambda m: None)(member)
    what = what or (f"{member}.tsv" if tsv else f"{member}.jsonl")
    yield from (tsv_batches if tsv else json_batches)(handle, fields, what)


def combine_text(batch: pa.RecordBatch, has_title: bool) -> pa.Array:
    text = pc.fill_null(batch.column("text"), "")
    if has_title:
        title = pc.fill_null(batch.column("title"), "")
        text = pc.binary_join_element_wise(title, text, " ")
    return pc.utf8_trim_whitespace(text)
