"""Lucene's analyzers, as Anserini picks them per language, token for token in Python.

Anserini (io.anserini.analysis.AnalyzerMap, 1.7.1, Lucene 9.9.1) analyzes a collection
of a language in its map with that language's Lucene analyzer, and any other language
with its DefaultEnglishAnalyzer; the published BM25 baselines (MIRACL, Mr. TyDi,
mMARCO) were made so. Each analyzer here is a `Chain` of two steps:

- `tokenize`: a batch of texts -> tokens (text index per token, token strings), the
  tokenizer and every filter that needs more than the token itself (its neighbours, its
  type, its part of speech: CJK bigrams, Japanese base forms);
- `filter`: the distinct tokens of a batch -> their terms, "" for a dropped token
  (lowercasing, normalisation, elision, stopwords, stemming), in Lucene's order.

BM25 counts terms, so a chain need not keep positions. Filtering distinct tokens only
keeps per-token Python affordable: a batch of 20,000 texts has far fewer distinct
tokens than tokens.
"""

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


# Language -> the module whose `chain(language)` builds its analyzer. The languages of
# AnalyzerMap (ko and zh are CJKAnalyzer there) and English.
MODULES = {
    "en": "english",
    **dict.fromkeys(("da", "fi", "hu", "nl", "no", "ru", "sv", "tr"), "snowball"),
    **dict.fromkeys(("de", "es", "fr", "it", "pt", "id"), "light_stemmers"),
    **dict.fromkeys(("ar", "fa"), "arabic_script"),
    **dict.fromkeys(("hi", "bn", "te"), "indic"),
    **dict.fromkeys(("zh", "ko"), "cjk"),
    "ja": "japanese",
    "th": "thai",
}


def anserini_language(language: str) -> str:
    """The analyzer Anserini gives a language: its own, or English's outside the map."""
    return language if language in MODULES else "en"


def chain(language: str) -> Chain:
    """The Lucene analyzer of a language (one of MODULES)."""
    if language not in MODULES:
        raise ConfigError(
            f"no Lucene analyzer for language {language!r}; the analyzers are: "
            f"{', '.join(sorted(MODULES))}"
        )
    module = importlib.import_module(f"{__name__}.{MODULES[language]}")
    return module.chain(language)
