"""The BM25 analyzer: Lucene-like tokens, stopwords, stemmers, and its settings."""

from __future__ import annotations

import pytest

from sparsebench.analysis import LUCENE_ENGLISH_STOPWORDS, Analyzer
from sparsebench.errors import ConfigError


def test_tokens_follow_lucene_english_analyzer():
    text = "The patient's U.S.A. trial: don't 3.14 mg, 1,000 cells; T-cells (CD4+) café"
    assert Analyzer().analyze(text) == [
        "patient",
        "u.s.a",
        "trial",
        "don't",
        "3.14",
        "mg",
        "1,000",
        "cell",
        "t",
        "cell",
        "cd4",
        "café",
    ]


def test_stopwords_and_stemmers_are_configurable():
    text = "The studies are running"
    assert Analyzer(stemmer="porter").analyze(text) == ["studi", "run"]
    assert Analyzer(stemmer="english").analyze(text) == ["studi", "run"]
    assert Analyzer(stemmer="none").analyze(text) == ["studies", "running"]
    assert Analyzer(stopwords="none", stemmer="none").analyze(text) == [
        "the",
        "studies",
        "are",
        "running",
    ]
    assert Analyzer(stopwords=["studies"], stemmer="none").analyze(text) == [
        "the",
        "are",
        "running",
    ]
    assert Analyzer(lowercase=False, stopwords="none", stemmer="none").analyze("Big DATA") == [
        "Big",
        "DATA",
    ]
    assert len(LUCENE_ENGLISH_STOPWORDS) == 33


def test_batch_analysis_keeps_text_boundaries():
    batch = Analyzer().analyze_batch(["solar power", "", "the of and", "power of the sun"])
    terms = batch.terms.to_pylist()
    pairs = [(int(i), terms[t]) for i, t in zip(batch.text_index, batch.term_ids, strict=True)]
    assert pairs == [(0, "solar"), (0, "power"), (3, "power"), (3, "sun")]
    assert batch.n_texts == 4
    assert terms == sorted(terms)


def test_unknown_stemmer_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown stemmer 'klingon'"):
        Analyzer(stemmer="klingon")
