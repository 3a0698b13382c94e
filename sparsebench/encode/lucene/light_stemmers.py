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
light_stemmer_ports.py and indonesian_stemmer.py.
"""

from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.encode.lucene.chains import Chain
from sparsebench.encode.lucene.filters import (
    Filter,
    chained,
    lowercase,
    per_token,
    snowball_word_set,
    stop,
    word_set,
)
from sparsebench.encode.lucene.indonesian_stemmer import IndonesianStemmer
from sparsebench.encode.lucene.light_stemmer_ports import (
    french_light,
    german_light,
    german_normalize,
    italian_light,
    portuguese_light,
    spanish_light,
)
from sparsebench.encode.lucene.standard_tokenizer import tokenize_batch
from sparsebench.encode.lucene.stemmer_util import on_token

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
_APOSTROPHE = re.compile("['\u2019]")


def elision(articles: tuple[str, ...]) -> Filter:
    """ElisionFilter: a token whose part before its first apostrophe (' or ’) is one of
    the articles, in any case, loses that part and the apostrophe. Tokens without an
    apostrophe are left to Arrow."""
    article_set = frozenset(articles)

    def elide(token: str) -> str:
        first = _APOSTROPHE.search(token)
        if first and token[: first.start()].translate(_ARTICLE_FOLD) in article_set:
            return token[first.end() :]
        return token

    def apply(tokens: pa.Array) -> pa.Array:
        mask = pc.match_substring_regex(tokens, "['\u2019]")
        if not pc.any(mask).as_py():
            return tokens
        elided = per_token(elide)(pc.filter(tokens, mask))
        return pc.replace_with_mask(tokens, mask, elided)

    return apply


# Language -> the analyzer's class (below org.apache.lucene.analysis), its stopword file
# (below org/apache/lucene/analysis in the jar, resources/lucene/light here) and the
# buffer steps of its stemming filters (IndonesianStemmer's: see chain).
_ANALYZERS = {
    "de": ("de.GermanAnalyzer", "snowball/german_stop.txt", (german_normalize, german_light)),
    "es": ("es.SpanishAnalyzer", "snowball/spanish_stop.txt", (spanish_light,)),
    "fr": ("fr.FrenchAnalyzer", "snowball/french_stop.txt", (french_light,)),
    "it": ("it.ItalianAnalyzer", "snowball/italian_stop.txt", (italian_light,)),
    "pt": ("pt.PortugueseAnalyzer", "snowball/portuguese_stop.txt", (portuguese_light,)),
    "id": ("id.IndonesianAnalyzer", "id/stopwords.txt", None),
}
# The articles of the analyzers whose chain starts with an ElisionFilter.
_ARTICLES = {"fr": FRENCH_ARTICLES, "it": ITALIAN_ARTICLES}


def chain(language: str) -> Chain:
    lucene_class, stopword_file, steps = _ANALYZERS[language]
    if steps is None:  # an IndonesianStemmer keeps state while it stems: one per chain
        steps = (IndonesianStemmer(stem_derivational=True).stem,)
    # The snowball files in getSnowballWordSet's format, id/stopwords.txt in getWordSet's.
    read = snowball_word_set if stopword_file.startswith("snowball/") else word_set
    stopwords = read(f"light/{stopword_file}")
    filters = [lowercase, stop(stopwords), per_token(on_token(*steps))]
    if language in _ARTICLES:
        filters.insert(0, elision(_ARTICLES[language]))
    return Chain(
        language=language,
        lucene_class=f"org.apache.lucene.analysis.{lucene_class}",
        tokenize=tokenize_batch,
        filter=chained(*filters),
    )
