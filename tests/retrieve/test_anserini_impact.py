"""Integer impacts searched as Anserini 1.7.1's impact search searches them.

data/anserini_impact_adi holds, for the shared ADI collection, splade-tiny's document and
query vectors quantised as round(w * 100) (the JsonVectorCollection file and the
repeated-token topic file of the `.cached` conditions), and the run the real Anserini made
of them: IndexCollection -collection JsonVectorCollection -impact -pretokenized, then
SearchCollection -topicReader TsvString -impact -pretokenized -hits 1000 (Anserini
1.7.1 fatjar, Temurin 25). Every one of its 2,847 lines scores the integer dot product.
The reference run's metrics (trec_eval's order): nDCG@10 0.3949902229146711, R@100
0.9904761904761904, MAP 0.3217036281751095.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.encode.json_vectors import (
    as_int,
    read_json_vectors,
    read_repeated_token_queries,
)
from sparsebench.encode.sparse import align_columns
from sparsebench.runs.runfile import RunLines
from sparsebench.search.postings import load_postings
from sparsebench.search.postings_build import save_postings
from sparsebench.search.scipy_backend import retrieve
from sparsebench.workflow.config import validate_config

DATA = Path(__file__).parent / "data" / "anserini_impact_adi"
SHARED = Path(__file__).resolve().parents[3] / "shared"


def run_lines(path: Path) -> dict[tuple[str, str], str]:
    """(query, document) -> score as printed, of a TREC run."""
    with gzip.open(path, "rt") if path.suffix == ".gz" else open(path) as handle:
        return {(q, d): s for q, _, d, _, s, _ in (line.split() for line in handle)}


def test_impact_search_equals_anserinis_run(tmp_path):
    doc_ids, documents = read_json_vectors(DATA / "docs.jsonl.gz")
    query_ids, queries = read_repeated_token_queries(DATA / "queries.tsv.gz")
    assert (len(doc_ids), len(query_ids)) == (82, 35)
    postings_path = tmp_path / "postings.npz"
    save_postings(postings_path, documents.matrix)
    postings = load_postings(postings_path)
    query_matrix = align_columns(queries.matrix, queries.terms, documents.terms)
    order = np.argsort(np.array(query_ids, dtype=object), kind="stable")
    ids = np.array(query_ids, dtype=object)[order]
    lines = RunLines(ids, np.array(doc_ids, dtype=object), "m")
    out = []
    for start, batch in retrieve(
        query_matrix[order],
        postings,
        np.ones(postings.shape[0]),
        1000,
        np.array(doc_ids, dtype=object),
        ids,
    ):
        out.append(lines.retrieved(start, batch))
    text = b"".join(out).decode()
    ours = {(q, d): s for q, _, d, _, s, _ in (line.split() for line in text.splitlines())}
    anserini = run_lines(DATA / "run.trec.gz")
    assert len(anserini) == 2847
    assert ours.keys() == anserini.keys()  # the same documents for every query
    differ = [key for key in anserini if float(ours[key]) != float(anserini[key])]
    assert not differ, f"{len(differ)} scores differ, e.g. {differ[0]}"


def test_json_vector_weights_are_read_as_anserinis_asint(tmp_path):
    """Fractions truncated toward zero, numeric strings parsed, zero and negative weights
    index nothing (checked on Anserini with such a file: 2.9 -> 2, 1.5 -> 1, 0.99 and -3
    absent, "4" -> 4)."""
    path = tmp_path / "docs.jsonl"
    path.write_text(
        '{"id": "a", "contents": "", '
        '"vector": {"x": 2.9, "y": 1.5, "z": 0.99, "w": -3, "v": "4"}}\n'
        '{"id": 7, "vector": {}}\n'
    )
    ids, labelled = read_json_vectors(path)
    assert ids == ["a", "7"]
    dense = dict(zip(labelled.terms.to_pylist(), labelled.matrix.toarray()[0], strict=True))
    assert {t: w for t, w in dense.items() if w} == {"x": 2, "y": 1, "v": 4}
    assert labelled.matrix[1].nnz == 0
    assert [as_int(v, "-") for v in (True, 3, -2.7, " 12 ", "x1")] == [1, 3, -2, 12, 0]


def test_bad_vector_files_are_named(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": "a", "vector": {"x": 1}}\n{"id": "b", "vec": {}}\n')
    with pytest.raises(DataError, match=r"docs.jsonl:2: not a JSON vector line"):
        read_json_vectors(path)
    path.write_text('{"id": "a", "vector": {"x": NaN}}\n')
    with pytest.raises(DataError, match="not a finite number"):
        read_json_vectors(path)
    topics = tmp_path / "topics.tsv"
    topics.write_text("q1 no tab here\n")
    with pytest.raises(DataError, match="topics.tsv:1: a topic line is 'qid<TAB>tokens'"):
        read_repeated_token_queries(topics)
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="no .json, .jsonl or .jsonl.gz vector files"):
        read_json_vectors(tmp_path / "empty")


def test_repeated_tokens_are_the_query_weights(tmp_path):
    topics = tmp_path / "topics.tsv"
    topics.write_text("1\tup up up there\n2\t\n")
    ids, labelled = read_repeated_token_queries(topics)
    assert ids == ["1", "2"]
    assert labelled.terms.to_pylist() == ["there", "up"]
    assert sp.csr_matrix(labelled.matrix).toarray().tolist() == [[1, 3], [0, 0]]


def test_kind_vectors_searches_the_files_as_anserini_through_every_stage(tmp_path):
    """kind: vectors (the files Anserini indexed) through every stage (run_pair): the
    run's documents and scores are Anserini's, its nDCG@10 and MAP Anserini's run's."""
    from tests.conftest import run_stages

    files = run_stages(
        SHARED / "data" / "adi",
        tmp_path,
        model={
            "kind": "vectors",
            "documents": str(DATA / "docs.jsonl.gz"),
            "queries": str(DATA / "queries.tsv.gz"),
        },
    )
    ours = run_lines(files.run)
    anserini = run_lines(DATA / "run.trec.gz")
    assert ours.keys() == anserini.keys()
    assert all(float(ours[key]) == float(anserini[key]) for key in anserini)
    metrics = json.loads(files.metrics.read_text())
    assert metrics["nDCG@10"] == pytest.approx(0.3949902229146711, abs=1e-12)
    assert metrics["MAP"] == pytest.approx(0.3217036281751095, abs=1e-12)


def test_kind_vectors_names_missing_files(tmp_path):
    datasets = {"adi": {"source": "local", "path": str(SHARED / "data" / "adi")}}
    model = {"kind": "vectors", "documents": str(tmp_path / "nope.jsonl"), "queries": "q.tsv"}
    with pytest.raises(ConfigError, match=r"no vector file or folder .*nope.jsonl \(documents\)"):
        validate_config({"datasets": datasets, "models": {"m": model}})


def test_an_id_with_two_vectors_is_named(tmp_path):
    from sparsebench.encode.json_vectors import VectorFileEncoder

    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": "a", "vector": {"x": 1}}\n{"id": "a", "vector": {"y": 2}}\n')
    with pytest.raises(DataError, match="id 'a' has two vectors"):
        VectorFileEncoder(str(path), "documents").encode(["a"])
    path.write_text('{"id": "a", "vector": {"x": 3}}\n')
    encoded = VectorFileEncoder(str(path), "documents").encode(["b", "a"])
    assert encoded.matrix.toarray().tolist() == [[0], [3]]
