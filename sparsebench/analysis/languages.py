"""Every language's analyzer, one entry per language: the Lucene class Anserini gives it,
the module here that builds it, the data it reads, whether it is exact and its licence.

This table is the one place a language is named: `chain` builds an analyzer from it, the
reproduction check labels runs by it, and the docs' languages page is made from it
(`markdown_table`, read by docs/generate_reference.py).
Adding a language is a module (or a folder) with a `chain(language) -> Chain` and one
entry here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sparsebench.core.errors import ConfigError

if TYPE_CHECKING:
    from sparsebench.analysis.chains import Chain

LUCENE = "org.apache.lucene.analysis."
APACHE = "Apache-2.0"
THAI_LICENCE = "GPL-2.0-only WITH Classpath-exception-2.0 (OpenJDK's; analysis/th/NOTICE)"


@dataclass(frozen=True)
class Language:
    """One language: how Anserini 1.7.1 analyzes it, and how this package does."""

    code: str  # ISO 639-1
    lucene_class: str  # the analyzer's class, as Anserini builds it
    chain: str  # its tokenizer and filters, in order (the docs' words)
    builder: str | None  # the module whose chain(code) builds it; None: not ported
    data: tuple[str, ...] = ()  # the files under resources/lucene it reads
    exact: bool = True  # token for token Lucene's (tests/analysis hold it to Lucene)
    licence: str = APACHE  # of the module and data (the rest of sparsebench is MIT)
    # how Anserini picks it: AnalyzerMap, whitespace, default (English's), or never: a
    # Lucene analyzer Anserini gives no language (its datasets get DefaultEnglishAnalyzer,
    # as Anserini's do; `analyzer: {lucene: <code>}` picks it by name)
    anserini: str = "AnalyzerMap"

    @property
    def analyzer_name(self) -> str:
        """The class's short name, as tables of published figures name it."""
        return self.lucene_class.rsplit(".", 1)[1]


def _snowball(code: str, name: str, stop: str, chain: str = "") -> Language:
    return Language(
        code,
        f"{LUCENE}{code}.{name}Analyzer",
        chain or f"StandardTokenizer, LowerCase, Stop (Snowball list), Snowball {name}",
        "sparsebench.analysis.snowball.analyzer",
        (f"snowball/{stop}",),
    )


def _light(code: str, name: str, stop: str, chain: str) -> Language:
    return Language(
        code,
        f"{LUCENE}{code}.{name}Analyzer",
        chain,
        "sparsebench.analysis.light.analyzer",
        (f"light/{stop}",),
    )


def _whitespace(code: str) -> Language:
    return Language(
        code,
        f"{LUCENE}core.WhitespaceAnalyzer",
        "whitespace (Java's isWhitespace), 255-unit tokens; no lowercasing",
        "sparsebench.analysis.whitespace",
        anserini="whitespace",
    )


def _not_ported(code: str, lucene_class: str) -> Language:
    return Language(
        code,
        lucene_class,
        "not ported: the composed chain",
        None,
        exact=False,
        licence="-",
    )


_INDIC = (
    "StandardTokenizer, LowerCase, DecimalDigit, IndicNormalization, {0}Normalization, "
    "Stop, {0}Stem"
)
_CJK = (
    "StandardTokenizer, CJKWidth, LowerCase, CJKBigram (adjacent Han, Hiragana, Katakana, "
    "Hangul tokens), Stop"
)

LANGUAGES: dict[str, Language] = {
    entry.code: entry
    for entry in (
        Language(
            "en",
            "io.anserini.analysis.DefaultEnglishAnalyzer",
            "StandardTokenizer, EnglishPossessive, LowerCase, Stop (33 words), PorterStem",
            "sparsebench.analysis.en.analyzer",
            anserini="default",
        ),
        *(_whitespace(code) for code in ("ha", "so", "sw", "yo")),
        _snowball("da", "Danish", "danish_stop.txt"),
        replace(
            _snowball(
                "eu",
                "Basque",
                "eu_stopwords.txt",
                "StandardTokenizer, LowerCase, Stop (Lucene's list), Snowball Basque",
            ),
            anserini="never",
        ),
        _snowball("fi", "Finnish", "finnish_stop.txt"),
        _snowball("hu", "Hungarian", "hungarian_stop.txt"),
        _snowball(
            "nl",
            "Dutch",
            "dutch_stop.txt",
            "StandardTokenizer, LowerCase, Stop, StemmerOverride (fiets, bromfiets, ei, kind), "
            "Snowball Dutch",
        ),
        _snowball("no", "Norwegian", "norwegian_stop.txt"),
        _snowball("ru", "Russian", "russian_stop.txt"),
        _snowball("sv", "Swedish", "swedish_stop.txt"),
        _snowball(
            "tr",
            "Turkish",
            "tr_stopwords.txt",
            "StandardTokenizer, Apostrophe, TurkishLowerCase, Stop, Snowball Turkish",
        ),
        _light(
            "de",
            "German",
            "snowball/german_stop.txt",
            "StandardTokenizer, LowerCase, Stop, GermanNormalization, GermanLightStem",
        ),
        _light(
            "es",
            "Spanish",
            "snowball/spanish_stop.txt",
            "StandardTokenizer, LowerCase, Stop, SpanishLightStem",
        ),
        _light(
            "fr",
            "French",
            "snowball/french_stop.txt",
            "StandardTokenizer, Elision, LowerCase, Stop, FrenchLightStem",
        ),
        _light(
            "it",
            "Italian",
            "snowball/italian_stop.txt",
            "StandardTokenizer, Elision, LowerCase, Stop, ItalianLightStem",
        ),
        _light(
            "pt",
            "Portuguese",
            "snowball/portuguese_stop.txt",
            "StandardTokenizer, LowerCase, Stop, PortugueseLightStem",
        ),
        _light(
            "id",
            "Indonesian",
            "id/stopwords.txt",
            "StandardTokenizer, LowerCase, Stop, IndonesianStem (derivational)",
        ),
        Language(
            "ja",
            f"{LUCENE}ja.JapaneseAnalyzer",
            "CJKWidthCharFilter, JapaneseTokenizer (Kuromoji, IPADIC, search mode, compounds "
            "discarded), BaseForm, PartOfSpeechStop, Stop, KatakanaStem, LowerCase",
            "sparsebench.analysis.ja.analyzer",
            ("ja/kuromoji_ipadic_9.9.1.npz", "ja/stopwords.txt", "ja/stoptags.txt"),
        ),
        Language(
            "ar",
            f"{LUCENE}ar.ArabicAnalyzer",
            "StandardTokenizer, LowerCase, DecimalDigit, Stop, ArabicNormalization, ArabicStem",
            "sparsebench.analysis.scripts.arabic",
            ("scripts/ar/stopwords.txt",),
        ),
        Language(
            "fa",
            f"{LUCENE}fa.PersianAnalyzer",
            "PersianCharFilter (ZWNJ as space), StandardTokenizer, LowerCase, DecimalDigit, "
            "ArabicNormalization, PersianNormalization, Stop",
            "sparsebench.analysis.scripts.arabic",
            ("scripts/fa/stopwords.txt",),
        ),
        Language(
            "hi",
            f"{LUCENE}hi.HindiAnalyzer",
            _INDIC.format("Hindi"),
            "sparsebench.analysis.scripts.indic",
            ("scripts/hi/stopwords.txt",),
        ),
        Language(
            "bn",
            f"{LUCENE}bn.BengaliAnalyzer",
            _INDIC.format("Bengali"),
            "sparsebench.analysis.scripts.indic",
            ("scripts/bn/stopwords.txt",),
        ),
        Language(
            "te",
            f"{LUCENE}te.TeluguAnalyzer",
            _INDIC.format("Telugu").replace("LowerCase, ", ""),
            "sparsebench.analysis.scripts.indic",
            ("scripts/te/stopwords.txt",),
        ),
        *(
            Language(
                code,
                f"{LUCENE}cjk.CJKAnalyzer",
                _CJK,
                "sparsebench.analysis.scripts.cjk",
                ("scripts/cjk/stopwords.txt",),
            )
            for code in ("zh", "ko")
        ),
        Language(
            "th",
            f"{LUCENE}th.ThaiAnalyzer",
            "ThaiTokenizer (the JDK's sentence and Thai dictionary BreakIterators, ported with "
            "Java 21's tables and the JDK's 31,992-word dictionary), LowerCase, DecimalDigit, "
            "Stop (115 words)",
            "sparsebench.analysis.th.analyzer",
            ("th/break_iterator_jdk21.npz", "th/thai_dict.txt.gz", "th/stopwords.txt"),
            licence=THAI_LICENCE,
        ),
        _not_ported("pl", f"{LUCENE}morfologik.MorfologikAnalyzer"),
        _not_ported("uk", f"{LUCENE}uk.UkrainianMorfologikAnalyzer"),
    )
}

PORTED = tuple(code for code, entry in LANGUAGES.items() if entry.builder)
WHITESPACE_LANGUAGES = tuple(c for c, e in LANGUAGES.items() if e.anserini == "whitespace")
# Anserini 1.7.1's AnalyzerMap (read from its bytecode): language -> Lucene analyzer.
ANSERINI_ANALYZERS = {
    code: entry.lucene_class for code, entry in LANGUAGES.items() if entry.anserini == "AnalyzerMap"
}


def anserini_language(language: str) -> str | None:
    """The language whose analyzer Anserini gives `language`: its own (AnalyzerMap, or
    the WhitespaceAnalyzer of ha, so, sw and yo), else (Basque too: Lucene has an
    analyzer Anserini does not pick) English's DefaultEnglishAnalyzer.
    None when that analyzer is not ported here (then a dataset gets the composed chain,
    and its figures are not comparable with Anserini's)."""
    entry = LANGUAGES.get(language)
    if entry is None or entry.anserini == "never":
        return "en"
    return language if entry.builder else None


def analyzer_name(language: str) -> str:
    """The Lucene analyzer of a language by its class's short name, as tables of
    published figures name it (DefaultEnglishAnalyzer, GermanAnalyzer, ...)."""
    return LANGUAGES[language].analyzer_name


def analyzer_label(resolved: dict) -> str:
    """A resolved analyzer by name: the Lucene class's short name, or the composed
    chain's settings (never a Lucene analyzer's name: it is not one)."""
    if "huggingface" in resolved:
        return f"Hugging Face tokenizer {resolved['huggingface']}"
    if resolved.get("lucene", "none") != "none":
        return analyzer_name(resolved["lucene"])
    stopwords = resolved.get("stopwords")
    words = stopwords if isinstance(stopwords, str) else f"{len(stopwords)} words"
    return (
        f"composed (tokenizer {resolved.get('tokenizer')}, stopwords {words}, "
        f"stemmer {resolved.get('stemmer')})"
    )


def chain(language: str) -> Chain:
    """The Lucene analyzer of a ported language. Its module is imported only when asked
    for; the stages' code digests (workflow.codehash) follow the module names above."""
    if language not in PORTED:
        raise ConfigError(
            f"no Lucene analyzer for language {language!r}; the analyzers are: "
            f"{', '.join(sorted(PORTED))}"
        )
    return importlib.import_module(LANGUAGES[language].builder).chain(language)


def markdown_table() -> str:
    """The docs' language table: one row per language, made from LANGUAGES."""
    rows = [
        "| language | Lucene analyzer (Anserini) | chain | here | licence |",
        "|---|---|---|---|---|",
    ]
    for code, entry in LANGUAGES.items():
        label = "en, and any language not listed" if code == "en" else code
        here = "exact" if entry.exact else "not comparable"
        name = entry.analyzer_name
        if entry.anserini == "never":
            label += " (`lucene: " + code + "`)"
            name += " (Anserini: none; the language gets DefaultEnglishAnalyzer)"
        rows.append(f"| {label} | {name} | {entry.chain} | {here} | {entry.licence} |")
    return "\n".join(rows)
