"""TREC run files: `qid Q0 docid rank score tag`, one retrieved document per line.

Scores are written with 9 significant digits, enough to restore every float32 score
exactly, so that trec_eval (which holds scores as 32-bit floats) sees the same ties
and the same order as the retrieval did.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from sparsebench.errors import DataError


def format_run_lines(
    query_ids: np.ndarray, doc_ids: np.ndarray, ranks: np.ndarray, scores: np.ndarray, tag: str
) -> str:
    """Run lines for aligned arrays (already in output order)."""
    frame = pd.DataFrame(
        {
            "qid": query_ids,
            "q0": "Q0",
            "docid": doc_ids,
            "rank": ranks,
            "score": [f"{s:.9g}" for s in scores.astype(np.float64)],
            "tag": tag,
        }
    )
    buffer = io.StringIO()
    frame.to_csv(buffer, sep=" ", header=False, index=False, lineterminator="\n")
    return buffer.getvalue()


def write_run_block(handle: IO[str], query_ids, doc_ids, ranks, scores, tag: str) -> None:
    if len(ranks):
        handle.write(
            format_run_lines(np.asarray(query_ids), np.asarray(doc_ids), ranks, scores, tag)
        )


def read_run(path: str | Path) -> pd.DataFrame:
    """Read a TREC run as query_id, doc_id (str), score (float64), rank, tag; validated."""
    try:
        frame = pd.read_csv(
            path,
            sep=r"\s+",
            header=None,
            dtype=str,
            engine="c",
            keep_default_na=False,
        )
    except pd.errors.EmptyDataError:
        raise DataError(f"{path}: the run file is empty") from None
    except pd.errors.ParserError as exc:
        raise DataError(f"{path}: not a TREC run file ({exc})") from None
    if frame.shape[1] != 6:
        raise DataError(
            f"{path}: a TREC run line has 6 fields (qid Q0 docid rank score tag), found "
            f"{frame.shape[1]}"
        )
    frame.columns = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
    score = pd.to_numeric(frame["score"], errors="coerce")
    if score.isna().any():
        bad = frame.loc[score.isna(), "score"].iloc[0]
        raise DataError(f"{path}: score {bad!r} is not a number")
    return pd.DataFrame(
        {
            "query_id": frame["query_id"].astype(object),
            "doc_id": frame["doc_id"].astype(object),
            "score": score.astype(np.float64),
            "rank": pd.to_numeric(frame["rank"], errors="coerce"),
            "tag": frame["tag"],
        }
    )


def misordered_queries(run: pd.DataFrame) -> list[str]:
    """Queries whose lines are not in descending score order in the file.

    Metrics follow the scores (as trec_eval does), not the file order or the rank
    column; tools that trust the order would score such a run differently.
    """
    same_query = run["query_id"].to_numpy()[1:] == run["query_id"].to_numpy()[:-1]
    rising = np.diff(run["score"].to_numpy(np.float64)) > 0
    bad = same_query & rising
    return sorted(set(run["query_id"].to_numpy()[1:][bad]))
