"""Lucene's ThaiTokenizer (th/tokenizer), exactly, over a batch of texts, each distinct
stretch of text tokenized once.

Within a sentence, the Thai word iterator's text can be cut after a space and before a
`piece_starters` character (th/word_pieces.piece_boundaries): either side breaks as
it would alone, given only whether the character after the cut is a letter of the
dictionary's script. So the batch splits its texts at every U+0020 with Arrow and glues
back each part that does not start such a piece (an empty one, one that starts with a
space, a line break or a mark); each resulting group is named by its text and what
follows it: the end of its sentence, or a space and a dictionary letter, or a space and
anything else (the same for a group with no character for the port: see
`_group_tokens`). The groups of a batch of natural text are few: each new one is
tokenized once as a sentence of its own (th/fast_sentences), as its text followed by
nothing, " " or " ก" (whose token is dropped), remembered across batches, and its tokens
are repeated wherever it occurs.

A text without a sentence mark (". ! ?" and the like, U+FFFF) and shorter than the
tokenizer's buffer is one sentence. The sentences of the others, and the buffers of the
long ones, are found for all of them at once (th/fast_break_scans, th/tokenizer.buffers);
a sentence starts with a part, or cuts one in two. Python cuts into sentences only the
few texts the batch's iterator leaves to the port (th/tokenizer.sentences), and the
texts with a character beyond U+FFFF go whole to th/tokenizer's exact path.

Speed layer (fast_*): a second implementation of th/tokenizer.tokenize_exact, text by
text, which it must equal;
tests/analysis/test_thai.py::test_batch_tokenizer_equals_the_port and
test_batch_splits_at_spaces_as_the_port hold them equal. Its speed is in
benchmarks/RESULTS.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis.th.break_data import IGNORE, word_rules
from sparsebench.analysis.th.break_iterator import sentence_mark_chars
from sparsebench.analysis.th.fast_break_scans import sentence_breaks_batch
from sparsebench.analysis.th.fast_runs import COMPLEX, run_model
from sparsebench.analysis.th.fast_sentences import Store, sentence_tokens
from sparsebench.analysis.th.fast_sentences import clear_caches as clear_sentence_caches
from sparsebench.analysis.th.tokenizer import BUFFER, buffers, sentences, tokenize_exact
from sparsebench.analysis.th.word_pieces import piece_starters
from sparsebench.core.arrays import span_indices
from sparsebench.core.errors import DataError
from sparsebench.core.strings import as_string_array, string_buffers

# What follows a group: the end of its sentence, a space (and a character that is not a
# dictionary letter), a space and a dictionary letter; and the text after the group's
# that tokenizes it so (the letter's own token is dropped).
END, SPACE, SPACE_LETTER = 0, 1, 2
_AFTER = ("", " ", " \u0e01")
# Flags of characters: a sentence may end after it; it is beyond U+FFFF; it makes the Thai
# rules look around (th/fast_runs' COMPLEX); it starts a piece after a space; it is a letter
# of the dictionary's script. A part has the first three if a character of it has, the
# last two if its first character has.
MARK, ASTRAL, PORTED, STARTER, LETTER = 1, 2, 4, 8, 16


def tokenize_batch(
    texts: pa.Array | pa.ChunkedArray | Sequence[str],
) -> tuple[np.ndarray, pa.Array]:
    """ThaiTokenizer's tokens of every text: (text index per token, tokens), in text order."""
    array = as_string_array(texts).cast(pa.string())
    n = len(array)
    parts = _Parts.of(array, np.arange(n))
    text_flags = _any_per(parts.owner, parts.flags[parts.ids], n)
    whole = (text_flags & ASTRAL) > 0  # (its characters are not its UTF-16 units)
    long = (pc.utf8_length(array).to_numpy(zero_copy_only=False) >= BUFFER) & ~whole
    cut = (((text_flags & MARK) > 0) & ~whole) | long
    ported = np.zeros(n, dtype=bool)
    if cut.any():
        parts, ported = _mark_sentences(array, parts, cut, long)
    if ported.any() or whole.any():
        parts = parts.only(~(ported | whole)[parts.owner])
    if ported.any():
        parts = parts.merged(_ported_sentence_parts(array, ported), n)
    token_owner, tokens = _group_tokens(parts)
    if not whole.any():
        return token_owner, tokens
    which = np.flatnonzero(whole)
    found = [tokenize_exact(text) for text in array.take(which).to_pylist()]
    exact_owner = np.repeat(which, [len(each) for each in found])
    at, at_exact = _interleave(token_owner, exact_owner, n)
    index = np.empty(len(at) + len(at_exact), dtype=np.int64)
    index[at], index[at_exact] = token_owner, exact_owner
    order = np.empty(len(index), dtype=np.int64)
    order[at], order[at_exact] = np.arange(len(at)), len(at) + np.arange(len(at_exact))
    exact = pa.array([token for each in found for token in each], type=pa.string())
    return index, pa.concat_arrays([tokens, exact]).take(pa.array(order))


def clear_caches() -> None:
    """Forget every remembered group, piece, region and range (for measurements)."""
    clear_sentence_caches()
    _groups.clear()


class _Parts:
    """The parts of strings (texts, or sentences of texts) between U+0020s, in text order:
    each part's number among the distinct parts (`names`, with their `flags`), its text,
    whether it opens a string, and whether a sentence starts with it."""

    def __init__(
        self,
        names: pa.Array,
        ids: np.ndarray,
        owner: np.ndarray,
        opens: np.ndarray,
        sentence: np.ndarray | None = None,
        flags: np.ndarray | None = None,
    ) -> None:
        self.names, self.ids, self.owner, self.opens = names, ids, owner, opens
        self.sentence = opens.copy() if sentence is None else sentence
        self.flags = _part_flags(names) if flags is None else flags

    @classmethod
    def of(cls, strings: pa.Array, owner: np.ndarray) -> _Parts:
        """The parts of strings of the given texts."""
        lists = pc.split_pattern(strings, " ")
        per = pc.list_value_length(lists).to_numpy(zero_copy_only=False).astype(np.int64)
        encoded = pc.dictionary_encode(lists.flatten())
        ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        opens = np.zeros(len(ids), dtype=bool)
        opens[np.cumsum(per) - per] = True  # (a string has a part at least)
        return cls(encoded.dictionary, ids, np.repeat(owner, per), opens)

    def only(self, keep: np.ndarray) -> _Parts:
        kept = (self.ids[keep], self.owner[keep], self.opens[keep], self.sentence[keep])
        return _Parts(self.names, *kept, flags=self.flags)

    def merged(self, other: _Parts, n: int) -> _Parts:
        """These parts and another's, of other texts, in text order, with their names
        made one."""
        encoded = pc.dictionary_encode(pa.concat_arrays([self.names, other.names]))
        number = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        at, at_other = _interleave(self.owner, other.owner, n)
        out = []
        for mine, theirs in (
            (number[self.ids], number[len(self.names) + other.ids]),
            (self.owner, other.owner),
            (self.opens, other.opens),
            (self.sentence, other.sentence),
        ):
            both = np.empty(len(at) + len(at_other), dtype=mine.dtype)
            both[at], both[at_other] = mine, theirs
            out.append(both)
        return _Parts(encoded.dictionary, *out)

    def cut(self, which: np.ndarray, offset: np.ndarray) -> _Parts:
        """The parts with some cut at character offsets (which: their indices, sorted),
        each piece after a cut opening a string (the sentence before ends there)."""
        pieces = 1 + np.bincount(which, minlength=len(self.ids))
        first = np.cumsum(pieces) - pieces  # where each part's pieces go
        source = np.repeat(np.arange(len(self.ids)), pieces)
        ids, owner, opens, sentence = (
            a[source] for a in (self.ids, self.owner, self.opens, self.sentence)
        )
        split = np.flatnonzero(pieces > 1)
        texts = self.names.take(pa.array(self.ids[split])).to_pylist()
        offsets, ends = offset.tolist(), np.cumsum(pieces[split] - 1).tolist()
        names: list[str] = []
        for text, a, b in zip(texts, [0, *ends[:-1]], ends, strict=True):
            at = [0, *offsets[a:b], len(text)]
            names += (text[s:e] for s, e in zip(at, at[1:], strict=False))
        where = span_indices(first[split], first[split] + pieces[split])
        ids[where] = len(self.names) + np.arange(len(names))
        later = np.ones(len(where), dtype=bool)
        later[np.cumsum(pieces[split]) - pieces[split]] = False
        opens[where[later]] = sentence[where[later]] = True
        new = pa.array(names, type=pa.string())
        flags = np.concatenate((self.flags, _part_flags(new)))
        return _Parts(pa.concat_arrays([self.names, new]), ids, owner, opens, sentence, flags)


def _mark_sentences(
    array: pa.Array, parts: _Parts, marked: np.ndarray, long: np.ndarray
) -> tuple[_Parts, np.ndarray]:
    """The parts with the sentences of the marked texts marked (those of each buffer of
    the long ones: th/tokenizer.buffers; th/fast_break_scans): a sentence that starts with
    a part, or cut out of one where it starts inside it (or at the space after it); and
    the texts the batch iterator leaves to the port."""
    which = np.flatnonzero(marked)
    texts = array.take(which)
    data = string_buffers(texts)[1]
    codes = np.frombuffer(data.tobytes().decode("utf-8").encode("utf-16-le"), dtype=np.uint16)
    starts = np.append(0, np.cumsum(pc.utf8_length(texts).to_numpy(zero_copy_only=False)))
    inner = [np.zeros(0, dtype=np.int64)]  # where the buffers of long texts start
    for k in np.flatnonzero(long[which]).tolist():
        text = texts[k].as_py()
        inner.append(starts[k] + np.array([s for s, _ in buffers(len(text), text)[1:]]))
    bounds = np.concatenate(inner).astype(np.int64)
    buffer_starts = np.sort(np.concatenate((starts, bounds)))
    breaks, ported_buffers = sentence_breaks_batch(codes, buffer_starts)
    ported = np.zeros(len(which), dtype=bool)
    in_text = np.searchsorted(starts, buffer_starts[:-1][ported_buffers], side="right") - 1
    ported[in_text] = True
    breaks = np.sort(np.concatenate((breaks, bounds)))
    first_part = np.searchsorted(parts.owner, np.arange(len(array) + 1))
    mine = span_indices(first_part[which], first_part[which + 1])  # the texts' parts
    # where each of them starts in `codes`: its text's start, or after a U+0020
    after_space = np.flatnonzero(codes == 0x20) + 1
    at = np.insert(after_space, np.searchsorted(after_space, starts[:-1]), starts[:-1])
    found = np.searchsorted(at, breaks, side="right") - 1  # the part each break falls in
    offset = breaks - at[found]
    parts.sentence[mine[found[offset == 0]]] = True
    inside = offset > 0
    if inside.any():
        parts = parts.cut(mine[found[inside]], offset[inside])
    out = np.zeros(len(array), dtype=bool)
    out[which[ported]] = True
    return parts, out


def _ported_sentence_parts(array: pa.Array, ported: np.ndarray) -> _Parts:
    """The parts of the sentences of the texts left to the port, found by it."""
    which = np.flatnonzero(ported)
    found: list[str] = []
    owner: list[int] = []
    for i, text in zip(which.tolist(), array.take(which).to_pylist(), strict=True):
        spans = sentences(text)
        found += (text[s:e] for s, e in spans)
        owner += [i] * len(spans)
    strings = pa.array(found, type=pa.string())
    return _Parts.of(strings, np.array(owner, dtype=np.int64))


@cache
def _char_flags() -> np.ndarray:
    """MARK, PORTED, STARTER and LETTER of every BMP character."""
    rules = word_rules()
    category = rules.bmp_categories()
    letter = np.array(rules.dictionary, dtype=bool)[category] & (category != IGNORE)
    flags = np.where(letter, LETTER, 0).astype(np.uint8)
    flags[sentence_mark_chars()] |= MARK
    flags[piece_starters()] |= STARTER
    flags[(run_model().flags & COMPLEX) > 0] |= PORTED
    return flags


def _part_flags(names: pa.Array) -> np.ndarray:
    """The flags of each part (see MARK)."""
    offsets, data = string_buffers(names)
    code = np.frombuffer(data.tobytes().decode("utf-8").encode("utf-32-le"), dtype=np.uint32)
    flags = _char_flags()[np.minimum(code, 0xFFFF)]
    flags[code > 0xFFFF] = ASTRAL
    lengths = pc.utf8_length(names).to_numpy(zero_copy_only=False).astype(np.int64)
    start = np.cumsum(lengths) - lengths
    nonempty = lengths > 0
    out = np.zeros(len(names), dtype=np.uint8)
    if nonempty.any():
        out[nonempty] = np.bitwise_or.reduceat(flags, start[nonempty]) & (MARK | ASTRAL | PORTED)
        out[nonempty] |= flags[start[nonempty]] & (STARTER | LETTER)
    return out


def _any_per(owner: np.ndarray, flags: np.ndarray, n: int) -> np.ndarray:
    """The flags (MARK, ASTRAL) of each of n texts: those of any of its parts."""
    out = np.zeros(n, dtype=np.uint8)
    for flag in (MARK, ASTRAL):
        has = (flags & flag) > 0
        out[np.bincount(owner[has], minlength=n) > 0] |= flag
    return out


def _interleave(first: np.ndarray, second: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Where the items of two lists go in one list in text order, given the (sorted)
    texts of their items, no text having items in both."""
    count_first = np.bincount(first, minlength=n)
    count_second = np.bincount(second, minlength=n)
    total = count_first + count_second
    start = np.cumsum(total) - total
    out = []
    for owner, count in ((first, count_first), (second, count_second)):
        before = (np.cumsum(count) - count)[owner]
        out.append(start[owner] + np.arange(len(owner)) - before)
    return out[0], out[1]


def _group_tokens(parts: _Parts) -> tuple[np.ndarray, pa.Array]:
    """The tokens of the parts' groups: (text index per token, tokens)."""
    if not len(parts.ids):
        return np.zeros(0, dtype=np.int64), pa.array([], type=pa.string())
    new_string = np.append(parts.opens, True)  # (and the end)
    new_sentence = np.append(parts.sentence, True)
    first_flags = parts.flags[parts.ids]
    begins = new_sentence[:-1] | ((first_flags & STARTER) > 0)
    start = np.flatnonzero(begins)
    names, name, has_port = _group_names(parts, start)
    following = np.append(start[1:], len(begins))  # the next group
    letter = (np.append(first_flags[start[1:]], 0) & LETTER) > 0
    # Before a space and a letter, a group that has no character for the port breaks as
    # before a space (its last Thai range reads the space, what follows the space is
    # another region: th/fast_runs), so it is named so.
    letter &= has_port[name] & ~new_sentence[following]
    after = np.where(letter, SPACE_LETTER, SPACE)
    after[new_string[following]] = END
    key = name * 3 + after
    present = np.zeros(3 * len(names), dtype=bool)
    present[key] = True
    distinct = np.flatnonzero(present)
    texts = names.take(pa.array(distinct // 3)).to_pylist()
    keys = list(zip(texts, (distinct % 3).tolist(), strict=True))
    number = _groups.numbers(keys)[(np.cumsum(present) - 1)[key]]
    offsets = pa.array(np.append(_groups.first, len(_groups.flat)).astype(np.int32))
    each = pa.ListArray.from_arrays(offsets, _groups.flat)  # each group's tokens
    tokens = each.take(pa.array(number)).flatten()
    return np.repeat(parts.owner[start], _groups.count[number]), tokens


def _group_names(parts: _Parts, start: np.ndarray) -> tuple[pa.Array, np.ndarray, np.ndarray]:
    """The names of the groups that begin at `start` (the parts' names, and those of the
    groups of several parts, joined by spaces, after them), each group's name, and which
    names have a character for the port."""
    size = np.diff(np.append(start, len(parts.ids)))
    name = parts.ids[start]
    several = size > 1
    if not several.any():
        return parts.names, name, (parts.flags & PORTED) > 0
    inside = span_indices(start[several], start[several] + size[several])
    offsets = np.zeros(several.sum() + 1, dtype=np.int32)
    np.cumsum(size[several], out=offsets[1:])
    values = parts.names.take(pa.array(parts.ids[inside]))
    joined = pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), values), " ")
    encoded = pc.dictionary_encode(joined)
    indices = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    name[several] = len(parts.names) + indices
    flags = np.concatenate((parts.flags, _part_flags(encoded.dictionary)))
    return pa.concat_arrays([parts.names, encoded.dictionary]), name, (flags & PORTED) > 0


def _tokenize_groups(keys: list[tuple[str, int]]) -> tuple[np.ndarray, pa.Array]:
    """The tokens of groups named by their text and what follows them: (how many of each,
    all of them)."""
    texts = pa.array([text + _AFTER[after] for text, after in keys], type=pa.string())
    owner, tokens = sentence_tokens(texts)
    count = np.bincount(owner, minlength=len(keys))
    letter = np.array([after == SPACE_LETTER for _, after in keys], dtype=bool)
    dropped = (np.cumsum(count) - 1)[letter]  # the last token: the letter after the group
    if (
        not (count[letter] > 0).all()
        or pc.any(pc.not_equal(tokens.take(dropped), "\u0e01")).as_py()
    ):
        raise DataError("the Thai word rules do not cut before a letter after a space")
    keep = np.ones(len(tokens), dtype=bool)
    keep[dropped] = False
    return count - letter, tokens.filter(pa.array(keep))


_groups = Store(_tokenize_groups, pa.array([], type=pa.string()))
