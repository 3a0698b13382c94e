"""A batch of texts as JapaneseTokenizer reads it, cut into chunks (runs without
whitespace) and reduced to its distinct chunks in context, so that the search runs once
per distinct chunk and its terms are copied to every place the chunk occurs.

The Java search commits right after the unknown SPACE word (the only word over a run of
whitespace), so a chunk's tokens depend only on its text and on its context: what it
starts after (BOS or the SPACE word) and what follows it (EOS or the SPACE word).
Everything here is done for the whole batch with numpy and Arrow (the chunks are
deduplicated by Arrow's hash of their code units); Python only touches distinct chunks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis.ja.dictionary import (
    HALFWIDTH_SEMI_VOICED,
    HALFWIDTH_VOICED,
    Dictionary,
)
from sparsebench.core.arrays import span_indices
from sparsebench.core.jit import compiled
from sparsebench.core.strings import string_buffers

SPACE = 2  # CharacterDefinition.SPACE: tab, line feed, vertical tab, space
EOS = -1  # what follows a chunk: the end of its text (else the SPACE word's left id)


def folded_units(texts: pa.Array, d: Dictionary) -> tuple[np.ndarray, np.ndarray]:
    """The texts' UTF-16 code units after CJKWidthCharFilter, end to end, and where each
    text starts (and the end), from the UTF-8 buffers of a string array without nulls."""
    byte_offsets, data = string_buffers(texts)
    return _folded(
        data, byte_offsets, d.kana_norm, d.kana_combine_voiced, d.kana_combine_semi_voiced
    )


@compiled
def _folded(data, byte_offsets, kana_norm, combine_voiced, combine_semi_voiced):
    """UTF-8 to UTF-16 code units (a character from U+10000 on as two surrogates) and
    CJKWidthCharFilter in one pass: fullwidth ASCII variants (U+FF01-FF5E) to ASCII,
    halfwidth katakana (U+FF65-FF9F) to fullwidth ones, and a halfwidth (semi-)voiced
    sound mark merged into the kana before it in the same text (after that kana's own
    folding) where the composed kana exists; a merged kana takes no second mark."""
    units = np.empty(len(data), np.uint16)  # never more units than bytes
    offsets = np.zeros(len(byte_offsets), np.int64)
    out = 0
    for text in range(len(byte_offsets) - 1):
        at, stop = byte_offsets[text], byte_offsets[text + 1]
        merged = True  # no mark merges into what comes before a text
        while at < stop:
            lead = np.int64(data[at])
            if lead < 0x80:
                code, at = lead, at + 1
            elif lead < 0xE0:
                code, at = ((lead & 0x1F) << 6) | (data[at + 1] & 0x3F), at + 2
            elif lead < 0xF0:
                code = ((lead & 0x0F) << 12) | ((data[at + 1] & 0x3F) << 6)
                code, at = code | (data[at + 2] & 0x3F), at + 3
            else:
                code = ((lead & 0x07) << 18) | ((data[at + 1] & 0x3F) << 12)
                code |= ((data[at + 2] & 0x3F) << 6) | (data[at + 3] & 0x3F)
                at += 4
            if code >= 0x10000:
                code -= 0x10000
                units[out] = 0xD800 + (code >> 10)
                units[out + 1] = 0xDC00 + (code & 0x3FF)
                out += 2
                merged = False
                continue
            if HALFWIDTH_VOICED <= code <= HALFWIDTH_SEMI_VOICED:  # the two marks
                previous = np.int64(units[out - 1]) if not merged else 0
                if 0x30A6 <= previous <= 0x30FD:
                    table = combine_semi_voiced if code == HALFWIDTH_SEMI_VOICED else combine_voiced
                    step = np.int64(table[previous - 0x30A6])
                    if step:
                        units[out - 1] = previous + step
                        merged = True
                        continue
            if 0xFF01 <= code <= 0xFF5E:
                code -= 0xFEE0
            elif 0xFF65 <= code <= 0xFF9F:
                code = kana_norm[code - 0xFF65]
            units[out] = code
            out += 1
            merged = False
        offsets[text + 1] = out
    return units[:out], offsets


@dataclass(frozen=True)
class Chunks:
    """The chunks of a batch, and its distinct chunks in context ("keys"): a distinct
    text, what it starts after and what follows it."""

    text_of: np.ndarray  # int64 per chunk: the text it is in
    key_of: np.ndarray  # int64 per chunk: its key
    key_text: np.ndarray  # int64 per key: its distinct text
    key_right: np.ndarray  # int64 per key: right id before (0 for BOS, or the SPACE word's)
    key_left: np.ndarray  # int64 per key: left id after (EOS, or the SPACE word's)
    units: np.ndarray  # uint16: the distinct texts' code units, end to end
    offsets: np.ndarray  # int64 (distinct texts + 1): where each starts in units

    def expand(
        self, first: np.ndarray, count: np.ndarray, pool: pa.Array
    ) -> tuple[np.ndarray, pa.Array]:
        """(text index per token, tokens) of the batch, given each key's tokens:
        pool[first:first + count]."""
        per_chunk = count[self.key_of]
        start = first[self.key_of]
        tokens = pool.take(pa.array(span_indices(start, start + per_chunk)))
        return np.repeat(self.text_of, per_chunk), tokens


def chunks(units: np.ndarray, offsets: np.ndarray, d: Dictionary, space_id: int) -> Chunks:
    """The chunks of the texts (runs without whitespace) and their distinct keys."""
    n = len(units)
    space = d.char_class[units] == SPACE
    boundary = np.zeros(n + 1, dtype=bool)
    boundary[offsets] = True
    before = np.ones(n, dtype=bool)
    before[1:] = space[:-1]
    after = np.ones(n, dtype=bool)
    after[:-1] = space[1:]
    starts = np.flatnonzero(~space & (before | boundary[:n]))
    ends = np.flatnonzero(~space & (after | boundary[1:])) + 1
    text_of = np.searchsorted(offsets, starts, side="right") - 1
    after_space = starts != offsets[text_of]
    before_space = ends != offsets[text_of + 1]
    # The chunks partition the units that are not whitespace: as binary values of those
    # units end to end, hashed by Arrow.
    kept = units[~space]
    bounds = np.zeros(len(starts) + 1, dtype=np.int32)
    np.cumsum((ends - starts) * 2, out=bounds[1:])
    binary = pa.Array.from_buffers(
        pa.binary(), len(starts), [None, pa.py_buffer(bounds), pa.py_buffer(kept)]
    )
    encoded = pc.dictionary_encode(binary)
    context = after_space * 2 + before_space
    key_id = encoded.indices.to_numpy().astype(np.int64) * 4 + context
    distinct = pc.dictionary_encode(pa.array(key_id))
    key_ids = distinct.dictionary.to_numpy()
    value_offsets, value_bytes = string_buffers(encoded.dictionary)
    return Chunks(
        text_of=text_of,
        key_of=distinct.indices.to_numpy().astype(np.int64),
        key_text=key_ids >> 2,
        key_right=np.where(key_ids & 2, space_id, 0),
        key_left=np.where(key_ids & 1, space_id, EOS),
        units=value_bytes.view("<u2"),
        offsets=value_offsets // 2,
    )
