"""Lucene's ThaiAnalyzer (the analyzer of Thai in Anserini): ThaiTokenizer (the JDK's
sentence and Thai word BreakIterators: th/tokenizer, th/fast_batch), LowerCaseFilter,
DecimalDigitFilter (Thai digits become ASCII ones), StopFilter with Lucene's 115 Thai
stopwords (th/stopwords.txt in the Lucene jar). Exact: term for term Lucene's on Java 21,
the Java Anserini runs on (tests/analysis/test_thai.py). Licences of the JDK's data and of the port:
sparsebench/resources/lucene/th/NOTICE."""

from __future__ import annotations

from sparsebench.analysis.chains import Chain
from sparsebench.analysis.filters import chained, decimal_digits, lowercase, stop, word_set
from sparsebench.analysis.th.fast_batch import clear_caches, tokenize_batch

# A sample that takes every path of the tokenizer (a double space, a text longer than its
# buffer, sentence marks, ฯ, a zero-width space, U+FFFF).
_SAMPLE = ["กรุงเทพฯ  ภาษาไทย. Mr. Smith 3.14! ไหม?ครับ ๆ\u200b", "ก " * 520 + "\uffff"]


def chain(language: str) -> Chain:
    """The analyzer, its tables and patterns built (on a sample, then forgotten) so that
    its data loads with it, not in its first batch."""
    thai = Chain(
        language=language,
        tokenize=tokenize_batch,
        filter=chained(lowercase, decimal_digits, stop(word_set("th/stopwords.txt"))),
    )
    thai.filter(thai.tokenize(_SAMPLE)[1])
    clear_caches()
    return thai
