"""The BM25 text analyzer, vectorised over a batch of texts.

For English it is Lucene's, token for token: the chain of Anserini's
DefaultEnglishAnalyzer (Anserini 1.x, Lucene 9.9.1), which every Anserini and Pyserini
BM25 baseline uses for both documents and queries:

1. StandardTokenizer (lucene/standard_tokenizer.py): Unicode UAX #29 word breaks; "don't",
   "u.s.a", "3.14", "1,000" and "results:in" stay whole, "no.1", "a..b" and "e-mail"
   split, "©" and emoji are tokens, tokens are cut at 255 UTF-16 code units;
2. EnglishPossessiveFilter: a trailing 's, ’s or ＇s (any case) removed, once;
3. LowerCaseFilter: each character's simple lowercase (İ -> i);
4. StopFilter with Lucene's 33 English stopwords;
5. PorterStemFilter (lucene/porter.py): Porter's own implementation, which leaves words
   of one or two letters alone and has logi -> log and bli -> ble.

Every language gets the Lucene analyzer Anserini gives it (sparsebench/analysis:
a Chain of a batch tokenizer and a filter of distinct tokens), unless a model composes
its own chain from the settings: the same tokenizer (or, with `cjk`, runs of Chinese,
Japanese, Korean and Thai characters as overlapping bigrams), possessive, lowercase,
stopwords and a stemmer (Lucene's Porter or a PyStemmer Snowball algorithm). The
tokenizer runs over a whole Arrow array (a numpy rule for the usual characters, Lucene's
DFA once per distinct run of the others); the filters see each distinct token of a batch
once (and Lucene's Porter stemmer remembers the words it has stemmed across batches).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import Stemmer

from sparsebench.analysis.batch_tokens import standard_tokens
from sparsebench.analysis.chains import Chain
from sparsebench.analysis.en.analyzer import LUCENE_ENGLISH_STOPWORDS, strip_possessive
from sparsebench.analysis.en.porter import PorterStemmer
from sparsebench.analysis.filters import Filter, chained, stop
from sparsebench.analysis.huggingface import chain as huggingface_chain
from sparsebench.analysis.languages import chain as lucene_chain
from sparsebench.analysis.scripts.cjk import character_bigrams
from sparsebench.analysis.settings import MAX_LENGTH, TOKENIZERS, stemmer_names
from sparsebench.analysis.standard_tokenizer import tokenize_batch
from sparsebench.core.errors import ConfigError
from sparsebench.core.strings import as_string_array

# Scripts written without spaces between words: tokenised as overlapping character
# bigrams (as Lucene's CJKBigramFilter), a lone character as itself.
_UNSPACED = (
    r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}"
    r"\x{30FC}\x{3005}\x{303B}\x{309D}\x{309E}\x{30FD}\x{30FE}"  # ー 々 〻 ゝ ゞ ヽ ヾ
)


@dataclass(frozen=True)
class AnalyzedBatch:
    """Tokens of a batch of texts as (text index, term) pairs, terms as local ids."""

    text_index: np.ndarray  # (T,) int64: which text each token came from
    term_ids: np.ndarray  # (T,) int64: index into `terms`
    terms: pa.Array  # distinct terms of the batch, sorted
    n_texts: int


class Analyzer:
    """Turns texts into terms: a Lucene analyzer (`lucene`: a language code), a Hugging
    Face tokenizer's pieces (`huggingface`: its folder or hub id), or the chain the other
    settings compose (`lucene: none`); one instance per model configuration. The defaults
    are Anserini's DefaultEnglishAnalyzer."""

    def __init__(
        self,
        lucene: str = "none",
        lowercase: bool = True,
        stopwords: str | Sequence[str] = "lucene",
        stemmer: str = "porter",
        possessive: bool = True,
        tokenizer: str = "standard",
        huggingface: str | None = None,
        max_length: int | None = MAX_LENGTH,
    ) -> None:
        if huggingface:
            self.chain = huggingface_chain(huggingface, max_length)
        elif lucene != "none":
            self.chain = lucene_chain(lucene)
        else:
            self.chain = composed_chain(lowercase, stopwords, stemmer, possessive, tokenizer)

    @classmethod
    def from_config(cls, settings: dict[str, Any]) -> Analyzer:
        return cls(**settings)

    def analyze_batch(self, texts: pa.Array | Sequence[str]) -> AnalyzedBatch:
        """Analyze a batch; the token filters see each distinct token once."""
        array = as_string_array(texts)
        text_index, tokens = self.chain.tokenize(array)
        references = None
        if isinstance(tokens, pa.DictionaryArray):  # tokens of distinct chunks, referenced
            references, tokens = tokens.indices.to_numpy(), tokens.dictionary
        distinct = pc.unique(tokens)
        filtered = self.chain.filter(distinct)
        kept = pc.filter(filtered, pc.greater(pc.binary_length(filtered), 0))
        terms = pc.unique(pc.take(kept, pc.array_sort_indices(kept))) if len(kept) else kept
        distinct_to_term = pc.fill_null(pc.index_in(filtered, value_set=terms), -1).to_numpy()
        token_to_distinct = pc.index_in(tokens, value_set=distinct).to_numpy()
        term_ids = distinct_to_term[token_to_distinct].astype(np.int64)
        if references is not None:
            term_ids = term_ids[references]
        keep = term_ids >= 0
        return AnalyzedBatch(text_index[keep], term_ids[keep], terms, len(array))

    def analyze(self, text: str) -> list[str]:
        """The terms of one text, in order (for inspection and for other BM25 tools)."""
        batch = self.analyze_batch([text])
        return batch.terms.take(pa.array(batch.term_ids)).to_pylist()


def composed_chain(
    lowercase: bool,
    stopwords: str | Sequence[str],
    stemmer: str,
    possessive: bool,
    tokenizer: str,
) -> Chain:
    """The chain of explicit settings: StandardTokenizer (or it with unspaced scripts as
    character bigrams), then possessive, lowercase, stopwords and stemmer, in that order."""
    if tokenizer not in TOKENIZERS:
        raise ConfigError(f"tokenizer must be one of {', '.join(TOKENIZERS)}, not {tokenizer!r}")
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
    filters: list[Filter] = [strip_possessive] if possessive else []
    filters += [pc.utf8_lower] if lowercase else []
    filters.append(stop(words))
    if stemmer == "porter":  # Lucene's, not Snowball's 'porter'
        filters.append(PorterStemmer().stem_array)
    elif stemmer in Stemmer.algorithms():
        filters.append(per_token_list(Stemmer.Stemmer(stemmer).stemWords))
    elif stemmer != "none":
        raise ConfigError(
            f"unknown stemmer {stemmer!r}; the stemmers are: "
            f"{', '.join(stemmer_names())}, or 'none'"
        )
    return Chain(
        language="",
        tokenize=cjk_tokenize if tokenizer == "cjk" else standard_tokens,
        filter=chained(*filters),
    )


def per_token_list(function: Callable[[list[str]], list[str]]) -> Filter:
    """A filter from a function of a list of tokens (PyStemmer's stemWords)."""
    return lambda tokens: pa.array(function(tokens.to_pylist()), type=pa.string())


def cjk_tokenize(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """StandardTokenizer's tokens, with runs of unspaced scripts set aside as character
    bigrams (after the text's other tokens)."""
    runs = pc.split_pattern_regex(texts, f"[^{_UNSPACED}]+")
    run_index = pc.list_parent_indices(runs).to_numpy().astype(np.int64)
    runs = pc.list_flatten(runs)
    nonempty = pc.greater(pc.utf8_length(runs), 0)
    run_index = run_index[nonempty.to_numpy(zero_copy_only=False)]
    source, bigrams = character_bigrams(pc.filter(runs, nonempty))
    text_index, tokens = tokenize_batch(pc.replace_substring_regex(texts, f"[{_UNSPACED}]+", " "))
    if not len(bigrams):
        return text_index, tokens
    text_index = np.concatenate([text_index, run_index[source]])
    order = np.argsort(text_index, kind="stable")
    return text_index[order], pa.concat_arrays([tokens, bigrams]).take(order)
