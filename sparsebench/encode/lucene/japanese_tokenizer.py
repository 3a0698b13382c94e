"""JapaneseTokenizer (Mode.SEARCH, punctuation and compound tokens discarded, no user
dictionary) after CJKWidthCharFilter, then JapaneseBaseFormFilter and
JapanesePartOfSpeechStopFilter, over batches of texts: as JapaneseAnalyzer runs them.

A batch goes through these steps (japanese_lattice holds the searches):

1. the texts as UTF-16 code units, width-folded, cut into chunks at whitespace, and
   reduced to their distinct chunks in context (japanese_chunks);
2. the distinct texts of the chunks are laid out together, their words found, and cut
   into pieces at the positions where the Java search commits whatever the costs;
3. the pieces are searched together, a lane of the search per context a chunk starts
   after (BOS, the SPACE word); a best path is taken per piece, lane and context after
   it; a too-long word on a best path is replaced by the path under it where SEARCH
   mode takes it (memoised on the words under it and its context); a piece where the
   Java search may have been forced to commit early is run by the step-for-step port;
4. tokens starting with punctuation and words with a stop tag are dropped, and a word
   becomes its base form where the dictionary has one; each chunk takes its key's
   tokens.
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
    Chunks,
    chunks,
    folded_units,
    unit_string,
)
from sparsebench.encode.lucene.japanese_compounds import second_best
from sparsebench.encode.lucene.japanese_dictionary import (
    KANJI,
    KANJINUMERIC,
    Connections,
    Dictionary,
    dictionary,
)
from sparsebench.encode.lucene.japanese_queries import Pieces, Queries, key_queries
from sparsebench.encode.lucene.japanese_trie import Trie, trie
from sparsebench.encode.lucene.japanese_viterbi import tokenize as tokenize_step_by_step
from sparsebench.strings import as_string_array

_SLICE_UNITS = 1 << 17  # chunks and pieces are searched in slices of about this many units
_COMPOUND_MEMO = 1 << 15  # entries (about 40 MB at most)


def _text(units: str) -> str:
    """A str of UTF-16 code units as text (a lone surrogate becomes U+FFFD, as Lucene's
    UTF-8 conversion of a term makes it)."""
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


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


@dataclass
class JapaneseTokenizer:
    """The tokenizer with its dictionary, and its memo of compounds."""

    d: Dictionary
    trie: Trie
    space_id: int  # left (= right) id of the unknown SPACE word
    keep_word: np.ndarray  # bool per word: its part of speech is not a stop tag
    kanji: np.ndarray  # bool per code unit: CharacterDefinition.isKanji
    left: list[int]  # left (= right) id per word
    word_cost: list[int]
    connections: Connections
    compounds: dict[tuple, list[tuple[int, int, int]] | None] = field(default_factory=dict)

    def tokenize(self, texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
        """(text index per token, terms) of a batch of texts, in text order."""
        units, offsets = folded_units(as_string_array(texts), self.d)
        found = chunks(units, offsets, self.d, self.space_id)
        return found.expand(*self._analyze(found))

    def _analyze(self, c: Chunks) -> tuple[np.ndarray, np.ndarray, pa.Array]:
        """The tokens of each key: pool[first:first + count]; each distinct text searched
        once, shortest first, in slices."""
        lengths = np.diff(c.offsets)
        texts = np.argsort(lengths, kind="stable")
        rank = np.empty(len(texts), dtype=np.int64)
        rank[texts] = np.arange(len(texts))
        keys = np.argsort(rank[c.key_text], kind="stable")  # by their text's rank
        key_bounds = np.searchsorted(rank[c.key_text[keys]], np.arange(len(texts) + 1))
        count = np.zeros(len(c.key_text), dtype=np.int64)
        index, pools = [], []
        base = 0
        for first, last in _slices(lengths[texts].tolist()):
            part = keys[key_bounds[first] : key_bounds[last]]
            ids = texts[first:last]
            local = rank[c.key_text[part]] - first
            key_index, key_count, terms = self._analyze_slice(
                c.units, c.offsets[ids], lengths[ids], local, c.key_right[part], c.key_left[part]
            )
            count[part] = key_count
            index.append(key_index + base)
            pools.append(terms)
            base += len(terms)
        flat = np.concatenate(index) if index else np.zeros(0, np.int64)
        first = np.empty(len(keys), dtype=np.int64)  # flat holds the keys' tokens in keys order
        first[keys] = np.cumsum(count[keys]) - count[keys]
        pool = pa.array(list(chain.from_iterable(pools)), type=pa.string())
        return first, count, pool.take(pa.array(flat, type=pa.int64()))

    def _analyze_slice(
        self,
        all_units: np.ndarray,
        text_start: np.ndarray,
        lengths: np.ndarray,
        key_chunk: np.ndarray,
        key_right: np.ndarray,
        key_left: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """The tokens of keys (their chunk in this slice, and their context) of the texts
        of a slice (where each starts in all_units, its length), as indices into a list
        of terms: each key's tokens in key order, and their count per key."""
        starts, ends = lattice.chunk_layout(lengths)
        n = int(ends[-1]) if len(ends) else 0
        units = np.zeros(n, dtype=np.uint16)
        units[lattice.ranges(starts, lengths)] = all_units[lattice.ranges(text_start, lengths)]
        text = unit_string(units)
        found = lattice.words(units, starts, ends, self.d, self.trie)
        found = found.take(lattice.reached_superset(found, starts, n))
        pieces, first, last = self._pieces(found, starts, ends, n)
        rights = np.unique(key_right)  # the lanes of the search
        query, row_query, row_count = key_queries(
            pieces, first, last, key_chunk, key_right, key_left, rights
        )
        terms: list[str] = []
        query_of_term = []
        for begin, stop in _slices((pieces.end - pieces.start).tolist()):
            q0, q1 = np.searchsorted(query.piece, [begin, stop])
            low, high = np.searchsorted(found.start, [pieces.start[begin], pieces.end[stop - 1]])
            of_query, part_terms = self._search(
                found[low:high],
                pieces[begin:stop],
                query.take(slice(q0, q1), piece_base=begin),
                rights,
                first[begin:stop],
                units,
                text,
                n,
            )
            terms.extend(part_terms)
            query_of_term.append(of_query + q0)
        term_query = np.concatenate(query_of_term) if query_of_term else np.zeros(0, np.int64)
        bounds = np.searchsorted(term_query, np.arange(len(query.piece) + 1))
        q_first, q_count = bounds[:-1], np.diff(bounds)
        # A key's rows are its pieces in order, each row a query.
        index = lattice.ranges(q_first[row_query], q_count[row_query])
        rows_of_key = np.repeat(np.arange(len(key_chunk)), row_count)
        key_count = np.bincount(rows_of_key, weights=q_count[row_query], minlength=len(key_chunk))
        return index, key_count.astype(np.int64), terms

    def _pieces(
        self, found: lattice.Words, starts: np.ndarray, ends: np.ndarray, n: int
    ) -> tuple[Pieces, np.ndarray, np.ndarray]:
        """The chunks cut at their inner commit points, and which pieces start and end a
        chunk (their start_right and end_left are the queries')."""
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
        # An inner piece starts after the one word ending at its start.
        ending_word = np.zeros(n + 1, dtype=np.int64)
        ending_word[found.end] = found.word
        start_right = self.d.word_left[ending_word[piece_start]].astype(np.int64)
        end_left = np.full(len(piece_start), EOS, dtype=np.int64)
        return Pieces(piece_start, piece_end, chunk, start_right, end_left), first, last

    def _search(
        self,
        found: lattice.Words,
        pieces: Pieces,
        queries: Queries,
        rights: np.ndarray,
        first: np.ndarray,
        units: np.ndarray,
        text: str,
        n: int,
    ) -> tuple[np.ndarray, list[str]]:
        """The terms of queries (found: the pieces' words; a lane of the search per right
        id in rights: the pieces that start a chunk start after it), and the query of
        each term."""
        start_right = np.where(first, rights[:, None], pieces.start_right)
        d = self.d
        result = lattice.search(found, pieces.start, pieces.end, start_right, n, d)
        end_left = np.maximum(queries.end_left, 0)  # EOS is left id 0
        query, index = lattice.best_paths(
            result, pieces.end, queries.piece, queries.lane, end_left, d
        )
        tokens = lattice.Tokens(query, found.start[index], found.end[index], found.word[index])
        penalties = lattice.penalties(found, self.kanji[units])
        if (penalties[index] > 0).any():
            tokens = self._decompound(tokens, penalties[index], found, penalties, queries)
        crowded = lattice.crowded_pieces(result, pieces.start, pieces.end, n)
        if len(crowded):
            crowded = np.flatnonzero(np.isin(queries.piece, crowded))
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
        self, tokens: lattice.Tokens, crowded: np.ndarray, units: np.ndarray, pieces: Pieces
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
        pieces: Pieces,
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
                self.compounds[key] = second_best(
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
