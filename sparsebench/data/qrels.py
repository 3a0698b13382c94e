"""Relevance judgments: read from BEIR TSV or TREC qrels, checked against the collection,
written in one normal form.

Ids are strings, grades integers. Identical repeated lines collapse; one (query, document)
pair with two different grades is an error, as is a judged query the collection lacks. A
judged document the corpus lacks is an error too (ids written differently, or the qrels
of another collection), unless the dataset says to keep such judgments (as trec_eval and
BEIR's own evaluation count them: relevant documents no run can retrieve) or to drop them.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path
from sparsebench.core.idkeys import pair_keys
from sparsebench.core.strings import empty_or_holding
from sparsebench.data.delimited import read_single_delimited
from sparsebench.data.textfiles import first_bad, read_fields

log = logging.getLogger(__name__)

_EXAMPLES = 5  # ids quoted in an error message


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
    if not _is_number(frame["grade"].iloc[0]):  # a header line (`1.0` and `0.5` are grades)
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


def _is_number(value: str) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _unknown(values: pd.Series, known: pa.ChunkedArray | pa.Array) -> list[str]:
    distinct = pa.array(values.unique().astype(object), type=pa.string())
    missing = pc.invert(pc.is_in(distinct, value_set=known))
    return pc.filter(distinct, missing).to_pylist()


UNKNOWN_DOCUMENTS = ("error", "keep", "drop")  # what a dataset does with such judgments


def check_qrels(
    qrels: pd.DataFrame,
    query_ids: pa.ChunkedArray,
    doc_ids: pa.ChunkedArray,
    unknown_documents: str = "error",
) -> tuple[pd.DataFrame, list[str]]:
    """(the judgments, the judged documents the corpus lacks): every judged query must
    exist, or ids are being written differently; judged documents the corpus lacks are
    refused, kept or dropped as `unknown_documents` says."""
    if unknown_documents not in UNKNOWN_DOCUMENTS:
        raise ValueError(
            f"unknown_judged_documents is one of {', '.join(UNKNOWN_DOCUMENTS)}, "
            f"not {unknown_documents!r}"
        )
    _refuse_unknown(_unknown(qrels["query_id"], query_ids), "query", "queries.jsonl", "")
    missing = _unknown(qrels["doc_id"], doc_ids)
    if not missing:
        return qrels, []
    if unknown_documents == "error":
        _refuse_unknown(
            missing,
            "doc",
            "corpus.jsonl",
            "; if the collection itself judges documents it does not hold, set the "
            "dataset's unknown_judged_documents to keep (trec_eval's count: relevant "
            "documents never retrieved) or drop",
        )
    judged = pc.is_in(pa.array(qrels["doc_id"], type=pa.string()), value_set=pa.array(missing))
    count = int(pc.sum(judged).as_py())
    log.warning(
        "%d judgments name %d documents the corpus does not hold (e.g. %s): %s",
        count,
        len(missing),
        ", ".join(map(repr, missing[:_EXAMPLES])),
        "kept, as relevant documents no run can retrieve"
        if unknown_documents == "keep"
        else "dropped",
    )
    if unknown_documents == "drop":
        qrels = qrels[~judged.to_numpy(zero_copy_only=False)].reset_index(drop=True)
    return qrels, sorted(missing)


def _refuse_unknown(missing: list[str], what: str, where: str, hint: str) -> None:
    if missing:
        raise DataError(
            f"qrels name {len(missing)} {what} ids that are not in {where} "
            f"(e.g. {', '.join(map(repr, missing[:_EXAMPLES]))}); the qrels belong to another "
            f"collection or ids are written differently{hint}"
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
    fast = _read_qrels_fast(path)
    if fast is not None:
        return fast
    with open(path, "rb") as handle:
        return parse_qrels(handle, what=str(path))


def _read_qrels_fast(path: str | Path) -> pd.DataFrame | None:
    """Arrow's CSV reader for the common file: single tabs or spaces between fields,
    integer grades, each pair judged once. None for anything else (other whitespace, a
    repeated pair, an error to locate), which parse_qrels reads and reports on."""
    if str(path).endswith(".gz"):
        return None
    table = read_single_delimited(
        path,
        pacsv.ReadOptions(autogenerate_column_names=True),
        pacsv.ConvertOptions(
            column_types={f"f{i}": pa.string() for i in range(4)}, strings_can_be_null=False
        ),
    )
    if table is None or table.num_columns not in (3, 4) or table.num_rows == 0:
        return None
    columns = (0, 2, 3) if table.num_columns == 4 else (0, 1, 2)
    query, doc, grade = (table.column(i) for i in columns)
    if not _is_number(grade[0].as_py()):  # a header line
        query, doc, grade = query[1:], doc[1:], grade[1:]
    if not len(query):
        return None
    if any(empty_or_holding(column, b" \t\n\f\r") for column in table.columns):
        return None  # another whitespace, or an empty field
    try:
        grade = pc.cast(grade, pa.int64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # grades written as 1.0, or not numbers
    codes = pc.dictionary_encode(query).combine_chunks().indices
    keys = np.sort(pair_keys(codes.to_numpy().astype(np.int64), doc))
    if (keys[1:] == keys[:-1]).any():  # a repeated pair (or two that share a key)
        return None
    return pd.DataFrame(
        {
            "query_id": query.to_pandas(),
            "doc_id": doc.to_pandas(),
            "grade": grade.to_numpy(),
        }
    )
