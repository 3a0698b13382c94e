"""Lucene's CJKAnalyzer, which Anserini gives Chinese (zh) and Korean (ko), term for term.

CJKAnalyzer is StandardTokenizer, CJKWidthFilter, LowerCaseFilter, CJKBigramFilter
(bigrams of Han, Hiragana, Katakana and Hangul, no unigrams beside them) and StopFilter
(cjk/stopwords.txt: English words). StandardTokenizer makes each ideograph and each
hiragana a token of its own, and a run of katakana or of hangul one token (typed
<IDEOGRAPHIC>, <HIRAGANA>, <KATAKANA>, <HANGUL>; a token mixing hangul with Latin
letters or digits is <ALPHANUM> and stays whole). CJKBigramFilter joins the characters
of consecutive tokens of those types that touch (one ends where the next starts, in the
text's offsets) into one run, and gives each run's overlapping character bigrams, or
the run itself if it is one character; other tokens pass as they are. The width filter
and lowercasing come before it, so it bigrams their output: "ｶﾞｷﾞ" (half-width katakana
with voiced sound marks) is one token, folded to "ガギ", one bigram.

So `tokenize` is the tokenizer and the three filters (they need token types and offsets),
and `filter` the stopwords. The tokenizer gives ideographs and hiragana that follow one
another as one token (the bigram filter joins them again: a token per character would
only be regrouped). Where the two filters of single tokens change no character of a CJK
token (nearly always), the runs are spans of the text, and their bigrams and the other
tokens are Arrow string views of its bytes (the few other tokens the filters change,
of their filtered bytes); elsewhere the filters run per distinct token and `bigram_runs`
joins them.

Ported from Apache Lucene 9.9.1 (CJKWidthFilter, CJKBigramFilter), licensed under the
Apache License, Version 2.0; Copyright The Apache Software Foundation. See
sparsebench/resources/lucene/scripts/NOTICE.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa

from sparsebench.analysis.batch_tokens import chunk_local_tokens
from sparsebench.analysis.chains import Chain
from sparsebench.analysis.filters import lowercase, stop, where_matching, word_set
from sparsebench.analysis.standard_tokenizer import SliceTokens, tokenize_slices
from sparsebench.core.strings import (
    string_buffers,
    string_spans,
    string_views,
    strings_from_buffers,
)

# The actions (token types) CJKBigramFilter bigrams by default: HANGUL, IDEOGRAPHIC,
# KATAKANA, HIRAGANA (standard_tokenizer.TOKEN_TYPES).
BIGRAM_ACTIONS = (6, 7, 8, 9)
# CJKWidthFilter.KANA_NORM: the half-width katakana U+FF65..U+FF9F -> full-width ones (the
# voiced sound marks U+FF9E, U+FF9F -> the combining U+3099, U+309A when they do not
# combine with the character before them).
HALF_WIDTH_KANA = (
    0x30FB, 0x30F2, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30E3, 0x30E5, 0x30E7, 0x30C3,
    0x30FC, 0x30A2, 0x30A4, 0x30A6, 0x30A8, 0x30AA, 0x30AB, 0x30AD, 0x30AF, 0x30B1, 0x30B3,
    0x30B5, 0x30B7, 0x30B9, 0x30BB, 0x30BD, 0x30BF, 0x30C1, 0x30C4, 0x30C6, 0x30C8, 0x30CA,
    0x30CB, 0x30CC, 0x30CD, 0x30CE, 0x30CF, 0x30D2, 0x30D5, 0x30D8, 0x30DB, 0x30DE, 0x30DF,
    0x30E0, 0x30E1, 0x30E2, 0x30E4, 0x30E6, 0x30E8, 0x30E9, 0x30EA, 0x30EB, 0x30EC, 0x30ED,
    0x30EF, 0x30F3, 0x3099, 0x309A,
)  # fmt: skip
# CJKWidthFilter.KANA_COMBINE_VOICED and KANA_COMBINE_HALF_VOICED: what a voiced (U+FF9E)
# or semi-voiced (U+FF9F) sound mark adds to the katakana U+30A6..U+30FD before it (0: it
# does not combine).
VOICED = (
    78, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0,
    1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
)  # fmt: skip
# ha, hi, fu, he, ho + 2: pa, pi, pu, pe, po
SEMI_VOICED = tuple(2 if k in (0x29, 0x2C, 0x2F, 0x32, 0x35) else 0 for k in range(len(VOICED)))
FIRST_COMBINING = 0x30A6  # the katakana at index 0 of VOICED and SEMI_VOICED


def _combine(units: list[str], at: int) -> bool:
    """Add the sound mark at `at` to the katakana before it, if they combine."""
    before = ord(units[at - 1])
    if not FIRST_COMBINING <= before < FIRST_COMBINING + len(VOICED):
        return False
    marks = SEMI_VOICED if units[at] == "\uff9f" else VOICED
    units[at - 1] = chr(before + marks[before - FIRST_COMBINING])
    return units[at - 1] != chr(before)


def fold_width(token: str) -> str:
    """CJKWidthFilter: full-width ASCII (U+FF01..U+FF5E) -> ASCII; half-width katakana ->
    full-width, a sound mark combined into the katakana before it where one exists."""
    units = list(token)
    i = 0
    while i < len(units):
        code = ord(units[i])
        if 0xFF01 <= code <= 0xFF5E:
            units[i] = chr(code - 0xFEE0)
        elif 0xFF65 <= code <= 0xFF9F:
            if code >= 0xFF9E and i > 0 and _combine(units, i):
                del units[i]
                i -= 1
            else:
                units[i] = chr(HALF_WIDTH_KANA[code - 0xFF65])
        i += 1
    return "".join(units)


fold_widths = where_matching("[\\x{FF01}-\\x{FF5E}\\x{FF65}-\\x{FF9F}]", fold_width)


def character_bigrams(tokens: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Overlapping character bigrams of each token (a one-character token stays whole):
    (index of the source token, bigram). Built from the UTF-8 buffers, no Python loop."""
    offsets, data = string_buffers(tokens)
    lead = np.flatnonzero((data & 0xC0) != 0x80)  # the first byte of each character
    first = np.searchsorted(lead, offsets)  # each token's first character
    first, count = first[:-1], np.diff(first)  # and how many it has
    grams = np.where(count >= 2, count - 1, count)
    source = np.repeat(np.arange(len(count)), grams)
    start = np.repeat(first - np.cumsum(grams) + grams, grams) + np.arange(int(grams.sum()))
    pair = count[source] >= 2
    # the characters of the grams, one after another: start, start + 1 (for a bigram)
    chars = np.empty(2 * len(start), dtype=np.int64)
    chars[0::2], chars[1::2] = start, start + 1
    if not pair.all():
        chars = chars[np.stack([np.ones_like(pair), pair], axis=1).ravel()]
    size = np.diff(lead, append=len(data))  # bytes per character
    if len(size) and size.min() == size.max():  # one width (ideographs): rows of bytes
        values = data.reshape(-1, size[0])[chars].ravel()
    else:  # the four bytes from each character's first, and which of them are its own
        padded = np.concatenate([data, np.zeros(4, dtype=data.dtype)])
        rows = np.lib.stride_tricks.sliding_window_view(padded, 4)[lead]
        own = np.arange(4) < size[:, None]
        values = rows[chars][own[chars]]
    lengths = size[start] + np.where(pair, size[np.minimum(start + 1, len(size) - 1)], 0)
    return source, strings_from_buffers(values, lengths)


def bigram_runs(
    text_index: np.ndarray,
    tokens: pa.Array,
    actions: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
) -> tuple[np.ndarray, pa.Array]:
    """CJKBigramFilter over a batch's tokens (with types and offsets): a run's bigrams
    take its place among the other tokens of the text."""
    cjk = np.isin(actions, BIGRAM_ACTIONS)
    members = np.flatnonzero(cjk)
    if not len(members):
        return text_index, tokens
    before = members - 1
    continues = np.zeros(len(members), dtype=bool)
    inside = before >= 0
    continues[inside] = (
        cjk[before[inside]]
        & (text_index[before[inside]] == text_index[members[inside]])
        & (ends[before[inside]] == starts[members[inside]])
    )
    # The members' strings, one after another, cut at the runs' first members.
    offsets, data = string_buffers(tokens.take(members))
    firsts = np.flatnonzero(~continues)
    run_bounds = np.append(offsets[firsts], offsets[-1])
    runs = strings_from_buffers(data, np.diff(run_bounds))
    source, bigrams = character_bigrams(runs)
    # Each run's bigrams where its first token was: a stable sort by token position.
    others = np.flatnonzero(~cjk)
    position = np.concatenate([others, members[firsts][source]])
    order = np.argsort(position, kind="stable")
    return (
        text_index[position[order]],
        pa.concat_arrays([tokens.take(others), bigrams]).take(order),
    )


@cache
def _changed_by_filters() -> np.ndarray:
    """Whether CJKWidthFilter or LowerCaseFilter change each code point (alone): the
    full-width ASCII and the half-width katakana, and the characters with a lowercase
    (lowercasing maps each code point to one)."""
    points = np.arange(0x110000, dtype=np.uint32)
    points[0xD800:0xE000] = 0x20  # surrogates: no characters of a text
    encoded = np.frombuffer(points.tobytes().decode("utf-32-le").encode("utf-8"), np.uint8)
    text = strings_from_buffers(encoded, np.array([len(encoded)]))  # (pa.array is slow)
    lowered = lowercase(text)[0].as_py().encode("utf-32-le")
    changed = np.frombuffer(lowered, np.uint32) != points
    changed[0xFF01:0xFF5F] = changed[0xFF65:0xFFA0] = True  # what fold_width maps (or combines)
    return changed


def _filtered(tokens: pa.Array) -> pa.Array:
    """CJKWidthFilter and LowerCaseFilter, once per distinct token."""
    encoded = tokens.dictionary_encode()
    return lowercase(fold_widths(encoded.dictionary)).take(encoded.indices)


def _bigrams_of_text(found: SliceTokens) -> tuple[np.ndarray, pa.Array] | None:
    """The three filters over a slice's tokens when the two of single tokens change no
    character of a CJK token (None if they do): a run of touching CJK tokens is then a
    span of the text, and its bigrams (or its one character) are spans of the text's
    bytes; so are the other tokens, but those the filters change, which are filtered
    (every term is a view of the text's bytes or of theirs)."""
    text_index, starts, ends = found.text_index, found.starts, found.ends
    is_member = (found.actions >= BIGRAM_ACTIONS[0]) & (found.actions <= BIGRAM_ACTIONS[-1])
    members = np.flatnonzero(is_member)
    changed = np.flatnonzero(_changed_by_filters().take(found.code_points))
    if not len(members):
        return text_index, lowercase(fold_widths(found.tokens()))
    # the tokens that hold such a character
    token = np.searchsorted(starts, changed, "right") - 1
    holds = np.zeros(len(starts), dtype=bool)
    holds[token[(token >= 0) & (changed < ends[np.maximum(token, 0)])]] = True
    if (holds & is_member).any():
        return None
    token = np.flatnonzero(holds)
    # the runs of members, each touching the one before it in the same text
    before, after = members[:-1], members[1:]
    continues = (after == before + 1) & (text_index[after] == text_index[before])
    continues &= ends[before] == starts[after]
    starts_run = np.ones(len(members), dtype=bool)
    starts_run[1:] = ~continues
    heads = members[starts_run]
    run_length = ends[members[np.append(np.flatnonzero(starts_run)[1:], len(members)) - 1]]
    run_length -= starts[heads]
    # each token's terms in its place: a run's at its first member's, none at the others'
    count = (~is_member).astype(np.int64)
    count[heads] = np.maximum(run_length - 1, 1)  # a one-character run is its own term
    place = np.cumsum(count) - count
    # the first character of each term (an other token's: its own), and its bytes (in
    # place where it can be: fresh arrays cost page faults)
    char = np.repeat(starts - place, count)
    char += np.arange(len(char))
    term_starts = found.position.take(char)
    char += 2  # after a bigram; after the character of a one-character run:
    char[place[heads[run_length == 1]]] -= 1
    term_lengths = found.position.take(char, mode="clip")
    if len(char) and char[-1] == len(found.position):  # the end of the slice
        term_lengths[-1] = len(found.data)
    term_lengths -= term_starts
    others = np.flatnonzero(~is_member)
    term_lengths[place[others]] = found.byte_ends[others] - found.byte_starts[others]
    # the other tokens the filters change, filtered, after the text's bytes
    changed_tokens = string_spans(found.data, found.byte_starts[token], found.byte_ends[token])
    offsets, filtered = string_buffers(lowercase(fold_widths(changed_tokens)))
    term_starts[place[token]] = offsets[:-1] + len(found.data)
    term_lengths[place[token]] = np.diff(offsets)
    terms = string_views([found.data, filtered], term_starts, term_lengths)
    return np.repeat(text_index, count), terms


def tokenize_cjk(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """StandardTokenizer, CJKWidthFilter, LowerCaseFilter and CJKBigramFilter, slice by
    slice of the texts."""
    indices, parts = [], []
    for first, found in tokenize_slices(texts, details=True, grouped=True):
        terms = _bigrams_of_text(found)
        if terms is None:
            terms = bigram_runs(
                found.text_index, _filtered(found.tokens()), found.actions, found.starts, found.ends
            )
        indices.append(terms[0] + first)
        parts.append(terms[1])
    if len(parts) == 1:  # one slice: no copy
        return indices[0], parts[0]
    return np.concatenate([np.zeros(0, np.int64), *indices]), pa.concat_arrays(
        [pa.array([], pa.string()), *parts]
    )


def cjk_tokens(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """tokenize_cjk, chunk by chunk: CJKBigramFilter joins only tokens that touch, and
    none touches across a space."""
    return chunk_local_tokens(tokenize_cjk, texts)


def chain(language: str) -> Chain:
    return Chain(
        language=language,
        tokenize=cjk_tokens,
        filter=stop(word_set("scripts/cjk/stopwords.txt")),
    )
