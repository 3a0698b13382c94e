"""Lucene 9.9.1's JapaneseAnalyzer, as Anserini builds it for Japanese (new
JapaneseAnalyzer()), token for token:

- CJKWidthCharFilter on the text (fullwidth ASCII to ASCII, halfwidth katakana to
  fullwidth, halfwidth voiced sound marks merged);
- JapaneseTokenizer: Kuromoji's Viterbi search over the IPADIC dictionary in
  Mode.SEARCH (a too-long word replaced by the better path under it, the compound
  itself not kept: discardCompoundToken), punctuation discarded, no user dictionary;
- JapaneseBaseFormFilter (a word with a base form in the dictionary becomes it),
  JapanesePartOfSpeechStopFilter (ja/stoptags.txt), StopFilter (ja/stopwords.txt),
  JapaneseKatakanaStemFilter (a final prolonged sound mark off katakana words of four
  characters or more), LowerCaseFilter.

`tokenize` is the char filter, the tokenizer, base forms and the part-of-speech stop
filter (they need the word's dictionary entry: ja/tokenizer); `filter` the rest,
on distinct tokens.

Derived from Apache Lucene, licensed under the Apache License, Version 2.0; the
dictionary is mecab-ipadic's. See sparsebench/resources/lucene/ja/NOTICE.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis.chains import Chain
from sparsebench.analysis.filters import chained, lowercase, stop, word_set
from sparsebench.analysis.ja.tokenizer import japanese_tokenizer


def tokenize_batch(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """(text index per token, terms) after the tokenizer, base forms and stop tags."""
    return japanese_tokenizer().tokenize(texts)


def katakana_stem(tokens: pa.Array) -> pa.Array:
    """JapaneseKatakanaStemFilter: a final prolonged sound mark (U+30FC) off a token of
    at least four UTF-16 units, all in the Katakana block (U+30A0-U+30FF)."""
    return pc.replace_substring_regex(tokens, "^([\u30a0-\u30ff]{3,})\u30fc$", "\\1")


def chain(language: str) -> Chain:
    return Chain(
        language=language,
        tokenize=tokenize_batch,
        filter=chained(stop(word_set("ja/stopwords.txt")), katakana_stem, lowercase),
    )
