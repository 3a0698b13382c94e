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

from sparsebench.arrays import span_indices
from sparsebench.encode.lucene.japanese_dictionary import Dictionary, width_fold
from sparsebench.strings import string_buffers

SPACE = 2  # CharacterDefinition.SPACE: tab, line feed, vertical tab, space
EOS = -1  # what follows a chunk: the end of its text (else the SPACE word's left id)


def unit_string(units: np.ndarray) -> str:
    """Code units as a str of one character each (surrogates stay apart)."""
    return units.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


def utf16_units(texts: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """The texts' UTF-16 code units end to end, and where each text starts (and the
    end), from the UTF-8 buffers of a string array without nulls."""
    byte_offsets, data = string_buffers(texts)
    units = np.frombuffer(
        data.tobytes().decode("utf-8").encode("utf-16-le", "surrogatepass"), dtype="<u2"
    )
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(pc.utf8_length(texts).to_numpy(), out=offsets[1:])
    if offsets[-1] != len(units):  # characters from U+10000 on are two units
        astral = np.zeros(len(data) + 1, dtype=np.int64)
        np.cumsum(data >= 0xF0, out=astral[1:])
        offsets += astral[byte_offsets]
    return units, offsets


def folded_units(texts: pa.Array, d: Dictionary) -> tuple[np.ndarray, np.ndarray]:
    """The texts' code units after CJKWidthCharFilter, end to end, and the offsets."""
    units, offsets = utf16_units(texts)
    folded, keep = width_fold(units, offsets[:-1], d)
    if not keep.all():
        kept = np.zeros(len(keep) + 1, dtype=np.int64)
        np.cumsum(keep, out=kept[1:])
        offsets = kept[offsets]
    return folded, offsets


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
