"""Whitespace-separated text tables (TREC runs, qrels) read fast, with errors that name
the file and the line."""

from __future__ import annotations

from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from sparsebench.errors import DataError


def read_fields(source: str | Path | IO, what: str) -> tuple[pd.DataFrame, np.ndarray]:
    """All fields as strings, and the 1-based line number of each row; blank lines skipped.

    Raises DataError naming `what` and the line when a line has a different number of
    fields than the first one.
    """
    try:
        frame = pd.read_csv(
            source,
            sep=r"\s+",
            header=None,
            dtype=str,
            engine="c",
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=False,
            quoting=3,
            encoding="utf-8",
        )
    except pd.errors.EmptyDataError:
        raise DataError(f"{what}: the file is empty") from None
    except pd.errors.ParserError as exc:
        detail = str(exc).replace("Error tokenizing data. C error: ", "")
        raise DataError(f"{what}: {detail}") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{what}: not UTF-8 text ({exc})") from None
    lines = np.arange(1, len(frame) + 1)
    empty = (frame == "").to_numpy()
    blank = empty.all(axis=1)
    short = empty.any(axis=1) & ~blank
    if short.any():
        row = int(np.argmax(short))
        found = int((~empty[row]).sum())
        raise DataError(f"{what}: line {lines[row]} has {found} fields, expected {frame.shape[1]}")
    if blank.any():
        frame, lines = frame[~blank].reset_index(drop=True), lines[~blank]
    return frame, lines


def first_bad(mask: np.ndarray | pd.Series) -> int | None:
    """Index of the first True in `mask`, or None."""
    values = np.asarray(mask)
    return int(np.argmax(values)) if values.any() else None
