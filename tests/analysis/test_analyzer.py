"""The BM25 analyzer: Lucene's tokens, stopwords, stemmers, and its settings (the
token-for-token checks against Lucene are in test_lucene_analysis.py)."""

from __future__ import annotations

import pytest

from sparsebench.analysis.analyzer import Analyzer
from sparsebench.analysis.en.analyzer import LUCENE_ENGLISH_STOPWORDS
from sparsebench.analysis.settings import resolve_analyzer
from sparsebench.core.errors import ConfigError


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


def test_porter_is_lucenes_and_english_is_snowball():
    text = "generously skies dying news us technology"
    assert Analyzer(stemmer="porter").analyze(text) == [
        "gener", "ski", "dy", "new", "us", "technolog"
    ]  # fmt: skip
    assert Analyzer(stemmer="english").analyze(text) == [
        "generous", "sky", "die", "news", "us", "technolog"
    ]  # fmt: skip


def test_auto_is_the_analyzer_anserini_gives_the_language():
    assert resolve_analyzer({}, "en") == {"lucene": "en"}
    assert resolve_analyzer({}, "vi") == {"lucene": "en"}  # DefaultEnglishAnalyzer outside the map
    assert resolve_analyzer({}, "sw") == {"lucene": "sw"}  # WhitespaceAnalyzer
    assert resolve_analyzer({"lucene": "sw"}, "en") == {"lucene": "sw"}
    # in Anserini's map but not ported (Morfologik): the composed chain
    assert resolve_analyzer({}, "pl")["lucene"] == "none"
    # any composing setting composes a chain, its other settings the language's defaults
    assert resolve_analyzer({"tokenizer": "cjk"}, "en") == {
        "lucene": "none",
        "tokenizer": "cjk",
        "stopwords": "lucene",
        "stemmer": "porter",
        "possessive": True,
    }
    assert resolve_analyzer({"lowercase": False}, "en")["lucene"] == "none"
    text = "no.1 results:in U.S. 1,000 \u00a9"
    assert Analyzer().analyze(text) == ["1", "results:in", "u.", "1,000", "\u00a9"]
    assert Analyzer(lucene="en").analyze(text) == Analyzer().analyze(text)
    for former in ("regex", "words"):
        with pytest.raises(ConfigError, match="tokenizer must be one of standard, cjk"):
            Analyzer(tokenizer=former)


def test_a_lucene_analyzer_takes_no_chain_settings_and_must_exist():
    with pytest.raises(
        ConfigError, match="lucene: en is a whole Lucene analyzer; it takes no stemmer"
    ):
        resolve_analyzer({"lucene": "en", "stemmer": "english"}, "en")
    with pytest.raises(
        ConfigError, match="'xx' is not a Lucene analyzer here; they are: auto, none"
    ):
        resolve_analyzer({"lucene": "xx"}, "en")


def test_whitespace_analyzer_splits_at_java_whitespace_only():
    """Expected tokens from Lucene 9.9.1's WhitespaceAnalyzer (Java 17): no-break spaces
    (U+00A0, U+2007) do not split, U+3000 and vertical tab do, nothing is lowercased, and
    a run is cut every 255 code units."""
    analyzer = Analyzer(lucene="sw")
    text = "Habari  ya\tasubuhi\u00a0Bw. JUMA\u2007x\u3000y\x0bz"
    assert analyzer.analyze(text) == ["Habari", "ya", "asubuhi\u00a0Bw.", "JUMA\u2007x", "y", "z"]
    assert [len(t) for t in analyzer.analyze("a" * 600)] == [255, 255, 90]
    # 'a' and 127 emoji fill 255 code units: the token ends there
    assert [len(t) for t in analyzer.analyze("a" + "\U0001f600" * 128)] == [128, 1]


def test_cjk_tokenizer_bigrams_unspaced_runs_and_tokenizes_the_rest_as_lucene():
    analyzer = Analyzer(**resolve_analyzer({"tokenizer": "cjk"}, "zh"))
    text = "BM25 在中文检索 (Lucene 9.9) don't 很好"
    assert analyzer.analyze(text) == [
        "bm25", "lucene", "9.9", "don't", "在中", "中文", "文检", "检索", "很好"
    ]  # fmt: skip
    batch = analyzer.analyze_batch(["很好 a", "x", "好"])
    terms = batch.terms.to_pylist()
    pairs = [(int(i), terms[t]) for i, t in zip(batch.text_index, batch.term_ids, strict=True)]
    assert pairs == [(0, "a"), (0, "很好"), (1, "x"), (2, "好")]


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
