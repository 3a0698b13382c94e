"""Record ids, checked before anything is written from them: present, non-empty, unique,
and free of whitespace and control characters of any script (a TREC run or qrels line is
split at them, so trec_eval and pytrec_eval could not read such an id back). An error
names the file and, read again, the line of the offending record."""

from __future__ import annotations

import json
import unicodedata

import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.errors import DataError
from sparsebench.data.records import Source, id_field
from sparsebench.data.textfiles import first_bad_line

_SAMPLE = 5  # ids quoted in an error


def member_label(source: Source, member: str) -> str:
    """The file a member is read from, as error messages name it."""
    label = getattr(source, "label", None)
    found = label(member) if label is not None else None
    return found or f"{source.fingerprint().get('path', type(source).__name__)} {member}"


def check_ids(
    ids: pa.ChunkedArray, what: str, source: Source | None = None, member: str | None = None
) -> None:
    """Ids are non-empty, unique, and hold no whitespace or control character of any
    script (a run or qrels line splits at them: trec_eval and pytrec_eval could not read
    the id back); `source` and `member` let an error name the line."""
    field = id_field(source, member)
    if ids.null_count:
        raise DataError(f"{what}: {ids.null_count} records have no `{field}`")
    empty = pc.equal(pc.utf8_length(ids), 0)
    if pc.any(empty).as_py():
        raise DataError(f"{what}: {pc.sum(empty).as_py()} records have an empty `{field}`")
    spaced = pc.match_substring_regex(ids, r"[\p{Z}\p{Cc}]")
    if pc.any(spaced).as_py():
        example = pc.filter(ids, spaced)[0].as_py()
        char = next(c for c in example if c.isspace() or unicodedata.category(c)[0] in "ZC")
        line = line_of_id(source, member, example) if source is not None else None
        where = f"{what} line {line}" if line else what
        raise DataError(
            f"{where}: id {example!r} contains {unicodedata.name(char, 'a control character')} "
            f"(U+{ord(char):04X}), a space or control character that TREC run and qrels files "
            "cannot hold (trec_eval and pytrec_eval split their lines at it); remove it from "
            "the ids"
        )
    if pc.count_distinct(ids).as_py() != len(ids):
        counts = pc.value_counts(ids)
        repeated = pc.filter(counts, pc.greater(counts.field("counts"), 1))
        examples = repeated.field("values")[:_SAMPLE].to_pylist()
        raise DataError(
            f"{what}: {len(repeated)} duplicate ids (e.g. {', '.join(map(repr, examples))}); "
            "every id must be unique"
        )


def line_of_id(source: Source, member: str | None, doc_id: str) -> int | None:
    """The line of a file member whose record has id `doc_id` (read again, for errors)."""
    if member is None or not hasattr(source, "open"):
        return None
    tsv = getattr(source, "format", lambda m: "jsonl")(member) == "tsv"
    field = id_field(source, member)

    def check(text: str) -> str | None:
        if tsv:
            found = text.split("\t", 1)[0]
        else:
            try:
                found = json.loads(text).get(field) if text.strip() else None
            except (ValueError, AttributeError):
                return None
        return "found" if found == doc_id else None

    with source.open(member) as handle:
        found = first_bad_line(handle, check)
    return found[0] if found else None
