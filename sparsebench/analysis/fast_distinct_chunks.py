"""Tokenizing each distinct space-separated chunk of a batch once.

A batch's texts are split at the ASCII space into chunks ("results:", "don't", a whole
unspaced sentence); a batch of 20,000 texts holds a few hundred thousand chunks but only
thousands of distinct ones (words repeat). A tokenizer whose tokens never hold a space
and whose tokens of a chunk do not depend on the text around it gives the same tokens
chunk by chunk as text by text, so it needs to see only the distinct chunks: its cost
then follows the batch's vocabulary, not its bytes (Bengali or Russian text, two or
three UTF-8 bytes a character, tokenises as fast as English).

StandardTokenizer is such a tokenizer: a space is in the class of characters that
never occur inside a token and always end one (standard_tokenizer.py), the characters
attached to a space (combining marks after it) are dropped as those at the start of a
text are, and the scanner's 255-unit buffer restarts at every token. The tokens come
back as a dictionary array: the distinct chunks' tokens, and each token of the batch
as an index into them (no string is copied per token).

The chunks are found, hashed and told apart in one compiled pass over the batch's bytes
(`_distinct_chunks`), and the tokens spread back over the texts in another
(`_spread`): the batch's bytes are read once and never copied, and no array the size
of the batch's chunks or tokens is built step by step.

Speed layer (fast_*): a second implementation of standard_tokenizer.tokenize, run over
each whole text, which it must equal;
tests/analysis/test_standard_analysis.py::test_distinct_chunks_give_the_dfas_tokens and
tests/analysis/test_cjk.py::test_chunks_give_the_tokens_of_whole_texts hold them equal.
Its speed is in benchmarks/RESULTS.md.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa
from numba.cpython.unsafe.numbers import trailing_zeros

from sparsebench.analysis.chains import Tokenize
from sparsebench.core.jit import compiled
from sparsebench.core.strings import as_string_array, string_buffers

# Share of the batch's bytes the distinct chunks may hold for chunking to pay (unspaced
# scripts: a chunk is a sentence, and few repeat): above it, the texts go whole.
_WORTH = 0.5
_SPACES = np.uint64(0x2020202020202020)  # the ASCII space in each byte of a word
_LOW = np.uint64(0x0101010101010101)
_HIGH = np.uint64(0x8080808080808080)
_MIX = np.uint64(0x9E3779B97F4A7C15)  # the hash's multiplier (odd: a bijection)
_FIRST_SLOTS = 1 << 12  # the hash table's first size (it doubles at half full)
_MARGIN = 16  # bytes a text's last read may go past its end


@compiled(inline=True)
def _load(words: np.ndarray, i: int) -> np.uint64:
    """The 8 bytes from byte i (little-endian), from the two aligned words that hold
    them (the bytes must go on for 16 past i: see `_parts`)."""
    q, r = i >> 3, np.uint64((i & 7) * 8)
    # the high word shifted in two steps: by 64 - r, with no branch for r = 0
    return (words[q] >> r) | ((words[q + 1] << np.uint64(1)) << (np.uint64(63) - r))


@compiled(inline=True)
def _below(n: int) -> np.uint64:
    """The mask of a word's first n bytes (n < 8)."""
    return (np.uint64(1) << np.uint64(8 * n)) - np.uint64(1)


@compiled(inline=True)
def _chunk_end(words: np.ndarray, s: int, end: int) -> tuple[int, np.uint64]:
    """Where the chunk that starts at byte s ends (the next space, or `end`), and the hash
    of its bytes, read 8 at a time (a space is found in a word by the zero-byte test)."""
    h = np.uint64(0)
    i = s
    while True:
        word = _load(words, i)
        x = word ^ _SPACES
        spaces = (x - _LOW) & ~x & _HIGH  # the lowest flagged byte is the first space
        left = end - i
        if left < 8:
            spaces &= _below(left) << np.uint64(7)
        if spaces == 0 and left >= 8:
            h = (h ^ word) * _MIX
            i += 8
            continue
        k = np.int64(trailing_zeros(spaces)) >> 3 if spaces != 0 else left
        word &= _below(k)
        h = ((h ^ word) * _MIX) ^ np.uint64(i + k - s)
        return i + k, h * _MIX


@compiled
def _same(words: np.ndarray, s: int, length: int, kept: np.ndarray, at: int) -> bool:
    """Whether the bytes [s, s + length) are the kept chunk's (its words from `at`, the
    last one's bytes past the chunk zero)."""
    k = 0
    while k + 8 <= length:
        if _load(words, s + k) != kept[at + (k >> 3)]:
            return False
        k += 8
    return (_load(words, s + k) & _below(length - k)) == kept[at + (k >> 3)]


@compiled
def _keep(words: np.ndarray, s: int, length: int, kept: np.ndarray, at: int) -> np.ndarray:
    """`kept` with the chunk's bytes as words from `at` (grown if need be)."""
    n_words = (length >> 3) + 1
    if at + n_words > len(kept):
        kept = np.concatenate((kept, np.empty(max(len(kept), n_words), np.uint64)))
    for j in range(n_words - 1):
        kept[at + j] = _load(words, s + 8 * j)
    kept[at + n_words - 1] = _load(words, s + 8 * (n_words - 1)) & _below(length & 7)
    return kept


@compiled
def _slot(h: np.uint64, slots: np.ndarray) -> int:
    """The hash's first slot in a table of a power of two slots (its high bits)."""
    bits = np.uint64(trailing_zeros(np.uint64(len(slots))))
    return np.int64(h >> (np.uint64(64) - bits))


@compiled
def _distinct_chunks(
    offsets: np.ndarray,
    words: np.ndarray,
    tail_offsets: np.ndarray,
    tail: np.ndarray,
    n_chunks: int,
):
    """Every chunk of the texts (the spans between spaces, the texts' ends included, as
    pyarrow's split_pattern cuts them) as the index of its distinct chunk (in the order
    of first occurrence) and its text; and the distinct chunks' bytes as words (each
    from a word of its own: `kept`, where each starts, its length). The texts are in two
    parts (`_parts`): the texts of `offsets` in `words`, then those of `tail_offsets`."""
    chunk_id = np.empty(n_chunks, np.int32)  # grown when full
    chunk_text = np.empty(n_chunks, np.int32)
    slots = np.zeros(_FIRST_SLOTS, np.int64)  # distinct id + 1, 0: empty
    hashes = np.empty(_FIRST_SLOTS // 2, np.uint64)
    lengths = np.empty(_FIRST_SLOTS // 2, np.int64)
    # each distinct chunk's bytes as words, kept together (compared in the cache, not
    # at its first occurrence somewhere in the batch)
    kept_at = np.empty(_FIRST_SLOTS // 2, np.int64)
    kept = np.empty(_FIRST_SLOTS, np.uint64)
    n_kept = 0
    n_distinct = 0
    c = 0
    first_text = 0
    for part in range(2):
        if part == 1:
            first_text += len(offsets) - 1
            offsets, words = tail_offsets, tail
        for t in range(len(offsets) - 1):
            s, end = offsets[t], offsets[t + 1]
            if c + end - s + 1 > len(chunk_id):  # room for a chunk per byte, and one
                grown = max(2 * len(chunk_id), c + end - s + 1)
                chunk_id = np.concatenate((chunk_id[:c], np.empty(grown - c, np.int32)))
                chunk_text = np.concatenate((chunk_text[:c], np.empty(grown - c, np.int32)))
            while True:
                stop, h = _chunk_end(words, s, end)
                length = stop - s
                slot = _slot(h, slots)
                while True:
                    found = slots[slot]
                    if found == 0:
                        if 2 * (n_distinct + 1) > len(slots):  # grow, then probe again
                            slots = np.zeros(2 * len(slots), np.int64)
                            hashes = np.concatenate((hashes, np.empty(len(hashes), np.uint64)))
                            lengths = np.concatenate((lengths, np.empty(len(lengths), np.int64)))
                            kept_at = np.concatenate((kept_at, np.empty(len(kept_at), np.int64)))
                            for d in range(n_distinct):
                                moved = _slot(hashes[d], slots)
                                while slots[moved] != 0:
                                    moved = (moved + 1) & (len(slots) - 1)
                                slots[moved] = d + 1
                            slot = _slot(h, slots)
                            continue
                        hashes[n_distinct] = h
                        lengths[n_distinct] = length
                        kept = _keep(words, s, length, kept, n_kept)
                        kept_at[n_distinct] = n_kept
                        n_kept += (length >> 3) + 1
                        n_distinct += 1
                        slots[slot] = n_distinct
                        found = n_distinct
                        break
                    d = found - 1
                    same_length = hashes[d] == h and lengths[d] == length
                    if same_length and _same(words, s, length, kept, kept_at[d]):
                        break
                    slot = (slot + 1) & (len(slots) - 1)
                chunk_id[c] = found - 1
                chunk_text[c] = first_text + t
                c += 1
                if stop >= end:
                    break
                s = stop + 1
    return chunk_id[:c], chunk_text[:c], kept, kept_at[:n_distinct], lengths[:n_distinct]


@compiled
def _gather(kept: np.ndarray, kept_at: np.ndarray, lengths: np.ndarray):
    """The kept chunks' bytes, one after another, and their offsets (int32, Arrow's)."""
    offsets = np.empty(len(kept_at) + 1, np.int32)
    offsets[0] = 0
    for d in range(len(kept_at)):
        offsets[d + 1] = offsets[d] + lengths[d]
    values = np.empty(offsets[-1], np.uint8)
    kept_bytes = kept.view(np.uint8)
    for d in range(len(kept_at)):
        at = 8 * kept_at[d]
        values[offsets[d] : offsets[d + 1]] = kept_bytes[at : at + lengths[d]]
    return offsets, values


@compiled
def _spread(chunk_id: np.ndarray, chunk_text: np.ndarray, first: np.ndarray, count: np.ndarray):
    """Per chunk, in order, its distinct chunk's tokens: each token's text and its index
    among the distinct chunks' tokens."""
    n = 0
    for c in range(len(chunk_id)):
        n += count[chunk_id[c]]
    text_index = np.empty(n, np.int64)
    references = np.empty(n, np.int64)
    k = 0
    for c in range(len(chunk_id)):
        d = chunk_id[c]
        for j in range(first[d], first[d] + count[d]):
            text_index[k] = chunk_text[c]
            references[k] = j
            k += 1
    return text_index, references


def _parts(array: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A string array's texts as `_distinct_chunks` reads them, with no copy of the bytes
    but the last few texts': the offsets of the texts that end at least _MARGIN bytes
    before the bytes' last whole word, into those bytes as words; then the offsets of
    the others, into a copy of their bytes as words followed by _MARGIN zero bytes."""
    offsets, data = string_buffers(array)
    words = data[: len(data) // 8 * 8].view(np.uint64)
    split = int(np.searchsorted(offsets[1:], 8 * len(words) - _MARGIN, side="right"))
    rest = data[offsets[split] :]
    tail = np.zeros((len(rest) + _MARGIN) // 8 + 1, np.uint64)
    tail.view(np.uint8)[: len(rest)] = rest
    return offsets[: split + 1], words, offsets[split:] - offsets[split], tail


@cache
def load_compiled() -> None:
    """Load (or compile) the passes at once on first use: a first batch that goes whole
    to the tokenizer would otherwise leave the next to load two of them."""
    _by_distinct_chunks(lambda d: (np.zeros(0, np.int64), d[:0]), pa.array(["a a a a"]))


def by_distinct_chunks(tokenize: Tokenize, texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """`tokenize` (texts -> (text index per token, tokens)) run over the distinct
    space-separated chunks of the texts, its tokens spread back over the texts in order:
    the same tokens, as a dictionary array, if `tokenize` is local to chunks (see the
    module's docstring)."""
    load_compiled()
    return _by_distinct_chunks(tokenize, as_string_array(texts))


def _by_distinct_chunks(tokenize: Tokenize, array: pa.Array) -> tuple[np.ndarray, pa.Array]:
    offsets, words, tail_offsets, tail = _parts(array)
    n_bytes = offsets[-1] + tail_offsets[-1]
    n_chunks = len(array) + n_bytes // 4 + 1  # more than text in words has
    chunk_id, chunk_text, kept, kept_at, lengths = _distinct_chunks(
        offsets, words, tail_offsets, tail, n_chunks
    )
    if lengths.sum() > _WORTH * max(n_bytes, 1):
        return tokenize(array)
    chunk_offsets, values = _gather(kept, kept_at, lengths)
    distinct = pa.StringArray.from_buffers(
        len(lengths), pa.py_buffer(chunk_offsets), pa.py_buffer(values)
    )
    chunk_of_token, tokens = tokenize(distinct)
    count = np.bincount(chunk_of_token, minlength=len(distinct))
    first = np.cumsum(count) - count
    text_index, references = _spread(chunk_id, chunk_text, first, count)
    return text_index, pa.DictionaryArray.from_arrays(pa.array(references, pa.int64()), tokens)
