"""Anserini's pre-encoded vector files, read as Anserini reads them.

Documents: JsonVectorCollection, a JSON object per line, {"id": ..., "vector": {token:
weight}} (other keys, such as "contents", ignored), in .jsonl or .jsonl.gz files.
IndexCollection -impact -pretokenized turns each weight into an integer with Jackson's
asInt (a fraction is truncated toward zero, a numeric string parsed) and indexes the
token that many times: a weight that becomes zero or less indexes nothing.

Queries: the topic files of the `.cached` conditions (TsvString / TsvInt), "qid\\t" and
the query's tokens, each repeated as often as its integer weight (BagOfWordsQueryGenerator
counts them); or the same JSON objects as the documents.
"""

from __future__ import annotations

import gzip
import json
import logging
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.core.errors import DataError
from sparsebench.encode.sparse import LabelledCSR

log = logging.getLogger(__name__)


def _lines(path: Path) -> Iterator[str]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        yield from handle


def vector_files(path: str | Path) -> list[Path]:
    """A file, or the .json/.jsonl(.gz) files of a folder in name order."""
    path = Path(path)
    if path.is_file():
        return [path]
    files = sorted(
        p for p in path.iterdir() if p.name.endswith((".json", ".jsonl", ".json.gz", ".jsonl.gz"))
    )
    if not files:
        raise DataError(f"{path}: no .json, .jsonl or .jsonl.gz vector files")
    return files


def as_int(value: object, where: str) -> int:
    """Jackson's JsonNode.asInt of a weight: numbers truncated toward zero, numeric strings
    parsed, booleans 1 and 0."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise DataError(f"{where}: weight {value!r} is not a finite number")
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return 0
    raise DataError(f"{where}: weight {value!r} is not a number")


def read_json_vectors(
    path: str | Path, wanted: frozenset[str] | None = None
) -> tuple[list[str], LabelledCSR]:
    """(ids, integer weights with named columns) of JsonVectorCollection files; only the
    lines whose id is `wanted`, if given (memory bounded by them)."""
    ids: list[str] = []
    rows: list[np.ndarray] = []
    tokens: list[str] = []
    weights: list[int] = []
    for file in vector_files(path):
        for number, line in enumerate(_lines(file), start=1):
            if not line.strip():
                continue
            where = f"{file}:{number}"
            try:
                record = json.loads(line)
                vector = record["vector"]
                key = str(record["id"])
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                raise DataError(
                    f'{where}: not a JSON vector line ({{"id": ..., "vector": {{token: '
                    f"weight}}}}): {error}"
                ) from None
            if not isinstance(vector, dict):
                raise DataError(f'{where}: "vector" must be an object of token: weight')
            if wanted is not None and key not in wanted:
                continue
            ids.append(key)
            tokens.extend(vector)
            weights.extend(as_int(v, where) for v in vector.values())
            rows.append(np.full(len(vector), len(ids) - 1, dtype=np.int64))
    row_index = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    return ids, _labelled(row_index, tokens, np.array(weights, dtype=np.int64), len(ids))


def read_repeated_token_queries(path: str | Path) -> tuple[list[str], LabelledCSR]:
    """(ids, integer weights) of a TsvString topic file whose queries repeat each token
    as often as its weight."""
    ids: list[str] = []
    rows: list[int] = []
    tokens: list[str] = []
    for number, line in enumerate(_lines(Path(path)), start=1):
        line = line.rstrip("\n")
        if not line:
            continue
        qid, tab, text = line.partition("\t")
        if not tab:
            raise DataError(f"{path}:{number}: a topic line is 'qid<TAB>tokens'")
        ids.append(qid)
        words = text.split()
        tokens.extend(words)
        rows.extend([len(ids) - 1] * len(words))
    counts = np.ones(len(tokens), dtype=np.int64)
    return ids, _labelled(np.array(rows, dtype=np.int64), tokens, counts, len(ids))


def _labelled(rows: np.ndarray, tokens: Iterable[str], weights: np.ndarray, n: int) -> LabelledCSR:
    """Summed (row, token) weights, those at or below zero dropped, columns the sorted
    distinct tokens."""
    token_array = pa.array(list(tokens), type=pa.string())
    encoded = token_array.dictionary_encode()
    terms = encoded.dictionary
    order = np.argsort(terms.to_numpy(zero_copy_only=False), kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    columns = rank[encoded.indices.to_numpy(zero_copy_only=False)] if len(order) else rows
    matrix = sp.csr_matrix((weights.astype(np.float64), (rows, columns)), shape=(n, len(order)))
    matrix.sum_duplicates()
    matrix.data[matrix.data <= 0] = 0
    matrix.eliminate_zeros()
    matrix.sort_indices()
    return LabelledCSR(sp.csr_matrix(matrix, dtype=np.float32), terms.take(pa.array(order)))


def read_query_vectors(path: str | Path) -> tuple[list[str], LabelledCSR]:
    """A query file of either form: JSON vectors (.json, .jsonl, .jsonl.gz) or a topic
    file of repeated tokens (anything else, e.g. .tsv)."""
    name = Path(path).name
    if name.endswith((".json", ".jsonl", ".json.gz", ".jsonl.gz")):
        return read_json_vectors(path)
    return read_repeated_token_queries(path)


class VectorFileEncoder:
    """The vectors of given ids, read from a pre-encoded file (an encoder of the
    pipeline whose input is the id column, not the text): ids without a vector get an
    empty one, and are counted in the log."""

    def __init__(self, path: str, side: str) -> None:
        self.path = path
        self.side = side
        self.input_column = "doc_id" if side == "documents" else "query_id"

    def encode(self, ids: pa.Array | Sequence[str]) -> LabelledCSR:
        listed = ids.to_pylist() if isinstance(ids, pa.Array | pa.ChunkedArray) else ids
        wanted = [str(x) for x in listed]
        if self.side == "documents":
            found_ids, found = read_json_vectors(self.path, frozenset(wanted))
        else:
            found_ids, found = read_query_vectors(self.path)
        found_index = pd.Index(found_ids)
        if not found_index.is_unique:
            repeated = found_index[found_index.duplicated()][0]
            raise DataError(f"{self.path}: id {repeated!r} has two vectors")
        rows = found_index.get_indexer(wanted)
        missing = int((rows < 0).sum())
        if missing:
            log.warning(
                "%s: %d of %d %s have no vector there (e.g. %r): they are empty",
                self.path,
                missing,
                len(wanted),
                self.side,
                wanted[int(np.flatnonzero(rows < 0)[0])],
            )
        empty = sp.csr_matrix((1, found.matrix.shape[1]), dtype=np.float32)
        stacked = sp.vstack([found.matrix, empty], format="csr")
        return LabelledCSR(stacked[np.where(rows < 0, found.matrix.shape[0], rows)], found.terms)


def build(encoding: Mapping[str, Any], runtime: Mapping[str, Any]) -> VectorFileEncoder:
    """The encoder of `kind: vectors` encoding settings ({path, side})."""
    return VectorFileEncoder(encoding["path"], encoding["side"])
