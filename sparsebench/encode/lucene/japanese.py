"""Lucene 9.9.1's JapaneseAnalyzer, as Anserini builds it for Japanese (new
JapaneseAnalyzer()), token for token:

- CJKWidthCharFilter on the text (fullwidth ASCII to ASCII, halfwidth katakana to
  fullwidth, halfwidth voiced marks merged);
- JapaneseTokenizer: Kuromoji's Viterbi search over the IPADIC dictionary, Mode.SEARCH
  (too-long words replaced by the better path under them: discardCompoundToken, so the
  compound itself is not kept), punctuation discarded, no user dictionary;
- JapaneseBaseFormFilter (a word with a base form in the dictionary becomes it),
  JapanesePartOfSpeechStopFilter (ja/stoptags.txt), StopFilter (ja/stopwords.txt),
  JapaneseKatakanaStemFilter (a final prolonged sound mark off katakana words of four
  characters or more), LowerCaseFilter.

`tokenize` runs the tokenizer, base forms and the part-of-speech stop filter (they need
the word's dictionary entry); `filter` the rest, on distinct tokens.

The tokenizer is exact: texts are cut where the Java search provably commits (see
japanese_lattice), the pieces are searched together with numpy and remembered (a piece
of text seen before, in the same context, gives the same words), and the rare piece
where the Java search may have been forced to commit early runs through the
step-for-step port (japanese_viterbi).

Derived from Apache Lucene (the analysis-kuromoji module and CJKWidthCharFilter),
licensed under the Apache License, Version 2.0; the dictionary is mecab-ipadic's. See
sparsebench/resources/lucene/ja/NOTICE.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from itertools import chain as chain_iterables

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.encode.lucene import japanese_lattice as lattice
from sparsebench.encode.lucene.chains import Chain
from sparsebench.encode.lucene.filters import chained, lowercase, stop, word_set
from sparsebench.encode.lucene.japanese_dictionary import (
    KANJI,
    KANJINUMERIC,
    Dictionary,
    dictionary,
    width_fold,
)
from sparsebench.encode.lucene.japanese_trie import Trie, trie
from sparsebench.encode.lucene.japanese_viterbi import tokenize as tokenize_step_by_step
from sparsebench.encode.strings import as_string_array

SPACE = 2  # CharacterDefinition.SPACE: tab, line feed, vertical tab, space
EOS = -1  # what follows a chunk: the end of its text (else the SPACE word)
_SLICE_UNITS = 1 << 17  # chunks are searched in slices of about this many code units
_MEMO_ENTRIES = 1 << 18  # each memo is emptied when it grows past this

# A chunk or piece in context: (right id of the word before, left id of the word after
# or EOS, its text as UTF-16 code units in a str).
Key = tuple[int, int, str]


def _unit_string(units: np.ndarray) -> str:
    """Code units as a str of one character each (surrogates stay apart)."""
    return units.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


def _text(units: str) -> str:
    """A str of UTF-16 code units as text (a lone surrogate becomes U+FFFD, as Lucene's
    UTF-8 conversion of a term makes it)."""
    if units.isascii() or not any("\ud800" <= c <= "\udfff" for c in units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


@dataclass
class _Pieces:
    """Chunks cut at the commit points found before any cost is known."""

    start: np.ndarray
    end: np.ndarray
    chunk: np.ndarray
    start_right: np.ndarray
    end_left: np.ndarray  # EOS, or the SPACE word's left id


@dataclass
class JapaneseTokenizer:
    """JapaneseTokenizer, JapaneseBaseFormFilter and JapanesePartOfSpeechStopFilter over
    batches of texts, with the terms of chunks and pieces remembered across batches."""

    d: Dictionary
    trie: Trie
    space_id: int  # left (= right) id of the unknown SPACE word
    keep_word: np.ndarray  # bool per word: its part of speech is not a stop tag
    kanji: np.ndarray  # bool per code unit: CharacterDefinition.isKanji
    chunks: dict[Key, tuple[str, ...]] = field(default_factory=dict)
    pieces: dict[Key, tuple[str, ...]] = field(default_factory=dict)
    compounds: dict[tuple, list[tuple[int, int, int]] | None] = field(default_factory=dict)

    def tokenize(self, texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
        """(text index per token, tokens) of a batch of texts, in text order."""
        strings = as_string_array(texts).to_pylist()
        units, offsets = self._units(strings)
        keys, text_of = self._chunks(units, offsets)
        if len(self.chunks) > _MEMO_ENTRIES:
            self.chunks.clear()
        self._analyze(list({key: None for key in keys if key not in self.chunks}))
        results = [self.chunks[key] for key in keys]
        counts = np.fromiter(map(len, results), dtype=np.int64, count=len(results))
        tokens = pa.array(list(chain_iterables.from_iterable(results)), type=pa.string())
        return np.repeat(text_of, counts), tokens

    def _units(self, strings: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The texts' UTF-16 code units after CJKWidthCharFilter, end to end, and where
        each text starts."""
        joined = "".join(strings)
        units = np.frombuffer(joined.encode("utf-16-le", "surrogatepass"), dtype="<u2")
        if len(units) == len(joined):
            lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
        else:
            lengths = np.array([len(s.encode("utf-16-le", "surrogatepass")) // 2 for s in strings])
        offsets = np.zeros(len(strings) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        folded, keep = width_fold(units, offsets[:-1], self.d)
        if not keep.all():
            kept = np.zeros(len(keep) + 1, dtype=np.int64)
            np.cumsum(keep, out=kept[1:])
            offsets = kept[offsets]
        return folded, offsets

    def _chunks(self, units: np.ndarray, offsets: np.ndarray) -> tuple[list[Key], np.ndarray]:
        """The chunks of the texts (runs without whitespace) in context, and their texts."""
        n = len(units)
        space = self.d.char_class[units] == SPACE
        boundary = np.zeros(n + 1, dtype=bool)
        boundary[offsets] = True
        before = np.ones(n, dtype=bool)
        before[1:] = space[:-1]
        after = np.ones(n, dtype=bool)
        after[:-1] = space[1:]
        starts = np.flatnonzero(~space & (before | boundary[:n]))
        ends = np.flatnonzero(~space & (after | boundary[1:])) + 1
        text_of = np.searchsorted(offsets, starts, side="right") - 1
        start_right = np.where(starts != offsets[text_of], self.space_id, 0).tolist()
        end_left = np.where(ends != offsets[text_of + 1], self.space_id, EOS).tolist()
        text = _unit_string(units)
        keys = [
            (right, left, text[a:b])
            for right, left, a, b in zip(start_right, end_left, starts.tolist(), ends.tolist())
        ]
        return keys, text_of

    def _analyze(self, keys: list[Key]) -> None:
        """The terms of chunks not seen before, into the chunk memo."""
        keys = sorted(keys, key=lambda key: len(key[2]))
        first = 0
        while first < len(keys):
            last, total = first, 0
            while last < len(keys) and (last == first or total + len(keys[last][2]) <= _SLICE_UNITS):
                total += len(keys[last][2]) + 1
                last += 1
            self._analyze_slice(keys[first:last])
            first = last

    def _analyze_slice(self, keys: list[Key]) -> None:
        d = self.d
        lengths = np.fromiter((len(key[2]) for key in keys), dtype=np.int64, count=len(keys))
        starts, ends = lattice.chunk_layout(lengths)
        text = "\x00".join(key[2] for key in keys)
        units = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
        units = units.astype(np.uint16)
        n = len(units)
        found = lattice.words(units, starts, ends, d, self.trie)
        pieces = self._pieces(found, starts, ends, keys, n)
        piece_keys = [
            (right, left, text[a:b])
            for right, left, a, b in zip(
                pieces.start_right.tolist(),
                pieces.end_left.tolist(),
                pieces.start.tolist(),
                pieces.end.tolist(),
            )
        ]
        if len(self.pieces) > _MEMO_ENTRIES:
            self.pieces.clear()
        todo: dict[Key, int] = {}
        for index, key in enumerate(piece_keys):
            if key not in self.pieces and key not in todo:
                todo[key] = index
        if todo:
            self._search(found, pieces, np.fromiter(todo.values(), np.int64), units, text, n)
        piece_chunk = pieces.chunk.tolist()
        terms: list[list[str]] = [[] for _ in keys]
        for chunk, key in zip(piece_chunk, piece_keys):
            terms[chunk].extend(self.pieces[key])
        for key, chunk_terms in zip(keys, terms):
            self.chunks[key] = tuple(chunk_terms)

    def _pieces(
        self, found: lattice.Words, starts: np.ndarray, ends: np.ndarray, keys: list[Key], n: int
    ) -> _Pieces:
        """The chunks cut at their inner commit points."""
        commits = lattice.commit_points(found, n)
        chunk_of = np.searchsorted(starts, commits, side="right") - 1
        commits = commits[(commits > starts[chunk_of]) & (commits < ends[chunk_of])]
        piece_start = np.concatenate([starts, commits])
        order = np.argsort(piece_start, kind="stable")
        piece_start = piece_start[order]
        chunk = np.searchsorted(starts, piece_start, side="right") - 1
        last = np.ones(len(piece_start), dtype=bool)
        last[:-1] = chunk[1:] != chunk[:-1]
        piece_end = np.where(last, ends[chunk], np.roll(piece_start, -1))
        # The word a piece starts after: the one word ending at its start, or the
        # chunk's context (BOS or the SPACE word).
        ending_word = np.full(n + 1, -1, dtype=np.int64)
        ending_word[found.end] = found.word
        chunk_right = np.array([key[0] for key in keys], dtype=np.int64)
        chunk_left = np.array([key[1] for key in keys], dtype=np.int64)
        first = np.ones(len(piece_start), dtype=bool)
        first[1:] = chunk[1:] != chunk[:-1]
        inner_word = ending_word[piece_start]
        start_right = np.where(
            first, chunk_right[chunk], self.d.word_left[np.maximum(inner_word, 0)]
        )
        end_left = np.where(last, chunk_left[chunk], EOS)
        return _Pieces(piece_start, piece_end, chunk, start_right, end_left)

    def _search(
        self,
        found: lattice.Words,
        pieces: _Pieces,
        todo: np.ndarray,
        units: np.ndarray,
        text: str,
        n: int,
    ) -> None:
        """The terms of the pieces todo (indices into pieces), into the piece memo."""
        d = self.d
        starts, ends = pieces.start[todo], pieces.end[todo]
        piece_of_word = np.searchsorted(pieces.start, found.start, side="right") - 1
        wanted = np.zeros(len(pieces.start), dtype=bool)
        wanted[todo] = True
        mine = found.take(np.flatnonzero(wanted[piece_of_word]))
        start_right = pieces.start_right[todo]
        end_left = pieces.end_left[todo]
        result = lattice.search(mine, starts, ends, start_right, n, d)
        path_piece, path_word = lattice.best_paths(
            result, starts, ends, np.maximum(end_left, 0), d
        )
        crowded = set(lattice.crowded_pieces(result, starts, ends, n).tolist())
        bounds = np.searchsorted(path_piece, np.arange(len(todo) + 1))
        path_start = mine.start[path_word].tolist()
        path_end = mine.end[path_word].tolist()
        path_w = mine.word[path_word].tolist()
        kanji = self.kanji[units]
        kanji_count = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(kanji, out=kanji_count[1:])
        length = mine.end[path_word] - mine.start[path_word]
        all_kanji = kanji_count[mine.end[path_word]] - kanji_count[mine.start[path_word]] == length
        too_long = ((length > lattice.SEARCH_MODE_KANJI_LENGTH) & all_kanji) | (
            length > lattice.SEARCH_MODE_OTHER_LENGTH
        )
        too_long_list = too_long.tolist()
        for i, index in enumerate(todo.tolist()):
            start, end = int(starts[i]), int(ends[i])
            right, left = int(start_right[i]), int(end_left[i])
            if i in crowded:
                tokens = self._step_by_step(units[start:end], right, left)
                tokens = [(s + start, e + start, w) for s, e, w in tokens]
            else:
                a, b = bounds[i], bounds[i + 1]
                tokens = list(zip(path_start[a:b], path_end[a:b], path_w[a:b]))
                if any(too_long_list[a:b]):
                    tokens = self._decompound(tokens, too_long_list[a:b], mine, right, left, kanji)
            self.pieces[(right, left, text[start:end])] = self._terms(tokens, units, text)

    def _step_by_step(self, units: np.ndarray, right: int, left: int) -> list:
        """A piece through the port of the Java class (SPACE after it stands as itself)."""
        after = [0x20] if left == self.space_id else []
        return tokenize_step_by_step(units.tolist() + after, right)

    def _decompound(
        self,
        tokens: list[tuple[int, int, int]],
        too_long: list[bool],
        found: lattice.Words,
        right: int,
        left: int,
        kanji: np.ndarray,
    ) -> list[tuple[int, int, int]]:
        """SEARCH mode: each too-long word of a best path (right to left, as the Java
        backtrace) replaced by the path under it, when that path is good enough."""
        d = self.d
        out: list[tuple[int, int, int]] = []
        last_left = left  # EOS: the Java backtrace ends there (-1)
        for i in range(len(tokens) - 1, -1, -1):
            start, end, word = tokens[i]
            if too_long[i]:
                before = right if i == 0 else int(d.word_left[tokens[i - 1][2]])
                alternative = self._second_best(found, start, end, word, before, last_left, kanji)
                if alternative is not None:
                    out.extend(reversed(alternative))
                    last_left = int(d.word_left[alternative[0][2]])
                    continue
            out.append((start, end, word))
            last_left = int(d.word_left[word])
        return out[::-1]

    def _second_best(
        self,
        found: lattice.Words,
        start: int,
        end: int,
        word: int,
        right: int,
        last_left: int,
        kanji: np.ndarray,
    ) -> list[tuple[int, int, int]] | None:
        a, b = np.searchsorted(found.start, [start, end])
        inside = np.flatnonzero(found.end[a:b] <= end) + a
        span = tuple(
            zip(
                (found.start[inside] - start).tolist(),
                (found.end[inside] - start).tolist(),
                found.word[inside].tolist(),
            )
        )
        key = (right, last_left, word, end - start, span)
        if key not in self.compounds:
            if len(self.compounds) > _MEMO_ENTRIES:
                self.compounds.clear()
            local = kanji[start:end]
            words_ = [(s, e, w, lattice.penalty(local, s, e)) for s, e, w in span]
            compound = (0, end - start, word, lattice.penalty(local, 0, end - start))
            self.compounds[key] = lattice.second_best(words_, compound, right, last_left, self.d)
        alternative = self.compounds[key]
        if alternative is None:
            return None
        return [(s + start, e + start, w) for s, e, w in alternative]

    def _terms(self, tokens: Iterable[tuple[int, int, int]], units: np.ndarray, text: str):
        """Terms of tokens: punctuation dropped (discardPunctuation), stop tags dropped,
        the base form where the dictionary has one."""
        d = self.d
        terms = []
        for start, end, word in tokens:
            if d.punctuation[units[start]] or not self.keep_word[word]:
                continue
            base = d.word_base[word]
            terms.append(d.base_forms[base] if base >= 0 else _text(text[start:end]))
        return tuple(terms)


@cache
def japanese_tokenizer() -> JapaneseTokenizer:
    """The tokenizer, its dictionary and memos (one per process)."""
    d = dictionary()
    stop_tags = word_set("ja/stoptags.txt")
    keep_pos = np.array([tag not in stop_tags for tag in d.pos_tags])
    space_word = d.unknown_words(SPACE)
    return JapaneseTokenizer(
        d=d,
        trie=trie(),
        space_id=int(d.word_left[space_word.start]),
        keep_word=keep_pos[d.word_pos],
        kanji=np.isin(d.char_class, [KANJI, KANJINUMERIC]),
    )


def tokenize_batch(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    return japanese_tokenizer().tokenize(texts)


def katakana_stem(tokens: pa.Array) -> pa.Array:
    """JapaneseKatakanaStemFilter: a final prolonged sound mark (U+30FC) off a word of at
    least four characters, all in the Katakana block (U+30A0-U+30FF)."""
    return pc.replace_substring_regex(tokens, "^([\u30a0-\u30ff]{3,})\u30fc$", "\\1")


def chain(language: str) -> Chain:
    return Chain(
        language=language,
        lucene_class="org.apache.lucene.analysis.ja.JapaneseAnalyzer",
        tokenize=tokenize_batch,
        filter=chained(stop(word_set("ja/stopwords.txt")), katakana_stem, lowercase),
    )
