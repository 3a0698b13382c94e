"""JapaneseTokenizer (Mode.SEARCH, punctuation and compound tokens discarded, no user
dictionary) after CJKWidthCharFilter, then JapaneseBaseFormFilter and
JapanesePartOfSpeechStopFilter, over batches of texts: as JapaneseAnalyzer runs them.

A batch goes through these steps (japanese_lattice holds the searches):

1. the texts as UTF-16 code units, width-folded, cut into chunks at whitespace;
2. chunks seen before (in the same context) take their terms from a memo;
3. the other chunks are laid out together, their words found, and cut into pieces at
   the positions where the Java search commits whatever the costs;
4. the pieces are searched together; a too-long word on a best path is replaced by the
   path under it where SEARCH mode takes it (memoised on the words under it and its
   context); a piece where the Java search may have been forced to commit early is
   run by the step-for-step port;
5. tokens starting with punctuation and words with a stop tag are dropped, and a word
   becomes its base form where the dictionary has one.

The chunk memo keeps short chunks only (names, words between spaces: long ones seldom
come back); a memo is emptied when it grows past its size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import chain

import numpy as np
import pyarrow as pa

from sparsebench.encode.lucene import japanese_lattice as lattice
from sparsebench.encode.lucene.filters import word_set
from sparsebench.encode.lucene.japanese_chunks import (
    EOS,
    SPACE,
    Key,
    Terms,
    chunks,
    folded_units,
)
from sparsebench.encode.lucene.japanese_dictionary import (
    KANJI,
    KANJINUMERIC,
    Connections,
    Dictionary,
    dictionary,
)
from sparsebench.encode.lucene.japanese_trie import Trie, trie
from sparsebench.encode.lucene.japanese_viterbi import tokenize as tokenize_step_by_step
from sparsebench.encode.strings import as_string_array

_SLICE_UNITS = 1 << 17  # chunks and pieces are searched in slices of about this many units
_MEMO_UNITS = 64  # longer chunks are not remembered
_CHUNK_MEMO = 1 << 16  # entries (about 40 MB at most)
_COMPOUND_MEMO = 1 << 15  # entries (about 40 MB at most)


def _text(units: str) -> str:
    """A str of UTF-16 code units as text (a lone surrogate becomes U+FFFD, as Lucene's
    UTF-8 conversion of a term makes it)."""
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _recall(memo: dict[Key, Terms], keys: list[Key]) -> tuple[dict[Key, Terms], list[Key]]:
    """The keys' terms the memo has, and the other keys (each once, in order)."""
    known: dict[Key, Terms] = {}
    missing = []
    for key in dict.fromkeys(keys):
        terms = memo.get(key)
        if terms is None:
            missing.append(key)
        else:
            known[key] = terms
    return known, missing


def _remember(memo: dict[Key, Terms], found: dict[Key, Terms]) -> None:
    """Keep the short chunks' terms (emptying the memo first when it is full)."""
    if len(memo) > _CHUNK_MEMO:
        memo.clear()
    memo.update((key, terms) for key, terms in found.items() if len(key[2]) <= _MEMO_UNITS)


def _slices(lengths: list[int]) -> list[tuple[int, int]]:
    """Consecutive groups of about _SLICE_UNITS units (at least one item each)."""
    out, first, total = [], 0, 0
    for i, length in enumerate(lengths):
        if i > first and total + length > _SLICE_UNITS:
            out.append((first, i))
            first, total = i, 0
        total += length + 1
    if first < len(lengths):
        out.append((first, len(lengths)))
    return out


@dataclass(frozen=True)
class _Pieces:
    """Chunks cut at the positions where the Java search commits whatever the costs."""

    start: np.ndarray
    end: np.ndarray
    chunk: np.ndarray
    start_right: np.ndarray  # right id of the word a piece starts after
    end_left: np.ndarray  # EOS, or the SPACE word's left id after a chunk's last piece

    def __getitem__(self, part: slice) -> _Pieces:
        return self.take(part)

    def take(self, index: slice | np.ndarray) -> _Pieces:
        return _Pieces(
            self.start[index],
            self.end[index],
            self.chunk[index],
            self.start_right[index],
            self.end_left[index],
        )


def _queries(
    pieces: _Pieces, last: np.ndarray, lefts: list[list[int]]
) -> tuple[np.ndarray, _Pieces]:
    """The pieces to take a best path of, with what follows each: a chunk's inner pieces
    once (EOS: the Java search commits at their ends), its last piece once per context
    after the chunk (lefts). Returns the piece of each query, and the queries."""
    n_lefts = np.fromiter(map(len, lefts), dtype=np.int64, count=len(lefts))
    count = np.where(last, n_lefts[pieces.chunk], 1)
    query_piece = np.repeat(np.arange(len(count)), count)
    rank = np.arange(len(query_piece)) - np.repeat(np.cumsum(count) - count, count)
    flat = np.fromiter(chain.from_iterable(lefts), dtype=np.int64, count=int(n_lefts.sum()))
    chunk = pieces.chunk[query_piece]
    end_left = np.where(
        last[query_piece], flat[np.cumsum(n_lefts)[chunk] - n_lefts[chunk] + rank], EOS
    )
    queries = pieces.take(query_piece)
    return query_piece, _Pieces(queries.start, queries.end, chunk, queries.start_right, end_left)


@dataclass
class JapaneseTokenizer:
    """The tokenizer with its dictionary, and memos of chunks and compounds."""

    d: Dictionary
    trie: Trie
    space_id: int  # left (= right) id of the unknown SPACE word
    keep_word: np.ndarray  # bool per word: its part of speech is not a stop tag
    kanji: np.ndarray  # bool per code unit: CharacterDefinition.isKanji
    left: list[int]  # left (= right) id per word
    word_cost: list[int]
    connections: Connections
    chunks: dict[Key, Terms] = field(default_factory=dict)
    compounds: dict[tuple, list[tuple[int, int, int]] | None] = field(default_factory=dict)

    def tokenize(self, texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
        """(text index per token, terms) of a batch of texts, in text order."""
        units, offsets = folded_units(as_string_array(texts), self.d)
        found = chunks(units, offsets, self.d, self.space_id)
        known, missing = _recall(self.chunks, found.keys)
        analyzed = self._analyze(missing)
        _remember(self.chunks, analyzed)
        known.update(analyzed)
        return found.expand([known[key] for key in found.keys])

    def _analyze(self, keys: list[Key]) -> dict[Key, Terms]:
        """The terms of chunks: a chunk's text after a context is searched once for the
        contexts after it (they only choose the path's last word), shortest first, in
        slices."""
        lefts: dict[tuple[int, str], list[int]] = {}
        for right, left, text in keys:
            lefts.setdefault((right, text), []).append(left)
        searches = sorted(lefts, key=lambda search: len(search[1]))
        found: dict[Key, Terms] = {}
        for first, last in _slices([len(search[1]) for search in searches]):
            part = searches[first:last]
            found.update(self._analyze_slice(part, [lefts[search] for search in part]))
        return found

    def _analyze_slice(
        self, searches: list[tuple[int, str]], lefts: list[list[int]]
    ) -> dict[Key, Terms]:
        """The terms of chunks (right id before, text), each with the contexts after it."""
        lengths = np.fromiter((len(s[1]) for s in searches), dtype=np.int64, count=len(searches))
        starts, ends = lattice.chunk_layout(lengths)
        text = "\x00".join(search[1] for search in searches)
        units = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
        units = units.astype(np.uint16)
        n = len(units)
        found = lattice.words(units, starts, ends, self.d, self.trie)
        found = found.take(lattice.reached_superset(found, starts, n))
        rights = np.array([search[0] for search in searches], dtype=np.int64)
        pieces, last = self._pieces(found, starts, ends, rights, n)
        query_piece, queries = _queries(pieces, last, lefts)
        terms: list[str] = []
        query_of_term = []
        for first, stop in _slices((pieces.end - pieces.start).tolist()):
            q0, q1 = np.searchsorted(query_piece, [first, stop])
            low, high = np.searchsorted(found.start, [pieces.start[first], pieces.end[stop - 1]])
            query, part_terms = self._search(
                found[low:high],
                pieces[first:stop],
                query_piece[q0:q1] - first,
                queries[q0:q1],
                units,
                text,
                n,
            )
            terms.extend(part_terms)
            query_of_term.append(query + q0)
        bounds = np.searchsorted(np.concatenate(query_of_term), np.arange(len(query_piece) + 1))
        bounds = bounds.tolist()
        per_query = [tuple(terms[bounds[i] : bounds[i + 1]]) for i in range(len(query_piece))]
        chunk_first = np.searchsorted(queries.chunk, np.arange(len(searches) + 1)).tolist()
        out: dict[Key, Terms] = {}
        for c, (right, chunk_text) in enumerate(searches):
            endings = lefts[c]
            q0, q1 = chunk_first[c], chunk_first[c + 1] - len(endings)
            common = tuple(chain.from_iterable(per_query[q0:q1]))
            for j, left in enumerate(endings):
                out[(right, left, chunk_text)] = common + per_query[q1 + j]
        return out

    def _pieces(
        self,
        found: lattice.Words,
        starts: np.ndarray,
        ends: np.ndarray,
        rights: np.ndarray,
        n: int,
    ) -> tuple[_Pieces, np.ndarray]:
        """The chunks cut at their inner commit points (the end_left of a chunk's last
        piece is left EOS: the queries give it), and which pieces end a chunk."""
        commits = lattice.commit_points(found, n)
        chunk_of = np.searchsorted(starts, commits, side="right") - 1
        commits = commits[(commits > starts[chunk_of]) & (commits < ends[chunk_of])]
        piece_start = np.sort(np.concatenate([starts, commits]))
        chunk = np.searchsorted(starts, piece_start, side="right") - 1
        first = np.ones(len(piece_start), dtype=bool)
        first[1:] = chunk[1:] != chunk[:-1]
        last = np.ones(len(piece_start), dtype=bool)
        last[:-1] = first[1:]
        piece_end = np.where(last, ends[chunk], np.roll(piece_start, -1))
        # A piece starts after the one word ending at its start, or after the chunk's
        # context (BOS or the SPACE word).
        ending_word = np.zeros(n + 1, dtype=np.int64)
        ending_word[found.end] = found.word
        inner_right = self.d.word_left[ending_word[piece_start]]
        start_right = np.where(first, rights[chunk], inner_right)
        end_left = np.full(len(piece_start), EOS, dtype=np.int64)
        return _Pieces(piece_start, piece_end, chunk, start_right, end_left), last

    def _search(
        self,
        found: lattice.Words,
        pieces: _Pieces,
        query_piece: np.ndarray,
        queries: _Pieces,
        units: np.ndarray,
        text: str,
        n: int,
    ) -> tuple[np.ndarray, list[str]]:
        """The terms of queries (a piece and what follows it; found: the pieces' words),
        and the query of each."""
        d = self.d
        result = lattice.search(found, pieces.start, pieces.end, pieces.start_right, n, d)
        end_left = np.maximum(queries.end_left, 0)  # EOS is left id 0
        query, index = lattice.best_paths(result, pieces.end, query_piece, end_left, d)
        tokens = lattice.Tokens(query, found.start[index], found.end[index], found.word[index])
        penalties = lattice.penalties(found, self.kanji[units])
        if (penalties[index] > 0).any():
            tokens = self._decompound(tokens, penalties[index], found, penalties, queries)
        crowded = lattice.crowded_pieces(result, pieces.start, pieces.end, n)
        if len(crowded):
            crowded = np.flatnonzero(np.isin(query_piece, crowded))
            tokens = self._step_by_step(tokens, crowded, units, queries)
        keep = ~d.punctuation[units[tokens.start]] & self.keep_word[tokens.word]
        kept = tokens.take(np.flatnonzero(keep))
        terms = self._terms(kept, text, bool(((units >= 0xD800) & (units <= 0xDFFF)).any()))
        return kept.piece, terms

    def _terms(self, tokens: lattice.Tokens, text: str, surrogates: bool) -> list[str]:
        """JapaneseBaseFormFilter: the base form where the dictionary has one, else the
        text of the token."""
        base_forms = self.d.base_forms
        terms = [
            base_forms[base] if base >= 0 else text[start:end]
            for start, end, base in zip(
                tokens.start.tolist(),
                tokens.end.tolist(),
                self.d.word_base[tokens.word].tolist(),
                strict=True,
            )
        ]
        return [_text(term) for term in terms] if surrogates else terms

    def _step_by_step(
        self, tokens: lattice.Tokens, crowded: np.ndarray, units: np.ndarray, pieces: _Pieces
    ) -> lattice.Tokens:
        """The tokens of crowded pieces from the port of the Java class instead."""
        parts = [tokens.take(np.flatnonzero(~np.isin(tokens.piece, crowded)))]
        for piece in crowded.tolist():
            start, end = int(pieces.start[piece]), int(pieces.end[piece])
            after = [0x20] if pieces.end_left[piece] == self.space_id else []  # the SPACE word
            found = tokenize_step_by_step(
                units[start:end].tolist() + after, int(pieces.start_right[piece])
            )
            if found:
                s, e, w = (np.array(column, dtype=np.int64) for column in zip(*found, strict=True))
                parts.append(lattice.Tokens(np.full(len(s), piece), s + start, e + start, w))
        return lattice.Tokens.concatenate(parts)

    def _decompound(
        self,
        tokens: lattice.Tokens,
        token_penalty: np.ndarray,
        found: lattice.Words,
        penalties: np.ndarray,
        pieces: _Pieces,
    ) -> lattice.Tokens:
        """SEARCH mode: each too-long word of a best path (right to left, as the Java
        backtrace goes) replaced by the path under it, when that path is good enough."""
        left = self.left
        piece = tokens.piece.tolist()
        word = tokens.word.tolist()
        start_right = pieces.start_right.tolist()
        end_left = pieces.end_left.tolist()
        candidates = np.flatnonzero(token_penalty > 0)
        spans = self._spans(tokens.take(candidates), found, penalties)
        starts = tokens.start.tolist()
        replaced: dict[int, list[tuple[int, int, int]]] = {}
        for k in range(len(candidates) - 1, -1, -1):
            i = int(candidates[k])
            p = piece[i]
            if i + 1 < len(piece) and piece[i + 1] == p:
                after = replaced.get(i + 1)
                last_left = left[after[0][2] if after else word[i + 1]]
            else:
                last_left = end_left[p]  # EOS: where the Java backtrace starts
            right = start_right[p] if i == 0 or piece[i - 1] != p else left[word[i - 1]]
            key = (right, last_left, word[i], *spans[k])
            if key not in self.compounds:
                if len(self.compounds) > _COMPOUND_MEMO:
                    self.compounds.clear()
                span = np.frombuffer(key[4], dtype=np.int64).reshape(-1, 4).tolist()
                self.compounds[key] = lattice.second_best(
                    span, key[2:4], right, last_left, self.left, self.connections, self.word_cost
                )
            alternative = self.compounds[key]
            if alternative is not None:
                replaced[i] = [(s + starts[i], e + starts[i], w) for s, e, w in alternative]
        if not replaced:
            return tokens
        counts = np.ones(len(piece), dtype=np.int64)
        for i, alternative in replaced.items():
            counts[i] = len(alternative)
        out = lattice.Tokens(*(np.repeat(column, counts) for column in tokens.columns()))
        first = np.cumsum(counts) - counts
        for i, alternative in replaced.items():
            at = slice(first[i], first[i] + len(alternative))
            out.start[at], out.end[at], out.word[at] = zip(*alternative, strict=True)
        return out

    @staticmethod
    def _spans(
        compounds: lattice.Tokens, found: lattice.Words, penalties: np.ndarray
    ) -> list[tuple[int, bytes]]:
        """(length, words under it) of each too-long word: the words (start, end, word,
        penalty) from its start to its end, positions relative to its start, as bytes
        (what lattice.second_best reads, and the memo's key)."""
        low = np.searchsorted(found.start, compounds.start)
        high = np.searchsorted(found.start, compounds.end)
        index = lattice.ranges(low, high - low)
        owner = np.repeat(np.arange(len(low)), high - low)
        inside = found.end[index] <= compounds.end[owner]
        index, owner = index[inside], owner[inside]
        origin = compounds.start[owner]
        columns = (found.start[index], found.end[index], found.word[index], penalties[index])
        rows = np.stack(columns, axis=1).astype(np.int64)
        rows[:, :2] -= origin[:, None]
        data = rows.tobytes()
        bounds = (np.searchsorted(owner, np.arange(len(low) + 1)) * 32).tolist()
        lengths = (compounds.end - compounds.start).tolist()
        return [(lengths[k], data[bounds[k] : bounds[k + 1]]) for k in range(len(low))]


@cache
def japanese_tokenizer() -> JapaneseTokenizer:
    """The tokenizer, its dictionary and memos (one per process)."""
    d = dictionary()
    stop_tags = word_set("ja/stoptags.txt")
    keep_pos = np.array([tag not in stop_tags for tag in d.pos_tags])
    return JapaneseTokenizer(
        d=d,
        trie=trie(),
        space_id=int(d.word_left[d.unknown_words(SPACE).start]),
        keep_word=keep_pos[d.word_pos],
        kanji=np.isin(d.char_class, [KANJI, KANJINUMERIC]),
        left=d.word_left.tolist(),
        word_cost=d.word_cost.tolist(),
        connections=Connections(d),
    )
