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
# Scripts written without spaces between words: tokenised as overlapping character
# bigrams (as Lucene's CJKBigramFilter), a lone character as itself.
_UNSPACED = (
    r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}"
    r"\x{30FC}\x{3005}\x{303B}\x{309D}\x{309E}\x{30FD}\x{30FE}"  # ー 々 〻 ゝ ゞ ヽ ヾ
)
TOKENIZERS = ("words", "cjk")
UNSPACED_LANGUAGES = frozenset({"zh", "ja", "ko", "th", "lo", "km", "my"})
# ISO 639-1 -> PyStemmer algorithm (English uses Porter, as Lucene's EnglishAnalyzer).
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


def resolve_analyzer(settings: dict, language: str = "en") -> dict:
    """Replace 'auto' settings by the defaults of the dataset's language."""
    resolved = dict(settings)
    if resolved.get("stopwords", "auto") == "auto":
        resolved["stopwords"] = "lucene" if language == "en" else "none"
    if resolved.get("stemmer", "auto") == "auto":
        algorithm = STEMMERS.get(language, "none")
        resolved["stemmer"] = (
            algorithm if algorithm in Stemmer.algorithms() or algorithm == "none" else "none"
        )
    if resolved.get("tokenizer", "auto") == "auto":
        resolved["tokenizer"] = "cjk" if language in UNSPACED_LANGUAGES else "words"
    if resolved.get("possessive", "auto") == "auto":
        resolved["possessive"] = language == "en"
    return resolved


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
        tokenizer: str = "words",
    ) -> None:
        if tokenizer not in TOKENIZERS:
            raise ConfigError(
                f"tokenizer must be one of {', '.join(TOKENIZERS)}, not {tokenizer!r}"
            )
        self.tokenizer = tokenizer
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
        if self.tokenizer == "cjk":  # runs of unspaced scripts become tokens of their own
            array = pc.replace_substring_regex(array, f"([{_UNSPACED}]+)", r" \1 ")
        pieces = pc.split_pattern_regex(array, _SEPARATORS)
        text_index = pc.list_parent_indices(pieces).to_numpy().astype(np.int64)
        tokens = pc.utf8_trim(pc.list_flatten(pieces), characters=_TRIM)
        if self.tokenizer == "cjk":
            text_index, tokens = _bigram_unspaced(text_index, tokens)
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


def character_bigrams(tokens: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Overlapping character bigrams of each token (a one-character token stays whole):
    (index of the source token, bigram). Built from the UTF-8 buffers, no Python loop."""
    tokens = pa.concat_arrays([tokens.cast(pa.string())])  # offset 0, one buffer
    n = len(tokens)
    if n == 0:
        return np.zeros(0, np.int64), pa.array([], pa.string())
    offsets = np.frombuffer(tokens.buffers()[1], dtype=np.int32, count=n + 1).astype(np.int64)
    data = (
        np.frombuffer(tokens.buffers()[2], dtype=np.uint8)
        if tokens.buffers()[2]
        else np.zeros(0, np.uint8)
    )
    lead = np.nonzero((data[offsets[0] : offsets[-1]] & 0xC0) != 0x80)[0] + offsets[0]
    owner = np.searchsorted(offsets, lead, side="right") - 1
    first_lead = np.searchsorted(lead, offsets[:-1])
    local = np.arange(len(lead)) - first_lead[owner]
    count = np.bincount(owner, minlength=n)[owner]
    token_end = offsets[owner + 1]
    two_ahead = np.minimum(np.arange(len(lead)) + 2, len(lead) - 1)
    end = np.where(local + 2 < count, lead[two_ahead], token_end)
    emit = (local + 1 < count) | (count == 1)
    start, end, source = lead[emit], end[emit], owner[emit]
    lengths = end - start
    new_offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    gather = np.repeat(start - new_offsets[:-1], lengths) + np.arange(int(new_offsets[-1]))
    array = pa.StringArray.from_buffers(
        len(start), pa.py_buffer(new_offsets.tobytes()), pa.py_buffer(data[gather].tobytes())
    )
    return source, array


def _bigram_unspaced(text_index: np.ndarray, tokens: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Replace tokens written in an unspaced script by their character bigrams."""
    unspaced = pc.match_substring_regex(tokens, f"^[{_UNSPACED}]+$").to_numpy(zero_copy_only=False)
    if not unspaced.any():
        return text_index, tokens
    source, bigrams = character_bigrams(tokens.filter(pa.array(unspaced)))
    spaced = ~unspaced
    return (
        np.concatenate([text_index[spaced], text_index[unspaced][source]]),
        pa.concat_arrays([tokens.filter(pa.array(spaced)), bigrams]),
    )
