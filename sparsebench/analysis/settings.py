"""What an analyzer's settings resolve to, without building it: the config's checks and
the plan (the Snakefile's process) read these, and pay for no tokenizer's code."""

from __future__ import annotations

import Stemmer

from sparsebench.analysis.languages import PORTED, anserini_language
from sparsebench.core.errors import ConfigError

MAX_LENGTH = 512  # Anserini's maxLength: its DJL tokenizer cuts every text there
# standard = Lucene's StandardTokenizer; cjk = the same, with runs of unspaced scripts as
# character bigrams.
TOKENIZERS = ("standard", "cjk")
UNSPACED_LANGUAGES = frozenset({"zh", "ja", "ko", "th", "lo", "km", "my"})
# ISO 639-1 -> stemmer: 'porter' is Lucene's Porter stemmer (lucene/porter.py), the others
# PyStemmer's Snowball algorithms.
STEMMERS = {
    "ar": "arabic",
    "hy": "armenian",
    "eu": "basque",
    "ca": "catalan",
    "da": "danish",
    "nl": "dutch",
    "en": "porter",
    "eo": "esperanto",
    "et": "estonian",
    "fi": "finnish",
    "fr": "french",
    "de": "german",
    "el": "greek",
    "hi": "hindi",
    "hu": "hungarian",
    "id": "indonesian",
    "ga": "irish",
    "it": "italian",
    "lt": "lithuanian",
    "ne": "nepali",
    "no": "norwegian",
    "nb": "norwegian",
    "nn": "norwegian",
    "pl": "polish",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sr": "serbian",
    "es": "spanish",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
    "uk": "ukrainian",
    "yi": "yiddish",
}


def stemmer_names() -> list[str]:
    """The stemmers an analyzer takes besides 'none'."""
    return sorted({"porter", *Stemmer.algorithms()})


_CHAIN_SETTINGS = ("stopwords", "stemmer", "tokenizer", "possessive")


def resolve_analyzer(settings: dict, language: str = "en") -> dict:
    """The analyzer a model's settings give a dataset in `language`: {"lucene": code}
    for a Lucene analyzer (with every other setting left at auto, `lucene: auto` is the
    one Anserini gives the language), else the chain the settings compose, its 'auto'
    settings the former defaults of the language (Snowball stemmer, no stopwords)."""
    lucene = settings.get("lucene", "auto")
    composed = [k for k in _CHAIN_SETTINGS if settings.get(k, "auto") != "auto"]
    if settings.get("lowercase", True) is not True:
        composed.append("lowercase")
    if settings.get("huggingface"):
        others = composed + (["lucene"] if lucene != "auto" else [])
        if others:
            raise ConfigError(
                f"analyzer: huggingface: {settings['huggingface']} is a whole analyzer (the "
                f"tokenizer's pieces); it takes no {', '.join(others)}"
            )
        return {
            "huggingface": settings["huggingface"],
            "max_length": settings.get("max_length", MAX_LENGTH),
        }
    if "max_length" in settings:
        raise ConfigError("analyzer: max_length applies to a huggingface tokenizer only")
    if lucene not in ("auto", "none") and composed:
        raise ConfigError(
            f"analyzer: lucene: {lucene} is a whole Lucene analyzer; it takes no "
            f"{', '.join(composed)} (set lucene: none to compose a chain)"
        )
    if lucene == "auto" and not composed:
        lucene = anserini_language(language) or "none"
    if lucene not in ("none", "auto") and lucene not in PORTED:
        raise ConfigError(
            f"analyzer: lucene: {lucene!r} is not a Lucene analyzer here; they are: "
            f"auto, none, {', '.join(sorted(PORTED))}"
        )
    if lucene not in ("none", "auto"):
        return {"lucene": lucene}
    resolved = {k: v for k, v in settings.items() if k != "lucene"}
    if resolved.get("stopwords", "auto") == "auto":
        resolved["stopwords"] = "lucene" if language == "en" else "none"
    if resolved.get("stemmer", "auto") == "auto":
        algorithm = STEMMERS.get(language, "none")
        resolved["stemmer"] = algorithm if algorithm in stemmer_names() else "none"
    if resolved.get("tokenizer", "auto") == "auto":
        resolved["tokenizer"] = "cjk" if language in UNSPACED_LANGUAGES else "standard"
    if resolved.get("possessive", "auto") == "auto":
        resolved["possessive"] = language == "en"
    return {"lucene": "none", **resolved}
