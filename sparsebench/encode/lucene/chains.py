"""The Chain an analyzer is, and the module that builds each language's (see __init__)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from sparsebench.errors import ConfigError


@dataclass(frozen=True)
class Chain:
    """One Lucene analyzer: its class, its two steps, and whether it is exact."""

    language: str
    lucene_class: str  # e.g. org.apache.lucene.analysis.de.GermanAnalyzer
    tokenize: Callable[[pa.Array], tuple[np.ndarray, pa.Array]]
    filter: Callable[[pa.Array], pa.Array]
    exact: bool = True  # token for token Lucene's (else: agreement measured, README)


_LUCENE = "org.apache.lucene.analysis."
# Anserini 1.7.1's AnalyzerMap (read from its bytecode): language -> Lucene analyzer.
ANSERINI_ANALYZERS = {
    language: _LUCENE + name
    for language, name in {
        "ar": "ar.ArabicAnalyzer", "bn": "bn.BengaliAnalyzer", "da": "da.DanishAnalyzer",
        "de": "de.GermanAnalyzer", "es": "es.SpanishAnalyzer", "fa": "fa.PersianAnalyzer",
        "fi": "fi.FinnishAnalyzer", "fr": "fr.FrenchAnalyzer", "hi": "hi.HindiAnalyzer",
        "hu": "hu.HungarianAnalyzer", "id": "id.IndonesianAnalyzer",
        "it": "it.ItalianAnalyzer", "ja": "ja.JapaneseAnalyzer", "ko": "cjk.CJKAnalyzer",
        "nl": "nl.DutchAnalyzer", "no": "no.NorwegianAnalyzer",
        "pl": "morfologik.MorfologikAnalyzer", "pt": "pt.PortugueseAnalyzer",
        "ru": "ru.RussianAnalyzer", "sv": "sv.SwedishAnalyzer", "te": "te.TeluguAnalyzer",
        "th": "th.ThaiAnalyzer", "tr": "tr.TurkishAnalyzer",
        "uk": "uk.UkrainianMorfologikAnalyzer", "zh": "cjk.CJKAnalyzer",
    }.items()
}  # fmt: skip
# Languages Anserini's IndexCollection gives a WhitespaceAnalyzer.
WHITESPACE_LANGUAGES = ("ha", "so", "sw", "yo")
# Language -> the module whose `chain(language)` builds its analyzer here.
MODULES = {
    "en": "english",
    **dict.fromkeys(WHITESPACE_LANGUAGES, "whitespace"),
}


def anserini_language(language: str) -> str | None:
    """The language whose analyzer Anserini gives `language`: its own (AnalyzerMap, or
    the WhitespaceAnalyzer of ha, so, sw and yo), else English's DefaultEnglishAnalyzer.
    None when that analyzer is not ported here (then a dataset gets the composed chain,
    and its figures are not comparable with Anserini's)."""
    if language in ANSERINI_ANALYZERS or language in WHITESPACE_LANGUAGES:
        return language if language in MODULES else None
    return "en"


def analyzer_name(language: str) -> str:
    """The Lucene analyzer of a ported language by its class's short name, as tables of
    published figures name it (DefaultEnglishAnalyzer, GermanAnalyzer, ...)."""
    if language == "en":
        return "DefaultEnglishAnalyzer"
    if language in WHITESPACE_LANGUAGES:
        return "WhitespaceAnalyzer"
    return ANSERINI_ANALYZERS[language].rsplit(".", 1)[1]


def analyzer_label(resolved: dict) -> str:
    """A resolved analyzer by name: the Lucene class's short name, or the composed
    chain's settings (never a Lucene analyzer's name: it is not one)."""
    if resolved.get("lucene", "none") != "none":
        return analyzer_name(resolved["lucene"])
    stopwords = resolved.get("stopwords")
    words = stopwords if isinstance(stopwords, str) else f"{len(stopwords)} words"
    return (
        f"composed (tokenizer {resolved.get('tokenizer')}, stopwords {words}, "
        f"stemmer {resolved.get('stemmer')})"
    )


def chain(language: str) -> Chain:
    """The Lucene analyzer of a language (one of MODULES)."""
    if language not in MODULES:
        raise ConfigError(
            f"no Lucene analyzer for language {language!r}; the analyzers are: "
            f"{', '.join(sorted(MODULES))}"
        )
    module = importlib.import_module(f"sparsebench.encode.lucene.{MODULES[language]}")
    return module.chain(language)
