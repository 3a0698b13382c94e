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
    module = importlib.import_module(f"sparsebench.encode.lucene.{MODULES[language]}")
    return module.chain(language)
