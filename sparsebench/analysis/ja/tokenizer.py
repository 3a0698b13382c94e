"""JapaneseTokenizer (Mode.SEARCH, punctuation and compound tokens discarded, no user
dictionary) after CJKWidthCharFilter, then JapaneseBaseFormFilter and
JapanesePartOfSpeechStopFilter, over batches of texts: as JapaneseAnalyzer runs them.

A batch goes through these steps:

1. the texts as UTF-16 code units, width-folded, cut into chunks at whitespace, and
   reduced to their distinct chunks in context (ja/chunks): the Java search
   commits right after the SPACE word, so a chunk's tokens depend only on its text,
   what it starts after (BOS or the SPACE word) and what follows it (EOS or the SPACE
   word, searched as one space after the chunk);
2. each distinct chunk in context searched by the compiled port of the Java class
   (ja/search);
3. words with a stop tag dropped, a word's base form taken where the dictionary has
   one, the terms encoded as UTF-8 in one pass; each chunk takes its key's terms.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import pyarrow as pa

from sparsebench.analysis.filters import word_set
from sparsebench.analysis.ja import search as japanese_search
from sparsebench.analysis.ja.chunks import EOS, SPACE, Chunks, chunks, folded_units
from sparsebench.analysis.ja.dictionary import Dictionary, dictionary
from sparsebench.analysis.ja.trie import trie
from sparsebench.core.arrays import span_indices
from sparsebench.core.jit import compiled
from sparsebench.core.strings import as_string_array


@dataclass(frozen=True)
class JapaneseTokenizer:
    """The tokenizer with its dictionary, as the compiled search reads it."""

    d: Dictionary
    tables: japanese_search.Tables
    space_id: int  # left (= right) id of the unknown SPACE word
    keep_word: np.ndarray  # bool per word: its part of speech is not a stop tag
    word_base: np.ndarray  # int64 per word: its base form, -1 for none
    base_units: np.ndarray  # uint16: the base forms' UTF-16 code units, end to end
    base_offsets: np.ndarray  # int64 (base forms + 1)

    def tokenize(self, texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
        """(text index per token, terms) of a batch of texts, in text order."""
        units, offsets = folded_units(as_string_array(texts), self.d)
        found = chunks(units, offsets, self.d, self.space_id)
        return found.expand(*self._analyze(found))

    def _analyze(self, c: Chunks) -> tuple[np.ndarray, np.ndarray, pa.Array]:
        """The terms of each key (a distinct chunk in context): pool[first:first + count]."""
        lengths = np.diff(c.offsets)[c.key_text]
        space_after = c.key_left != EOS
        key_offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths + space_after, out=key_offsets[1:])
        units = np.empty(int(key_offsets[-1]), dtype=np.uint16)
        text_start = c.offsets[:-1][c.key_text]
        units[span_indices(key_offsets[:-1], key_offsets[:-1] + lengths)] = c.units[
            span_indices(text_start, text_start + lengths)
        ]
        units[key_offsets[1:][space_after] - 1] = 0x20  # the SPACE word after the chunk
        key, start, end, word = japanese_search.search(units, key_offsets, c.key_right, self.tables)
        kept = self.keep_word[word]
        key, start, end, word = key[kept], start[kept], end[kept], word[kept]
        start += key_offsets[key]
        end += key_offsets[key]
        count = np.bincount(key, minlength=len(lengths))
        first = np.cumsum(count) - count
        data, offsets = _utf8_terms(
            units, start, end, self.word_base[word], self.base_units, self.base_offsets
        )
        pool = pa.StringArray.from_buffers(len(start), pa.py_buffer(offsets), pa.py_buffer(data))
        return first, count, pool


@compiled
def _utf8_terms(units, start, end, base, base_units, base_offsets):
    """Each token's term as UTF-8 (its base form where it has one, else its code units;
    a lone surrogate becomes U+FFFD, as Lucene's UTF-8 conversion of a term makes it):
    the bytes end to end and the int32 offsets."""
    size = 0
    for i in range(len(start)):
        if base[i] >= 0:
            size += base_offsets[base[i] + 1] - base_offsets[base[i]]
        else:
            size += end[i] - start[i]
    data = np.empty(3 * size, np.uint8)  # a unit takes at most 3 bytes (a pair 4 for 2)
    offsets = np.zeros(len(start) + 1, np.int32)
    out = 0
    for i in range(len(start)):
        if base[i] >= 0:
            source = base_units[base_offsets[base[i]] : base_offsets[base[i] + 1]]
        else:
            source = units[start[i] : end[i]]
        k = 0
        while k < len(source):
            code = np.int64(source[k])
            k += 1
            if 0xD800 <= code < 0xDC00 and k < len(source) and 0xDC00 <= source[k] < 0xE000:
                code = 0x10000 + ((code - 0xD800) << 10) + (np.int64(source[k]) - 0xDC00)
                k += 1
            elif 0xD800 <= code < 0xE000:
                code = 0xFFFD
            if code < 0x80:
                data[out] = code
                out += 1
            elif code < 0x800:
                data[out] = 0xC0 | (code >> 6)
                data[out + 1] = 0x80 | (code & 0x3F)
                out += 2
            elif code < 0x10000:
                data[out] = 0xE0 | (code >> 12)
                data[out + 1] = 0x80 | ((code >> 6) & 0x3F)
                data[out + 2] = 0x80 | (code & 0x3F)
                out += 3
            else:
                data[out] = 0xF0 | (code >> 18)
                data[out + 1] = 0x80 | ((code >> 12) & 0x3F)
                data[out + 2] = 0x80 | ((code >> 6) & 0x3F)
                data[out + 3] = 0x80 | (code & 0x3F)
                out += 4
        offsets[i + 1] = out
    return data[:out], offsets


@cache
def japanese_tokenizer() -> JapaneseTokenizer:
    """The tokenizer and its dictionary (one per process)."""
    d = dictionary()
    stop_tags = word_set("ja/stoptags.txt")
    keep_pos = np.array([tag not in stop_tags for tag in d.pos_tags])
    base = "".join(d.base_forms).encode("utf-16-le", "surrogatepass")
    base_lengths = [len(form.encode("utf-16-le", "surrogatepass")) // 2 for form in d.base_forms]
    base_offsets = np.zeros(len(base_lengths) + 1, dtype=np.int64)
    np.cumsum(base_lengths, out=base_offsets[1:])
    return JapaneseTokenizer(
        d=d,
        tables=japanese_search.tables(d, trie()),
        space_id=int(d.word_left[d.unknown_words(SPACE).start]),
        keep_word=keep_pos[d.word_pos],
        word_base=d.word_base.astype(np.int64),
        base_units=np.frombuffer(base, dtype="<u2").copy(),
        base_offsets=base_offsets,
    )
