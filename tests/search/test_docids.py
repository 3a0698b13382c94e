"""Tie keys kept with the postings (sparsebench.search.docids): stored when the
postings are saved with their documents' ids, the same as keys ranked at search time,
and refused for ids they were not built with."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
import scipy.sparse as sp

from sparsebench.core.errors import DataError
from sparsebench.runs.runfile import RunLines
from sparsebench.search.docids import document_tie_keys, tie_break_keys
from sparsebench.search.postings import load_postings
from sparsebench.search.postings_build import save_postings
from sparsebench.search.scipy_backend import retrieve


def problem(n_docs: int = 2000):
    """Integer weights (many ties at the k-th score) and ids whose byte order is not their
    position, non-ASCII ones included."""
    rng = np.random.default_rng(7)
    documents = sp.random(n_docs, 60, density=0.05, format="csr", random_state=rng)
    documents.data = np.rint(documents.data * 3) + 1
    queries = sp.random(40, 60, density=0.1, format="csr", random_state=rng)
    queries.data = np.ones_like(queries.data)
    doc_ids = [
        f"{'δ' if i % 7 == 0 else 'd'}{int(x)}" for i, x in enumerate(rng.permutation(n_docs))
    ]
    return documents, queries, doc_ids


def run_bytes(postings, queries, doc_ids, strategy: str) -> bytes:
    query_ids = [f"q{i:02d}" for i in range(queries.shape[0])]
    lines = RunLines(query_ids, doc_ids, "m")
    found = retrieve(
        queries, postings, np.ones(queries.shape[1]), 10, doc_ids, query_ids, strategy=strategy
    )
    return b"".join(lines.retrieved(first, batch) for first, batch in found)


@pytest.mark.parametrize("strategy", ["exhaustive", "maxscore"])
def test_stored_tie_keys_give_the_run_that_ranked_ones_give(tmp_path, strategy):
    documents, queries, doc_ids = problem()
    save_postings(tmp_path / "keyed.npz", documents, doc_ids=pa.array(doc_ids))
    save_postings(tmp_path / "plain.npz", documents)
    keyed, plain = load_postings(tmp_path / "keyed.npz"), load_postings(tmp_path / "plain.npz")
    assert plain.tie_keys is None and keyed.tie_keys.dtype == np.uint32
    assert np.array_equal(keyed.tie_keys, tie_break_keys(doc_ids))
    expected = run_bytes(plain, queries, doc_ids, strategy)
    assert run_bytes(keyed, queries, doc_ids, strategy) == expected
    assert run_bytes(keyed, queries, pa.array(doc_ids), strategy) == expected


def test_ids_the_postings_were_not_built_with_are_refused(tmp_path):
    documents, queries, doc_ids = problem()
    save_postings(tmp_path / "keyed.npz", documents, doc_ids=pa.array(doc_ids))
    keyed = load_postings(tmp_path / "keyed.npz")
    shuffled = list(np.random.default_rng(1).permutation(doc_ids))
    with pytest.raises(DataError, match="do not order as the postings' tie keys"):
        run_bytes(keyed, queries, shuffled, "exhaustive")
    with pytest.raises(DataError, match="1999 document ids for postings of 2000 documents"):
        document_tie_keys(keyed.tie_keys, doc_ids[:-1])
    with pytest.raises(DataError, match="1999 document ids for 2000 documents"):
        save_postings(tmp_path / "short.npz", documents, doc_ids=pa.array(doc_ids[:-1]))
