"""Lucene 9.9.1's Snowball-stemmed analyzers: DanishAnalyzer, FinnishAnalyzer,
HungarianAnalyzer, DutchAnalyzer, NorwegianAnalyzer, RussianAnalyzer, SwedishAnalyzer,
TurkishAnalyzer and BasqueAnalyzer, as Anserini builds them (the no-argument
constructor).

Their chains, read from the 9.9.1 bytecode (createComponents):

- da, fi, hu, no, ru, sv: StandardTokenizer, LowerCaseFilter, StopFilter over
  snowball/<language>_stop.txt (WordlistLoader.getSnowballWordSet), SnowballFilter with
  org.tartarus.snowball.ext.<Language>Stemmer;
- nl: the same with dutch_stop.txt, and between StopFilter and SnowballFilter a
  StemmerOverrideFilter over DutchAnalyzer's default dictionary (below): a token equal to
  one of its words becomes that word's stem and is marked a keyword, which SnowballFilter
  leaves alone;
- eu: the same with eu/stopwords.txt (WordlistLoader.getWordSet, '#' comments);
- tr: StandardTokenizer, ApostropheFilter, TurkishLowerCaseFilter, StopFilter over
  tr/stopwords.txt (WordlistLoader.getWordSet, '#' comments), SnowballFilter with
  TurkishStemmer.

Each adds a SetKeywordMarkerFilter only for a non-empty stem exclusion set, which the
default instance has not. Lucene generates its stemmers with Snowball 2.0.0; here they are
Snowball 2.0.0's own Python output (snowball/vendor/, written by snowball/regenerate.py
from the snowballstemmer 2.0.0 sdist), run on UTF-16 code units as Java runs them. Later
Snowball releases (PyStemmer's) stem Danish, Finnish, Norwegian and Swedish differently;
for Dutch, Russian and Turkish PyStemmer's C stemmers give the same stems on words of the
BMP without an apostrophe, and for Hungarian on those words too but for the ones whose
region R1 Snowball 3 marks differently (PYSTEMMER_SKIPS): PyStemmer takes the rest
(SAME_IN_PYSTEMMER). A language's stems are remembered across batches (the cache
restarts past a million words). The stemmers look their suffixes up in dicts instead of
the generated runtime's binary search, and Finnish's tidying step is in closed form
(snowball/fast_runtime.py).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

import pyarrow as pa
import pyarrow.compute as pc
import Stemmer

from sparsebench.analysis.batch_tokens import standard_tokens
from sparsebench.analysis.chains import Chain
from sparsebench.analysis.code_units import from_units, to_units
from sparsebench.analysis.filters import (
    EMPTY_TERM,
    Filter,
    chained,
    lowercase,
    matching,
    only,
    remembering_all,
    snowball_word_set,
    stop,
    word_set,
)
from sparsebench.analysis.languages import LANGUAGES
from sparsebench.analysis.snowball.fast_runtime import (
    BasqueStemmer,
    DanishStemmer,
    DutchStemmer,
    FinnishStemmer,
    HungarianStemmer,
    NorwegianStemmer,
    RussianStemmer,
    SwedishStemmer,
    TurkishStemmer,
    grouping,
)
from sparsebench.analysis.snowball.vendor.basestemmer import BaseStemmer
from sparsebench.core.errors import ConfigError

# DutchAnalyzer.DefaultSetHolder.DEFAULT_STEM_DICT (constants in the class, not a file):
# token -> its stem, put in this order in a CharArrayMap (ignoreCase false).
DUTCH_STEM_OVERRIDES = {"fiets": "fiets", "bromfiets": "bromfiets", "ei": "eier", "kind": "kinder"}

# language -> the stemmer of its analyzer (its stopword file: languages.LANGUAGES):
# Snowball 2.0.0's, with the among look-up of snowball/fast_runtime.py
STEMMERS: dict[str, type[BaseStemmer]] = {
    "eu": BasqueStemmer,
    "da": DanishStemmer,
    "fi": FinnishStemmer,
    "hu": HungarianStemmer,
    "nl": DutchStemmer,
    "no": NorwegianStemmer,
    "ru": RussianStemmer,
    "sv": SwedishStemmer,
    "tr": TurkishStemmer,
}


# The vowels of the Russian and Hungarian stemmers (their groupings `v`, with the bounds
# every call passes: test_snowball.py checks them in the source).
RUSSIAN_VOWELS = "".join(sorted(grouping(RussianStemmer.g_v, 1072, 1103)))
HUNGARIAN_VOWELS = "".join(sorted(grouping(HungarianStemmer.g_v, 97, 369)))

# language -> regular expressions a word must all match for its stemmer to change it;
# other words (numbers, other scripts, ...) skip the stemmer. A Russian word without a
# vowel (or "\u0451", a vowel after the prelude) has no region RV, where every suffix the
# stemmer removes lies. Hungarian's stem routine is nine steps that each look a suffix up
# at the word's end (among tables 3 to 11, no empty suffix among them) before anything
# else, and check region R1 before changing the word: a word without a vowel has an empty
# R1, and a word whose last letter ends none of the suffixes fails every look-up.
# test_snowball.py checks these on random words.
HUNGARIAN_SUFFIXES = (
    HungarianStemmer.a_3, HungarianStemmer.a_4, HungarianStemmer.a_5, HungarianStemmer.a_6,
    HungarianStemmer.a_7, HungarianStemmer.a_8, HungarianStemmer.a_9, HungarianStemmer.a_10,
    HungarianStemmer.a_11,
)  # fmt: skip
_HUNGARIAN_ENDS = "".join(sorted({a.s[-1] for table in HUNGARIAN_SUFFIXES for a in table}))
_STEMMED_ONLY_WITH: dict[str, tuple[str, ...]] = {
    "ru": (f"[{RUSSIAN_VOWELS}\u0451]",),
    "hu": (f"[{HUNGARIAN_VOWELS}]", f"[{_HUNGARIAN_ENDS}]$"),
}
_OUTSIDE_BMP = re.compile("[\U00010000-\U0010ffff]")  # two UTF-16 code units each

# language -> the PyStemmer (Snowball C) algorithm that stems as Lucene's stemmer does
# every word of the BMP without an apostrophe (Java and C count a character outside the
# BMP differently) but those PYSTEMMER_SKIPS names. Snowball's changes to these scripts
# since 2.0.0 (git diff -w v2.0.0 v3.1.1) are rewrites that keep the result (Dutch's
# prelude, Turkish's stringdefs and vowel tests), Turkish's proper-noun suffix removal,
# which needs an apostrophe (ApostropheFilter has cut every Turkish token at its first
# one), and Hungarian's region R1 (below). Snowball 3's "dutch" is another algorithm;
# "dutch_porter" is the old one. The Danish, Finnish, Norwegian and Swedish scripts
# changed their results: those stay on Snowball 2.0.0's code. test_snowball.py compares
# the two on generated words.
SAME_IN_PYSTEMMER = {"hu": "hungarian", "nl": "dutch_porter", "ru": "russian", "tr": "turkish"}

# Hungarian's mark_regions in Snowball 2.0.0 (Lucene's): a word that starts with a vowel
# has R1 after its first non-vowel, or after the digraph (among table a_0: cs dzs gy ly ny
# sz ty zs) that starts there; Snowball 3 (commit 644e14e, "Simplify R1 definition")
# dropped the digraphs, so "ózstülben" keeps "ózstül" in Lucene and becomes "óz" in
# PyStemmer 3. The rule is the only change to hungarian.sbl from v2.0.0 to v3.1.1: every
# word it can touch (vowels, then a digraph) goes to the Snowball 2.0.0 code.
_HUNGARIAN_DIGRAPHS = "|".join(sorted((a.s for a in HungarianStemmer.a_0), key=len, reverse=True))
_OUTSIDE_BMP_OR_APOSTROPHE = "[\U00010000-\U0010ffff']"
PYSTEMMER_SKIPS = {
    "hu": re.compile(
        f"{_OUTSIDE_BMP_OR_APOSTROPHE}|^[{HUNGARIAN_VOWELS}]+(?:{_HUNGARIAN_DIGRAPHS})"
    ),
    "nl": re.compile(_OUTSIDE_BMP_OR_APOSTROPHE),
    "ru": re.compile(_OUTSIDE_BMP_OR_APOSTROPHE),
    "tr": re.compile(_OUTSIDE_BMP_OR_APOSTROPHE),
}


class SnowballStems:
    """SnowballFilter with one of Lucene's stemmers, over distinct tokens; `overrides`
    is a StemmerOverrideFilter before it (its tokens are not stemmed). The terms of a
    language's tokens are remembered across batches and chains (each language has one
    stemmer and one set of overrides). Where PyStemmer stems alike (SAME_IN_PYSTEMMER),
    its C stemmer takes the tokens PYSTEMMER_SKIPS does not match, Snowball 2.0.0's code
    the others."""

    _caches: dict[str, dict[str, str]] = {}

    def __init__(
        self, language: str, stemmer: type[BaseStemmer], overrides: dict[str, str] | None
    ) -> None:
        self._stemmer = stemmer()
        self._overrides = overrides or {}
        algorithm = SAME_IN_PYSTEMMER.get(language)
        self._library = Stemmer.Stemmer(algorithm) if algorithm else None
        self._skips = PYSTEMMER_SKIPS.get(language)
        self._filter = remembering_all(self.terms, SnowballStems._caches.setdefault(language, {}))

    def stem(self, token: str) -> str:
        """The term of a token (not ""), by Snowball 2.0.0's code on its UTF-16 code
        units: its override, or its stem."""
        if token in self._overrides:
            return self._overrides[token]
        if _OUTSIDE_BMP.search(token) is None:
            stemmed = self._stemmer.stemWord(token)
        else:
            stemmed = from_units(self._stemmer.stemWord(to_units(token)))
        return stemmed or EMPTY_TERM

    def terms(self, tokens: list[str]) -> list[str]:
        """The terms of distinct tokens ("" stays "")."""
        if self._library is None:
            return [self.stem(t) if t else "" for t in tokens]
        terms = self._library.stemWords(tokens)
        skips = self._skips.search
        for i, token in enumerate(tokens):
            if not token or token in self._overrides or skips(token):
                terms[i] = self.stem(token) if token else ""
            elif not terms[i]:
                terms[i] = EMPTY_TERM
        return terms

    def __call__(self, tokens: pa.Array) -> pa.Array:
        return self._filter(tokens)


def cut_at_apostrophe(tokens: pa.Array) -> pa.Array:
    """ApostropheFilter: a token ends before its first ' or ’ (Turkish suffixes follow
    an apostrophe after proper names: "Türkiye'de" -> "Türkiye")."""
    return pc.replace_substring_regex(tokens, pattern="['\u2019](?s:.*)", replacement="")


def turkish_lowercase(tokens: pa.Array) -> pa.Array:
    """TurkishLowerCaseFilter: "I" is dotless "ı" unless a U+0307 COMBINING DOT ABOVE
    follows it among the nonspacing marks after it, then it is "i" and those dots go;
    every other character takes its simple lowercase (LowerCaseFilter's, so "İ" -> "i")."""
    has_capital_i = pc.match_substring(tokens, "I")
    if pc.any(has_capital_i).as_py():
        fixed = [_turkish_capital_i(t) for t in pc.filter(tokens, has_capital_i).to_pylist()]
        tokens = pc.replace_with_mask(tokens, has_capital_i, pa.array(fixed, type=pa.string()))
    return lowercase(tokens)


def _turkish_capital_i(token: str) -> str:
    """The "I" part of TurkishLowerCaseFilter (the other characters are lowercased
    after, which cannot change it: nonspacing marks have no case)."""
    out = []
    after_i = False  # the filter's iOrAfter: on "I" and the nonspacing marks after it
    for i, ch in enumerate(token):
        after_i = ch == "I" or (after_i and unicodedata.category(ch) == "Mn")
        if after_i and ch == "\u0307":
            continue
        if ch == "I":
            if _before_dot(token, i + 1):
                out.append("i")
            else:
                out.append("\u0131")
                after_i = False
            continue
        out.append(ch)
    return "".join(out)


def _before_dot(token: str, start: int) -> bool:
    """TurkishLowerCaseFilter.isBeforeDot: a U+0307 among the nonspacing marks at start."""
    for ch in token[start:]:
        if unicodedata.category(ch) != "Mn":
            return False
        if ch == "\u0307":
            return True
    return False


def _matching_all(patterns: tuple[str, ...]) -> Callable[[pa.Array], pa.Array]:
    """The mask of the tokens every pattern matches."""
    masks = [matching(pattern) for pattern in patterns]
    return lambda tokens: functools.reduce(pc.and_, [mask(tokens) for mask in masks])


def token_filter(language: str) -> Filter:
    """The filters after the tokenizer, in the analyzer's order."""
    stemmer, stop_file = STEMMERS[language], LANGUAGES[language].data[0]
    overrides = DUTCH_STEM_OVERRIDES if language == "nl" else None
    stems = SnowballStems(language, stemmer, overrides)
    steps: list[Callable[[pa.Array], pa.Array]]
    # Lucene's Snowball lists (<language>_stop.txt) have '|' comments, its own lists '#'
    words = snowball_word_set(stop_file) if stop_file.endswith("_stop.txt") else word_set(stop_file)
    if language == "tr":
        steps = [cut_at_apostrophe, turkish_lowercase, stop(words)]
    else:
        steps = [lowercase, stop(words)]
    if language in _STEMMED_ONLY_WITH:
        return chained(*steps, only(_matching_all(_STEMMED_ONLY_WITH[language]), stems))
    return chained(*steps, stems)


def chain(language: str) -> Chain:
    """The Lucene analyzer of one of the languages of STEMMERS."""
    if language not in STEMMERS:
        raise ConfigError(
            f"no Snowball analyzer for language {language!r}; they are: "
            f"{', '.join(sorted(STEMMERS))}"
        )
    return Chain(
        language=language,
        tokenize=standard_tokens,
        filter=token_filter(language),
    )
