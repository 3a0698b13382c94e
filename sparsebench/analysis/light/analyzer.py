"""Lucene's German, Spanish, French, Italian, Portuguese and Indonesian analyzers
(Anserini's analyzers of de, es, fr, it, pt and id): the StandardTokenizer, stopwords and
a light stemmer.

Each is the chain of the analyzer's createComponents in lucene-analysis-common 9.9.1,
built by its default constructor (as AnalyzerMap builds it); after StandardTokenizer:

- de, GermanAnalyzer: LowerCaseFilter, StopFilter (snowball/german_stop.txt),
  GermanNormalizationFilter, GermanLightStemFilter;
- es, SpanishAnalyzer: LowerCaseFilter, StopFilter (snowball/spanish_stop.txt),
  SpanishLightStemFilter;
- fr, FrenchAnalyzer: ElisionFilter (DEFAULT_ARTICLES), LowerCaseFilter, StopFilter
  (snowball/french_stop.txt), FrenchLightStemFilter;
- it, ItalianAnalyzer: ElisionFilter (its DEFAULT_ARTICLES), LowerCaseFilter,
  StopFilter (snowball/italian_stop.txt), ItalianLightStemFilter;
- pt, PortugueseAnalyzer: LowerCaseFilter, StopFilter (snowball/portuguese_stop.txt),
  PortugueseLightStemFilter;
- id, IndonesianAnalyzer: LowerCaseFilter, StopFilter (id/stopwords.txt),
  IndonesianStemFilter (stemDerivational true).

Before the stemmer each also has a SetKeywordMarkerFilter for its stem exclusion set,
empty by default (GermanAnalyzer adds the filter anyway, the others only for a non-empty
set), so every token is stemmed. The stopword files are the jar's (under
sparsebench/resources/lucene/light, at their paths below org/apache/lucene/analysis; see
its README), read as WordlistLoader.getSnowballWordSet reads the snowball ones and
getWordSet, with '#' comments, id/stopwords.txt. The stemmers are ported in
light/stemmers.py and light/indonesian.py; a language's stemming of a token is
remembered across batches (`stemmed`), and runs in Python only for the tokens an Arrow
mask says it may change.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache

import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis.batch_tokens import standard_tokens
from sparsebench.analysis.chains import Chain
from sparsebench.analysis.code_units import on_token
from sparsebench.analysis.filters import (
    Filter,
    chained,
    lowercase,
    snowball_word_set,
    stop,
    where,
    word_set,
)
from sparsebench.analysis.languages import LANGUAGES
from sparsebench.analysis.light import indonesian
from sparsebench.analysis.light.stemmers import (
    french_light,
    german_light,
    german_normalize,
    italian_light,
    portuguese_light,
    spanish_light,
)

# ElisionFilter's article sets (CharArraySets that ignore case), from the analyzers.
FRENCH_ARTICLES = (
    "l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu",
)  # fmt: skip
ITALIAN_ARTICLES = (
    "c", "l", "all", "dall", "dell", "nell", "sull", "coll", "pell", "gl", "agl", "dagl",
    "degl", "negl", "sugl", "un", "m", "t", "s", "v", "d",
)  # fmt: skip

# Character.toLowerCase of every character that lowercases to an ASCII letter: A-Z, İ
# (U+0130) and the Kelvin sign (U+212A), checked over every code point. (An RE2 pattern
# such as [sS] cannot stand for this: RE2 widens it to the case-fold orbit, with ſ.)
_ARTICLE_FOLD = str.maketrans(
    {**{chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)}, "\u0130": "i", "\u212a": "k"}
)
_APOSTROPHE = "['\u2019]"


def elision(articles: tuple[str, ...]) -> Filter:
    """ElisionFilter: a token whose part before its first apostrophe (' or ’) is one of
    the articles, in any case, loses that part and the apostrophe."""
    article_set = frozenset(articles)
    apostrophe = re.compile(_APOSTROPHE)

    def elide(token: str) -> str:
        first = apostrophe.search(token)
        if first and token[: first.start()].translate(_ARTICLE_FOLD) in article_set:
            return token[first.end() :]
        return token

    return where(lambda tokens: pc.match_substring_regex(tokens, _APOSTROPHE), elide)


# Language -> the steps of its stemming filters (functions of a word as UTF-16 code
# units); its stopword file: languages.LANGUAGES.
_STEMMING = {
    "de": (german_normalize, german_light),
    "es": (spanish_light,),
    "fr": (french_light,),
    "it": (italian_light,),
    "pt": (portuguese_light,),
    "id": (indonesian.stem,),
}
# The articles of the analyzers whose chain starts with an ElisionFilter.
_ARTICLES = {"fr": FRENCH_ARTICLES, "it": ITALIAN_ARTICLES}
_CACHE_SIZE = 1 << 20  # stems a language keeps, across batches and chains


def _more_than_two_vowels(tokens: pa.Array) -> pa.Array:
    """The tokens IndonesianStemmer may change: the others take none of its rules."""
    return pc.greater(pc.count_substring_regex(tokens, "[aeiou]"), 2)


def _every_token(tokens: pa.Array) -> pa.Array:
    return pc.not_equal(tokens, "")  # a dropped token stays dropped


# The tokens a language's stemming may change (for the others no Python runs).
_MAY_CHANGE = {"id": _more_than_two_vowels}


@cache
def stemmed(language: str) -> Callable[[str], str]:
    """The language's stemming filters as a function of a token, remembering its last
    _CACHE_SIZE tokens (batches share most of their distinct tokens)."""
    return lru_cache(maxsize=_CACHE_SIZE)(on_token(*_STEMMING[language]))


def chain(language: str) -> Chain:
    stopword_file = LANGUAGES[language].data[0]
    # The snowball files in getSnowballWordSet's format, id/stopwords.txt in getWordSet's.
    read = snowball_word_set if stopword_file.startswith("light/snowball/") else word_set
    stopwords = read(stopword_file)
    stemming = where(_MAY_CHANGE.get(language, _every_token), stemmed(language))
    filters = [lowercase, stop(stopwords), stemming]
    if language in _ARTICLES:
        filters.insert(0, elision(_ARTICLES[language]))
    return Chain(
        language=language,
        tokenize=standard_tokens,
        filter=chained(*filters),
    )
