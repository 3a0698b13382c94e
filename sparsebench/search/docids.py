"""What retrieval takes from the documents' ids: each document's tie key (the rank of its
id in byte order, which orders documents of equal score as trec_eval does), stored with
the postings when they are built or computed from the ids, and each query's own document
(ignore_identical_ids).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.errors import DataError
from sparsebench.core.strings import as_string_array

MAX_TIE_KEY = 2**32 - 1  # tie keys share a 64-bit sort key with the score's 32 bits
_CHECKED_PAIRS = 256  # pairs of ids whose order a stored key must agree with

Ids = Sequence[str] | np.ndarray | pa.Array


def tie_break_keys(doc_ids: Ids) -> np.ndarray:
    """Position of each document id in byte order (larger id = larger key; equal ids,
    equal keys)."""
    if len(doc_ids) > MAX_TIE_KEY:
        raise DataError(f"{len(doc_ids)} documents: more than {MAX_TIE_KEY} are not supported")
    ids = as_string_array(doc_ids)
    ranks = pc.rank(ids, sort_keys="ascending", tiebreaker="dense")  # UTF-8 byte order
    return ranks.to_numpy().astype(np.int64) - 1


def document_tie_keys(stored: np.ndarray | None, doc_ids: Ids) -> np.ndarray:
    """Each document's tie key (int64): the keys stored with the postings (save_postings
    ranks the ids once, as an engine keeps its document lexicon), else ranked here at
    every search (benchmarks/RESULTS.md, "Measurements behind the code"). Stored keys must
    order a sample of pairs of the given ids as the ids order: ids of another corpus, or
    in another order, are refused rather than given another's ties."""
    if stored is None:
        return tie_break_keys(doc_ids)
    if len(stored) != len(doc_ids):
        raise DataError(f"{len(doc_ids)} document ids for postings of {len(stored)} documents")
    if len(stored):
        pairs = np.random.default_rng(0).integers(0, len(stored), (2, _CHECKED_PAIRS))
        first, second = (_picked(doc_ids, rows) for rows in pairs)
        by_ids = np.array([(a > b) - (a < b) for a, b in zip(first, second, strict=True)])
        by_keys = np.sign(stored[pairs[0]].astype(np.int64) - stored[pairs[1]])
        if not np.array_equal(by_ids, by_keys):
            bad = int(np.argmax(by_ids != by_keys))
            raise DataError(
                f"the document ids do not order as the postings' tie keys (ids "
                f"{first[bad]!r} and {second[bad]!r}): ids of another corpus, or in another "
                "order, than the postings were built with?"
            )
    return np.asarray(stored, dtype=np.int64)


def _picked(doc_ids: Ids, rows: np.ndarray) -> list[str]:
    if isinstance(doc_ids, pa.Array):
        return doc_ids.take(pa.array(rows)).to_pylist()
    return [doc_ids[row] for row in rows]


def own_documents(doc_ids: Ids, query_ids: Ids) -> np.ndarray:
    """Each query's row among the documents whose id equals its own (-1 for none): the
    document that ignore_identical_ids keeps out of the query's ranking (ArguAna, Quora)."""
    documents = as_string_array(doc_ids)
    queries = as_string_array(query_ids).cast(documents.type)
    found = pc.index_in(queries, value_set=documents)
    return found.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
