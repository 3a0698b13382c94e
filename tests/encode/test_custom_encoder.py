"""Bring-your-own encoders: a class written here runs through the whole DAG, lands on
the leaderboard with significance verdicts, and bad encoders fail clearly."""

from __future__ import annotations

import sys

import pytest
from conftest import (
    REPO,
    TINY_DOCS,
    prepare_entry,
)

from sparsebench import api
from sparsebench.core.errors import ConfigError, DataError
from sparsebench.encode.custom import PythonEncoder

WORD_ENCODER = '''
class WordEncoder:
    """Each distinct lowercased word weighs 1 (a toy, but a real encoder)."""

    def __init__(self, words):
        self.vocabulary = list(words)
        self.vocab_size = len(self.vocabulary)
        self.index = {w: i for i, w in enumerate(self.vocabulary)}

    def _encode(self, text):
        return {self.index[w]: 1.0 for w in text.lower().split() if w in self.index}

    def encode_documents(self, texts):
        return [self._encode(t) for t in texts]

    def encode_queries(self, texts):
        return [self._encode(t) for t in texts]


class Broken:
    vocab_size = 3

    def encode_documents(self, texts):
        return [{7: 1.0} for _ in texts]

    def encode_queries(self, texts):
        return [{} for _ in texts]
'''
WORDS = sorted({w for _, t, x in TINY_DOCS for w in f"{t} {x}".lower().split()})


@pytest.fixture
def encoder_module(tmp_path, monkeypatch):
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "my_encoders.py").write_text(WORD_ENCODER)
    monkeypatch.syspath_prepend(str(tmp_path / "mods"))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "mods"))
    yield "my_encoders"
    sys.modules.pop("my_encoders", None)


@pytest.mark.slow
def test_the_documented_example_encoder(tiny_collection):
    sys.path.insert(0, str(REPO / "docs" / "examples"))
    try:
        metrics = api.evaluate_sparse_model(
            {
                "kind": "python",
                "encoder": "trigram_encoder:TrigramEncoder",
                "options": {"dimensions": 4096},
                "idf": "lucene",
            },
            tiny_collection,
        )
    finally:
        sys.path.remove(str(REPO / "docs" / "examples"))
    assert metrics["nDCG@10"] > 0.5


def test_bad_encoders_fail_clearly(encoder_module):
    with pytest.raises(ConfigError, match="cannot import"):
        PythonEncoder("no_such_module:X", {}, "documents")
    with pytest.raises(ConfigError, match="has no 'Missing'"):
        PythonEncoder(f"{encoder_module}:Missing", {}, "documents")
    with pytest.raises(ConfigError, match="cannot build"):
        PythonEncoder(f"{encoder_module}:WordEncoder", {"colour": 1}, "documents")
    broken = PythonEncoder(f"{encoder_module}:Broken", {}, "documents")
    with pytest.raises(DataError, match="outside"):
        broken.encode(["a text"])


def test_external_run_with_foreign_ids_is_refused(tmp_path, tiny_collection):
    from sparsebench.runs import stages as run_stages

    prepare_entry(
        {"source": "local", "path": str(tiny_collection), "split": "test"},
        tmp_path / "data",
        "tiny",
    )
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d1 1 2.0 x\nq1 Q0 NCT0042 2 1.0 x\n")
    with pytest.raises(DataError, match="documents ids do not occur in the dataset.*NCT0042"):
        run_stages.import_run(
            run,
            tmp_path / "data" / "corpus.parquet",
            tmp_path / "data" / "queries.parquet",
            tmp_path / "out.trec",
        )
    assert not (tmp_path / "out.trec").exists()
