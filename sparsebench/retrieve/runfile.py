"""TREC run files: `qid Q0 docid rank score tag`, one retrieved document per line.

Scores are written with 9 significant digits, enough to restore every float32 score
exactly, so that trec_eval (which holds scores as 32-bit floats) sees the same ties
and the same order as the retrieval did.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from sparsebench.data.textfiles import first_bad, read_fields, refuse_gzip
from sparsebench.errors import DataError

if TYPE_CHECKING:
    from sparsebench.retrieve.topk import RetrievedBatch


def format_run_lines(
    query_ids: np.ndarray,
    doc_ids: np.ndarray,
    ranks: np.ndarray,
    scores: np.ndarray,
    tag: str,
    digits: int = 9,
) -> str:
    """Run lines for aligned arrays (already in output order); scores with `digits`
    significant digits (9 restore a float32 exactly, 17 a float64)."""
    frame = pd.DataFrame(
        {
            "qid": query_ids,
            "q0": "Q0",
            "docid": doc_ids,
            "rank": ranks,
            "score": [f"{s:.{digits}g}" for s in scores.astype(np.float64)],
            "tag": tag,
        }
    )
    buffer = io.StringIO()
    frame.to_csv(buffer, sep=" ", header=False, index=False, lineterminator="\n")
    return buffer.getvalue()


def write_retrieved(
    handle: IO[str],
    first: int,
    batch: RetrievedBatch,
    query_ids: np.ndarray,
    doc_ids: np.ndarray,
    tag: str,
) -> int:
    """Write the run lines of a retrieved batch whose first query is `first`; returns
    how many lines."""
    if len(batch.ranks):
        handle.write(
            format_run_lines(
                np.asarray(query_ids[first + batch.query_rows]),
                np.asarray(doc_ids[batch.doc_rows]),
                batch.ranks,
                batch.scores,
                tag,
            )
        )
    return len(batch.ranks)


_RUN_COLUMNS = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
_RUN_TYPES = dict(
    zip(
        _RUN_COLUMNS,
        [pa.string(), pa.string(), pa.string(), pa.int64(), pa.float64(), pa.string()],
        strict=True,
    )
)


def _read_run_fast(path: str | Path) -> pd.DataFrame | None:
    """Arrow's CSV reader for the common layout (single spaces or tabs); None when the
    file needs the general reader (other whitespace, or an error to locate)."""
    with open(path, "rb") as handle:
        first = handle.readline()
    delimiter = "\t" if b"\t" in first else " "
    try:
        table = pacsv.read_csv(
            path,
            read_options=pacsv.ReadOptions(column_names=_RUN_COLUMNS),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types=_RUN_TYPES,
                strings_can_be_null=False,
                include_columns=["query_id", "doc_id", "score", "rank"],
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    score = table["score"]
    if score.null_count or not pc.all(pc.is_finite(score)).as_py():
        return None
    columns = {
        "query_id": table["query_id"],
        "doc_id": table["doc_id"],
        "score": score,
        "rank": table["rank"],
    }
    return pa.table(columns).to_pandas(types_mapper=pd.ArrowDtype)


def read_run(path: str | Path) -> pd.DataFrame:
    """Read a TREC run as query_id, doc_id (str), score (float64) and rank; validated (six
    fields a line; the Q0 and tag columns are checked for presence, not kept).

    Like trec_eval, only the score orders documents; the rank column is kept but not used.
    A malformed line is reported with its line number.
    """
    if Path(path).stat().st_size == 0:
        raise DataError(
            f"{path}: the run is empty: no query has a result. If the run was made here, "
            "every query retrieved nothing: are the queries' texts empty, or in another "
            "field or column, or are none of their terms in the corpus?"
        )
    refuse_gzip(path, str(path))
    fast = _read_run_fast(path)
    if fast is not None:
        return fast
    frame, lines = read_fields(path, str(path))
    if frame.shape[1] != 6:
        raise DataError(
            f"{path}: line {lines[0]} has {frame.shape[1]} fields; a TREC run line has 6 "
            "(qid Q0 docid rank score tag)"
        )
    frame.columns = _RUN_COLUMNS
    score = pd.to_numeric(frame["score"], errors="coerce")
    bad = first_bad(score.isna() | ~np.isfinite(score.fillna(0)))
    if bad is not None:
        raise DataError(f"{path}: line {lines[bad]}: score {frame['score'][bad]!r} is not a number")
    return pd.DataFrame(
        {
            "query_id": frame["query_id"].astype(object),
            "doc_id": frame["doc_id"].astype(object),
            "score": score.astype(np.float64),
            "rank": pd.to_numeric(frame["rank"], errors="coerce"),
        }
    )


def misordered_queries(run: pd.DataFrame) -> list[str]:
    """Queries whose lines are not in descending score order in the file.

    Metrics follow the scores (as trec_eval does), not the file order or the rank
    column; tools that trust the order would score such a run differently.
    """
    queries = pa.array(run["query_id"], from_pandas=True)
    if isinstance(queries, pa.ChunkedArray):
        queries = queries.combine_chunks()
    if len(queries) < 2:
        return []
    same_query = pc.equal(queries[1:], queries[:-1]).to_numpy(zero_copy_only=False)
    rising = np.diff(np.asarray(run["score"], dtype=np.float64)) > 0
    bad = np.nonzero(same_query & rising)[0] + 1
    return sorted(set(queries.take(pa.array(bad)).to_pylist()))
