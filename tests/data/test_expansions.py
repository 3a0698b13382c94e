"""Document expansion from files (`expansions:`): BM25 over ADI with doc2query-style
expansions equals Anserini 1.7.1's run over the same expanded collection
(data/README.md), in both layouts; the checksum in corpus.json; the refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import shared_path
from support.anserini_runs import assert_run_matches_anserini
from support.expansions import write_adi_expansions

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.core.fileio import file_digest, read_json
from sparsebench.data.corpora import corpus_identity
from sparsebench.pair import run_pair
from sparsebench.runs.runfile import read_run
from sparsebench.workflow.config import validate_config

DATA = Path(__file__).parent / "data"
BM25 = {"kind": "bm25", "statistics": "lucene"}


@pytest.fixture(scope="module")
def expansions(tmp_path_factory):
    return write_adi_expansions(tmp_path_factory.mktemp("expansions"))


def adi(**expansions) -> dict:
    return {"source": "local", "path": str(shared_path("data", "adi")), "expansions": expansions}


@pytest.mark.parametrize(
    ("layout", "settings", "reference"),
    [("jsonl", {"format": "jsonl", "count": 2}, "jsonl2"), ("lines", {}, "lines")],
)
def test_runs_equal_anserinis(tmp_path, expansions, layout, settings, reference):
    files = run_pair(adi(path=str(expansions[layout]), **settings), BM25, tmp_path)
    compared = assert_run_matches_anserini(
        read_run(files.run), DATA / f"anserini_d2q_adi.{reference}.trec.gz"
    )
    assert compared > 2000
    corpus = read_json(files.corpus / "corpus.json")
    assert corpus["source"]["expansions"] == file_digest(expansions[layout])


def test_an_expanded_corpus_is_a_corpus_of_its_own(expansions):
    plain = {"source": "local", "path": str(shared_path("data", "adi"))}
    config = validate_config(
        {"datasets": {"a": plain, "b": adi(path=str(expansions["lines"]))}, "models": {"m": BM25}}
    )
    identities = [corpus_identity(config["datasets"][d]) for d in ("a", "b")]
    assert identities[0] != identities[1]
    assert identities[1]["expansions"]["path"] == str(expansions["lines"])


def test_refusals(tmp_path, expansions):
    for entry, message in [
        (adi(path=str(tmp_path / "nope.jsonl")), "expansions.path: no expansions file"),
        (adi(path=str(expansions["lines"]), count=2), "expansions.count: count keeps"),
        (adi(path=str(expansions["lines"]), format="csv"), "format"),
    ]:
        with pytest.raises(ConfigError, match=message):
            validate_config({"datasets": {"d": entry}, "models": {"m": BM25}})
    short = tmp_path / "short.txt"
    short.write_text("".join(expansions["lines"].read_text().splitlines(True)[:10]))
    with pytest.raises(DataError, match="expansions for 10 documents; the corpus has more"):
        run_pair(adi(path=str(short)), BM25, tmp_path / "short")
    long = tmp_path / "long.txt"
    long.write_text(expansions["lines"].read_text() + "one more\n")
    with pytest.raises(DataError, match="for more documents than the corpus"):
        run_pair(adi(path=str(long)), BM25, tmp_path / "long")
    records = expansions["jsonl"].read_text().splitlines(True)
    shuffled = tmp_path / "shuffled.jsonl"
    shuffled.write_text("".join([records[3], *records[:3], *records[4:]]))
    with pytest.raises(DataError, match=r"expansions of '\d+' match no document"):
        run_pair(adi(path=str(shuffled), format="jsonl"), BM25, tmp_path / "shuffled")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "1", "queries": ["x"]}) + "\n")
    with pytest.raises(DataError, match="no list of predictions under 'predicted_queries'"):
        run_pair(adi(path=str(bad), format="jsonl"), BM25, tmp_path / "bad")
