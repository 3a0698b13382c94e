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
