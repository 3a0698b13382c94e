"""TREC run files: `qid Q0 docid rank score tag`, one retrieved document per line.

Scores are written with 9 significant digits, enough to restore every float32 score
exactly, so that trec_eval (which holds scores as 32-bit floats) sees the same ties
and the same order as the retrieval did (sparsebench.runs.text).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.arrays import span_indices
from sparsebench.core.errors import DataError
from sparsebench.core.strings import string_buffers
from sparsebench.data.delimited import read_single_delimited
from sparsebench.data.textfiles import first_bad, read_fields
from sparsebench.runs.stream import (
    RUN_COLUMNS,
    fast_options,
    finite,
    refuse_empty_or_gzip,
)

if TYPE_CHECKING:
    from sparsebench.search.topk import RetrievedBatch


_CHUNK_LINES = 1 << 16  # lines assembled at a time (a few MB of text)
_RANK_DIGITS = 20  # the most bytes of a rank (int64)
# A process assembles its first this many lines with numpy (and Python's formatting of
# ranks and scores), the rest in compiled code: below it, numpy costs less than loading
# numba and the compiled writer into a new process (benchmarks/RESULTS.md, "A job's
# start-up"), which a small run's job then never pays.
NUMPY_LINES = 500_000
_Q0 = np.frombuffer(b" Q0 ", dtype=np.uint8)
_numpy_lines_left = NUMPY_LINES


def compiled_writer_needed(n_lines: int) -> bool:
    """Whether writing `n_lines` more lines in this process takes the compiled writer,
    for a stage to load it at its start-up (sparsebench.runs.text.load_compiled)."""
    return n_lines > _numpy_lines_left


def id_buffers(texts: Sequence[str] | np.ndarray | pa.Array, what: str) -> tuple[np.ndarray, ...]:
    """(offsets, UTF-8 bytes) of ids, for run lines to copy from. A NUL byte, which
    trec_eval would read as the end of a line's text, is refused."""
    if isinstance(texts, pa.Array):
        if texts.null_count:
            raise DataError(f"a {what} id is missing (null)")
        offsets, data = string_buffers(texts)
    else:
        offsets, data = _encoded(texts, what)
    if not data.all():
        bad = int(np.searchsorted(offsets, int(np.argmin(data)), "right")) - 1
        text = bytes(data[offsets[bad] : offsets[bad + 1]]).decode()
        raise DataError(f"{what} id {text!r} holds a NUL byte")
    return offsets, data


def _encoded(texts: Sequence[str] | np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, UTF-8 bytes) of Python strings: as fast as Arrow's conversion, which would
    import pyarrow's pandas shim at a stage's first line (benchmarks/RESULTS.md,
    "Measurements behind the code")."""
    listed = texts.tolist() if isinstance(texts, np.ndarray) else list(texts)
    try:
        encoded = [text.encode() for text in listed]
    except AttributeError:
        bad = next(text for text in listed if not isinstance(text, str))
        if bad is None:
            raise DataError(f"a {what} id is missing (null)") from None
        raise DataError(f"{what} id {bad!r} is not a string") from None
    except UnicodeEncodeError as exc:
        raise DataError(f"a {what} id is not UTF-8 text: {exc.object!r}") from None
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets, np.frombuffer(b"".join(encoded), dtype=np.uint8)


class RunLines:
    """The text of run lines `qid Q0 docid rank score tag`, for lines given as positions
    in the query and document id lists.

    Ids are encoded once; lines are assembled a chunk at a time, with no per-line Python
    beyond formatting numbers: by numpy for a process's first NUMPY_LINES lines, then by
    compiled code (sparsebench.runs.text), the same bytes. Scores are written with
    `digits` significant digits: 9 restore every float32 exactly, so that trec_eval
    (which holds scores as 32-bit floats) sees the ties and the order retrieval did; 17
    restore a float64 (formatted by Python)."""

    def __init__(
        self, query_ids: Sequence[str] | np.ndarray, doc_ids: Sequence[str] | np.ndarray, tag: str
    ) -> None:
        self._queries = id_buffers(query_ids, "query")
        self._docs = id_buffers(doc_ids, "document")
        self._tail = np.frombuffer(f" {tag}\n".encode(), dtype=np.uint8)
        if not self._tail.all():
            raise DataError(f"run tag {tag!r} holds a NUL byte")

    def __call__(self, *rows_ranks_scores: np.ndarray, digits: int = 9) -> bytes:
        """The text of chunks() at once."""
        return b"".join(self.chunks(*rows_ranks_scores, digits=digits))

    def chunks(
        self,
        query_rows: np.ndarray,
        doc_rows: np.ndarray,
        ranks: np.ndarray,
        scores: np.ndarray,
        digits: int = 9,
    ) -> Iterator[memoryview]:
        """The same text, a chunk of lines at a time (to write without joining or
        copying them)."""
        if len(ranks) and int(ranks.min()) < 1:
            raise DataError("run ranks start at 1")
        for i in range(0, len(ranks), _CHUNK_LINES):
            yield self._chunk(
                *(a[i : i + _CHUNK_LINES] for a in (query_rows, doc_rows, ranks, scores)), digits
            )

    def retrieved(self, first: int, batch: RetrievedBatch) -> bytes:
        """The lines of a retrieved batch whose first query is query `first`."""
        return b"".join(self.retrieved_chunks(first, batch))

    def retrieved_chunks(self, first: int, batch: RetrievedBatch) -> Iterator[memoryview]:
        """retrieved(), a chunk of lines at a time."""
        return self.chunks(first + batch.query_rows, batch.doc_rows, batch.ranks, batch.scores)

    def _chunk(
        self,
        query_rows: np.ndarray,
        doc_rows: np.ndarray,
        ranks: np.ndarray,
        scores: np.ndarray,
        digits: int,
    ) -> memoryview:
        global _numpy_lines_left
        lines = (
            np.asarray(query_rows, dtype=np.int64),
            np.asarray(doc_rows, dtype=np.int64),
            np.asarray(ranks, dtype=np.int64),
            _score_values(scores, digits),
        )
        if len(ranks) <= _numpy_lines_left:
            _numpy_lines_left -= len(ranks)
            return self._numpy_chunk(*lines, digits)
        _numpy_lines_left = 0  # from here on compiled: its loading is paid once
        return self._compiled_chunk(*lines, digits)

    def _numpy_chunk(
        self,
        query_rows: np.ndarray,
        doc_rows: np.ndarray,
        ranks: np.ndarray,
        values: np.ndarray,
        digits: int,
    ) -> memoryview:
        """Each line's spans of the ids, the separators, its rank and score (formatted by
        Python) and the tag, gathered from one pool of bytes."""
        numbers = [
            f" {rank} {value:.{digits}g}"
            for rank, value in zip(ranks.tolist(), values.tolist(), strict=True)
        ]
        number_offsets, number_bytes = _encoded(numbers, "score")
        (query_offsets, query_bytes), (doc_offsets, doc_bytes) = self._queries, self._docs
        pool = np.concatenate([query_bytes, doc_bytes, number_bytes, _Q0, self._tail])
        at_doc = len(query_bytes)
        at_numbers = at_doc + len(doc_bytes)
        at_q0 = at_numbers + len(number_bytes)
        at_tail = at_q0 + len(_Q0)
        n = len(numbers)
        spans = [  # (starts, ends) of each piece of a line, in pool positions
            (query_offsets[query_rows], query_offsets[query_rows + 1]),
            (np.full(n, at_q0), np.full(n, at_tail)),
            (at_doc + doc_offsets[doc_rows], at_doc + doc_offsets[doc_rows + 1]),
            (at_numbers + number_offsets[:-1], at_numbers + number_offsets[1:]),
            (np.full(n, at_tail), np.full(n, len(pool))),
        ]
        starts = np.stack([start for start, _ in spans], axis=1).ravel()
        ends = np.stack([end for _, end in spans], axis=1).ravel()
        return pool[span_indices(starts, ends)].data

    def _compiled_chunk(
        self,
        query_rows: np.ndarray,
        doc_rows: np.ndarray,
        ranks: np.ndarray,
        values: np.ndarray,
        digits: int,
    ) -> memoryview:
        """The same bytes, by the compiled writer."""
        # the compiled writer (numba): imported by the stages that write long runs, not
        # by every reader of one (the retrieve stage loads it at its start-up)
        from sparsebench.runs.text import FAST_HIGH, FAST_LOW, assembled

        if digits == 9:
            magnitudes = np.abs(values)
            slow = ~((magnitudes >= FAST_LOW) & (magnitudes < FAST_HIGH))
        else:
            slow = np.ones(len(values), dtype=bool)
        given = np.full(len(values), -1, dtype=np.int64)
        given[slow] = np.arange(int(slow.sum()))
        given_offsets, given_bytes = id_buffers(
            [f"{v:.{digits}g}" for v in values[slow].tolist()], "score"
        )
        widest = (  # the longest line's bytes: ids, rank, score and the separators
            _longest(self._queries[0])
            + _longest(self._docs[0])
            + _RANK_DIGITS
            + max(16, _longest(given_offsets))
            + len(self._tail)
            + 6
        )
        out = np.empty(len(ranks) * widest, dtype=np.uint8)
        doc_offsets, doc_bytes = self._docs
        written = assembled(
            query_rows,
            ranks,
            values,
            given,
            given_offsets,
            given_bytes,
            *self._queries,
            doc_offsets[doc_rows],  # gathered at once: their cache misses overlap
            doc_offsets[doc_rows + 1],
            doc_bytes,
            self._tail,
            out=out,
        )
        return out[:written].data


def _score_values(scores: np.ndarray, digits: int) -> np.ndarray:
    """The values written: a float32 score's own (9 digits restore it), or float64."""
    if digits != 9:
        return np.asarray(scores, dtype=np.float64)
    with np.errstate(invalid="ignore"):  # a signalling NaN stays a NaN
        return np.asarray(scores, dtype=np.float32).astype(np.float64)


def _longest(offsets: np.ndarray) -> int:
    return int(np.diff(offsets).max(initial=0))


def format_run_lines(
    query_ids: np.ndarray,
    doc_ids: np.ndarray,
    ranks: np.ndarray,
    scores: np.ndarray,
    tag: str,
    digits: int = 9,
) -> bytes:
    """Run lines for aligned arrays of ids, ranks and scores (already in output order)."""
    query_rows, queries = pd.factorize(pd.Series(query_ids, dtype=object))
    doc_rows, docs = pd.factorize(pd.Series(doc_ids, dtype=object))
    lines = RunLines(np.asarray(queries, dtype=object), np.asarray(docs, dtype=object), tag)
    return lines(
        query_rows, doc_rows, np.asarray(ranks, dtype=np.int64), np.asarray(scores), digits=digits
    )


def _read_run_fast(path: str | Path) -> pd.DataFrame | None:
    """Arrow's CSV reader for the common layout (single spaces or tabs); None when the
    file needs the general reader (other whitespace, or an error to locate)."""
    table = read_single_delimited(path, *fast_options(["query_id", "doc_id", "score", "rank"]))
    if table is None or not finite(table["score"]):
        return None
    return table.select(["query_id", "doc_id", "score", "rank"]).to_pandas(
        types_mapper=pd.ArrowDtype
    )


def read_run(path: str | Path) -> pd.DataFrame:
    """Read a TREC run as query_id, doc_id (str), score (float64) and rank; validated (six
    fields a line; the Q0 and tag columns are checked for presence, not kept).

    Like trec_eval, only the score orders documents; the rank column is kept but not used.
    A malformed line is reported with its line number.
    """
    refuse_empty_or_gzip(path)
    fast = _read_run_fast(path)
    if fast is not None:
        return fast
    frame, lines = read_fields(path, str(path))
    if frame.shape[1] != 6:
        raise DataError(
            f"{path}: line {lines[0]} has {frame.shape[1]} fields; a TREC run line has 6 "
            "(qid Q0 docid rank score tag)"
        )
    frame.columns = RUN_COLUMNS
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
