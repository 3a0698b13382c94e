"""Multifield BM25 (`fields:`) as Anserini 1.7.1 scores it (`-fields title` at index time,
`-fields contents=1.0 title=1.0` at search): its runs on ADI and CACM
(data/anserini_multifield, with the commands) line for line; the per-field statistics by
hand; the options' errors."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from conftest import run_stages, shared_path
from support.anserini_runs import assert_run_matches_anserini

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.core.fileio import read_json
from sparsebench.encode.fields import column_fields
from sparsebench.encode.weighting import Weighting
from sparsebench.pair import run_pair
from sparsebench.runs.runfile import read_run
from sparsebench.workflow.config import validate_config

DATA = Path(__file__).parent / "data" / "anserini_multifield"


def multifield(title: float = 1.0) -> dict:
    return {"kind": "bm25", "fields": {"contents": 1.0, "title": title}, "statistics": "lucene"}


@pytest.mark.parametrize(
    ("collection", "title", "reference"),
    [
        ("adi", 1.0, "adi.mf.trec.gz"),
        ("adi", 0.5, "adi.mf-t05.trec.gz"),
        ("cacm", 1.0, "cacm.mf.trec.gz"),
    ],
)
def test_runs_equal_anserinis(tmp_path, collection, title, reference):
    """Every line of Anserini's run is in ours with the score it prints; ours ranks the
    same documents, but where Anserini's printed scores tie. CACM's title-only
    documents (a blank text) are in no field's statistics, as Anserini indexes none."""
    dataset = {"source": "local", "path": str(shared_path("data", collection))}
    run = read_run(run_pair(dataset, multifield(title), tmp_path).run)
    assert assert_run_matches_anserini(run, DATA / reference, remove_query=True) > 2000


def test_field_statistics_by_hand(tmp_path):
    """N, avgdl and the IDF per field, from the analyzed fields of a tiny corpus."""
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "corpus.jsonl").write_text(
        '{"_id": "a", "title": "solar power", "text": "solar panels on roofs"}\n'
        '{"_id": "b", "title": "", "text": "wind turbines"}\n'
        '{"_id": "c", "title": "tides", "text": " "}\n'  # blank text: not indexed
        '{"_id": "d", "title": "solar", "text": "moon"}\n',
        encoding="utf-8",
    )
    (corpus / "queries.jsonl").write_text('{"_id": "q", "text": "solar moon"}\n', encoding="utf-8")
    (corpus / "qrels").mkdir()
    (corpus / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq\ta\t1\n")
    out = run_stages(corpus, tmp_path / "out", multifield(0.5), shard_size=2)
    stats = read_json(out.weights / "term_stats.json")
    # contents: a (4 terms: solar panel roof + "on" is a stopword -> 3), b (2), d (1)
    assert stats["fields"]["contents"] == {"n_docs": 3, "avg_length": 2.0}
    # title: a (2), d (1); b has none, c is not indexed
    assert stats["fields"]["title"] == {"n_docs": 2, "avg_length": 1.5}
    vocabulary = (out.encoded / "vocab.txt").read_text().split()
    idf = dict(zip(vocabulary, np.load(out.weights / "idf.npy"), strict=True))
    assert idf["title:solar"] == pytest.approx(math.log1p((2 - 2 + 0.5) / (2 + 0.5)))
    assert idf["contents:solar"] == pytest.approx(math.log1p((3 - 1 + 0.5) / (1 + 0.5)))
    run = read_run(out.run)
    scores = dict(zip(run["doc_id"], run["score"], strict=True))
    # d: moon in contents (tf 1, dl 1, avgdl 2) + 0.5 x solar in title (tf 1, dl 1, avgdl 1.5)
    contents = idf["contents:moon"] * 1 / (1 + 0.9 * (1 - 0.4 + 0.4 * 1 / 2.0))
    title = 0.5 * idf["title:solar"] * 1 / (1 + 0.9 * (1 - 0.4 + 0.4 * 1 / 1.5))
    assert scores["d"] == pytest.approx(contents + title, rel=1e-6)
    assert "c" not in scores


def test_refused_settings(tmp_path):
    dataset = {"d": {"source": "local", "path": str(tmp_path)}}
    for model, message in [
        ({"kind": "bm25", "fields": {"body": 1.0}}, "body"),
        ({"kind": "bm25", "fields": {"title": 0}}, "title"),
        ({"kind": "bm25", "fields": {}}, "fields"),
        ({"kind": "tfidf", "fields": {"title": 1.0}}, "fields"),
    ]:
        with pytest.raises(ConfigError, match=message):
            validate_config({"datasets": dataset, "models": {"m": model}})
    with pytest.raises(ConfigError, match="fields are weighed by BM25 only"):
        Weighting(kind="tf", idf="classic", fields=("title",))
    with pytest.raises(DataError, match="columns of no field among contents, title"):
        column_fields(pa.array(["contents:a", "solar"]), ["contents", "title"])


@pytest.mark.slow
def test_scifact_reproduces_the_published_multifield_row(tmp_path):
    """Anserini 1.7.1's beir-v1.0.0-scifact.multifield: nDCG@10 0.6647, R@100 0.9076."""
    dataset = {"source": "local", "path": str(shared_path("data", "beir-scifact"))}
    metrics = read_json(run_pair(dataset, multifield(), tmp_path).metrics)
    assert round(metrics["nDCG@10"], 4) == 0.6647
    assert round(metrics["Recall@100"], 4) == 0.9076
