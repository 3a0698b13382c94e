"""Which Lucene analyzer each language gets (as Anserini picks it), and the module here
that builds it."""

from __future__ import annotations

from sparsebench.encode.lucene.chains import Chain
from sparsebench.errors import ConfigError

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
    **dict.fromkeys(("da", "fi", "hu", "nl", "no", "ru", "sv", "tr"), "snowball"),
    **dict.fromkeys(("de", "es", "fr", "it", "pt", "id"), "light_stemmers"),
    "ja": "japanese",
    **dict.fromkeys(("ar", "fa"), "arabic_script"),
    **dict.fromkeys(("hi", "bn", "te"), "indic"),
    **dict.fromkeys(("zh", "ko"), "cjk"),
    "th": "thai",
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
    """The Lucene analyzer of a language (one of MODULES). Its module is imported here,
    by name, so that it loads only when asked for and the stages' code digests
    (workflow.codehash) follow every analyzer."""
    if language not in MODULES:
        raise ConfigError(
            f"no Lucene analyzer for language {language!r}; the analyzers are: "
            f"{', '.join(sorted(MODULES))}"
        )
    module = MODULES[language]
    if module == "english":
        from sparsebench.encode.lucene import english as builder
    elif module == "whitespace":
        from sparsebench.encode.lucene import whitespace as builder
    elif module == "snowball":
        from sparsebench.encode.lucene import snowball as builder
    elif module == "japanese":
        from sparsebench.encode.lucene import japanese as builder
    elif module == "arabic_script":
        from sparsebench.encode.lucene import arabic_script as builder
    elif module == "indic":
        from sparsebench.encode.lucene import indic as builder
    elif module == "cjk":
        from sparsebench.encode.lucene import cjk as builder
    elif module == "thai":
        from sparsebench.encode.lucene import thai as builder
    else:
        from sparsebench.encode.lucene import light_stemmers as builder
    return builder.chain(language)
