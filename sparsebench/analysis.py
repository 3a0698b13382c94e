"""The BM25 text analyzer, vectorised over a batch of texts with Arrow compute kernels.

It follows Lucene's EnglishAnalyzer (what Anserini's BEIR regressions use): Unicode word
tokens (hyphens and other punctuation split words; '.', ',' and apostrophes inside a
token are kept, so "u.s.a", "3.14", "1,000" and "don't" stay whole), English possessive
"'s" removed, lowercase, Lucene's English stopwords, Porter stemming. Each step is
configurable. Tokenising, stopword removal and term mapping run as Arrow kernels over
the whole batch; the stemmer runs once per distinct token of the batch, not per token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import Stemmer

from sparsebench.errors import ConfigError

# Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.
LUCENE_ENGLISH_STOPWORDS = (
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "but",
    "by",
    "for",
    "if",
    "in",
    "into",
    "is",
    "it",
    "no",
    "not",
    "of",
    "on",
    "or",
    "such",
    "that",
    "the",
    "their",
    "then",
    "there",
    "these",
    "they",
    "this",
    "to",
    "was",
    "will",
    "with",
)
_SEPARATORS = r"[^\p{L}\p{N}\p{M}_'’.,]+"
_TRIM = ".,'’"
_POSSESSIVE = r"['’][sS]\b"


@dataclass(frozen=True)
class AnalyzedBatch:
    """Tokens of a batch of texts as (text index, term) pairs, terms as local ids."""

    text_index: np.ndarray  # (T,) int64: which text each token came from
    term_ids: np.ndarray  # (T,) int64: index into `terms`
    terms: pa.Array  # distinct terms of the batch, sorted
    n_texts: int


class Analyzer:
    """Turns texts into terms; one instance per model configuration."""

    def __init__(
        self,
        lowercase: bool = True,
        stopwords: str | Sequence[str] = "lucene",
        stemmer: str = "porter",
        possessive: bool = True,
    ) -> None:
        self.lowercase = lowercase
        self.possessive = possessive
        if stopwords == "lucene":
            words: Sequence[str] = LUCENE_ENGLISH_STOPWORDS
        elif stopwords == "none":
            words = ()
        elif isinstance(stopwords, str):
            raise ConfigError(f"stopwords must be 'lucene', 'none' or a list, not {stopwords!r}")
        else:
            words = list(stopwords)
        if lowercase:
            words = [w.lower() for w in words]
        self.stopwords = pa.array(sorted(set(words)), type=pa.string())
        self.stemmer_name = stemmer
        if stemmer == "none":
            self._stemmer = None
        elif stemmer in Stemmer.algorithms():
            self._stemmer = Stemmer.Stemmer(stemmer)
        else:
            raise ConfigError(
                f"unknown stemmer {stemmer!r}; PyStemmer offers: "
                f"{', '.join(Stemmer.algorithms())}, or 'none'"
            )

    @classmethod
    def from_config(cls, settings: dict[str, Any]) -> Analyzer:
        return cls(**settings)

    def tokens(
        self, texts: pa.Array | pa.ChunkedArray | Sequence[str]
    ) -> tuple[np.ndarray, pa.Array]:
        """Unstemmed tokens of every text: (text index per token, token strings)."""
        if isinstance(texts, pa.ChunkedArray):
            array = texts.combine_chunks()
        elif isinstance(texts, pa.Array):
            array = texts
        else:
            array = pa.array(texts, type=pa.string())
        array = pc.fill_null(array, "")
        if self.possessive:
            array = pc.replace_substring_regex(array, _POSSESSIVE, "")
        if self.lowercase:
            array = pc.utf8_lower(array)
        pieces = pc.split_pattern_regex(array, _SEPARATORS)
        text_index = pc.list_parent_indices(pieces).to_numpy().astype(np.int64)
        tokens = pc.utf8_trim(pc.list_flatten(pieces), characters=_TRIM)
        keep = pc.and_(
            pc.greater(pc.utf8_length(tokens), 0),
            pc.invert(pc.is_in(tokens, value_set=self.stopwords)),
        )
        return text_index[keep.to_numpy(zero_copy_only=False)], pc.filter(tokens, keep)

    def analyze_batch(self, texts: pa.Array | Sequence[str]) -> AnalyzedBatch:
        """Analyze a batch; the stemmer sees each distinct token once."""
        n_texts = len(texts)
        text_index, tokens = self.tokens(texts)
        distinct = pc.unique(tokens)
        token_to_distinct = pc.index_in(tokens, value_set=distinct).to_numpy()
        if self._stemmer is not None:
            stemmed = pa.array(self._stemmer.stemWords(distinct.to_pylist()), type=pa.string())
        else:
            stemmed = distinct
        terms = pc.take(stemmed, pc.array_sort_indices(stemmed)) if len(stemmed) else stemmed
        terms = pc.unique(terms)
        distinct_to_term = pc.index_in(stemmed, value_set=terms).to_numpy()
        term_ids = distinct_to_term[token_to_distinct].astype(np.int64)
        return AnalyzedBatch(text_index, term_ids, terms, n_texts)

    def analyze(self, text: str) -> list[str]:
        """The terms of one text, in order (for inspection and for other BM25 tools)."""
        batch = self.analyze_batch([text])
        return batch.terms.take(pa.array(batch.term_ids)).to_pylist()
