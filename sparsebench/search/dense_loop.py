"""Dense rows' vectors (sparsebench.search.dense_rows) made and read, compiled (numba):
packed postings' bit vectors built, and a document's weight read from either kind of
vector by the searches' loops."""

from __future__ import annotations

import llvmlite.ir as ir
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from sparsebench.core.jit import compiled
from sparsebench.search.dense_rows import GROUP, LANES, PLACE_SHIFT

_LANES = np.uint64(LANES)
_GROUP = np.uint64(GROUP)
_VALUES = np.uint64(GROUP // LANES)  # a lane's values in a group
_WORD = np.uint64(32)
_LOW_WORD = np.uint64(0xFFFFFFFF)


@compiled(inline=True)
def split_place(place):
    """A bit vector's first word and bits a document (dense_rows.bit_positions), uint64."""
    place = np.uint64(place)
    return place >> np.uint64(PLACE_SHIFT), place & np.uint64((1 << PLACE_SHIFT) - 1)


@compiled(inline=True)
def bit_word(first, bits, d):
    """Where document d's value lies in a bit vector (its first word and `bits`): its
    first word, and its first bit there (uint64)."""
    value_bit = (d // _LANES % _VALUES) * bits
    word = first + (d // _GROUP * bits + value_bit // _WORD) * _LANES + d % _LANES
    return word, value_bit % _WORD


@compiled(inline=True)
def bit_stretch(place, lo):
    """A bit vector's (at `place`) stretch of LANES documents from lo (a multiple of
    LANES) on: its first word, the shift and the mask of its values (uint64)."""
    first, bits = split_place(place)
    word, shift = bit_word(first, bits, np.uint64(lo))
    return word, shift, (np.uint64(1) << bits) - np.uint64(1)


@compiled(inline=True)
def crosses_word(shift, mask):
    """Whether a stretch's values (at `shift`, of `mask`) run into their lanes' next words."""
    return (mask << shift) >> _WORD != np.uint64(0)


@intrinsic
def _lane_bits(typingctx, low, high, shift, mask):
    """(high:low >> shift) & mask, all in 32 bits (uint32; shift below 32): a value of
    a bit vector's lane from its word (low) and the next (high; zero where the values
    lie within their words). LLVM's funnel shift, not numba's arithmetic, which widens
    every shift to 64 bits: in 32-bit lanes a vector holds twice the lanes, and with
    AVX-512 VBMI2 the shift is one instruction (vpshrdvd)."""
    if not all(isinstance(value, types.Integer) for value in (low, high, shift, mask)):
        return None

    def codegen(context, builder, signature, args):
        low, high, shift, mask = (
            context.cast(builder, value, kind, types.uint32)
            for value, kind in zip(args, signature.args, strict=True)
        )
        word = ir.IntType(32)
        funnel = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(word, [word, word, word]), "llvm.fshr.i32"
        )
        return builder.and_(builder.call(funnel, [high, low, shift]), mask)

    return types.uint32(low, high, shift, mask), codegen


@compiled(inline=True)
def word_value(words, at, d, shift, mask):
    """Lane d's value (uint32) of a stretch (its first word `at`) whose values lie
    within their words."""
    return _lane_bits(words[at + d], np.uint32(0), shift, mask)


@compiled(inline=True)
def pair_value(words, at, d, shift, mask):
    """Lane d's value (uint32) of a stretch (its first word `at`) whose values may run
    into the next word, LANES words on."""
    return _lane_bits(words[at + d], words[at + _LANES + d], shift, mask)


@compiled(inline=True)
def dense_stretch(packed, place, lo):
    """What stretch_weight needs to read the dense row at `place` from lo (a multiple
    of LANES) to lo + LANES: a bit vector's bit_stretch in packed postings (packed not
    None), the vector's start in plain ones."""
    if packed is None:
        return np.uint64(place), np.uint64(0), np.uint64(0)
    return bit_stretch(place, lo)


@compiled(inline=True)
def stretch_weight(dense, packed, stretch, d):
    """The weight of document d (local to its block) of a dense_stretch: an entry of
    the vector, or a bit vector's lane d % LANES at the stretch's shift (a load and a
    shift: the word and the mask found once a stretch)."""
    at, shift, mask = stretch
    if packed is None:
        return dense[at + np.uint64(d)]
    return pair_value(dense, at, np.uint64(d) % _LANES, shift, mask)


@compiled(inline=True)
def dense_weight(dense, packed, place, d):
    """The weight of document d (local to its block) in the dense row at `place`: a
    vector of weights in plain postings (packed None), a bit vector in packed ones."""
    d = np.uint64(d)
    stretch = dense_stretch(packed, place, d // _LANES * _LANES)
    return stretch_weight(dense, packed, stretch, d)


@compiled
def pack_bit_vectors(ids, weights, starts, lengths, bits, width, words):
    """Rows (each its first posting in ids and weights, its length and its bits a
    document) as bit vectors over a block of `width` documents, one after another into
    `words` (uint32, zero, LANES words to spare at the end): the words written."""
    at = np.uint64(0)
    groups = np.uint64(-(-width // GROUP))
    for row in range(len(starts)):
        row_bits = np.uint64(bits[row])
        for p in range(starts[row], starts[row] + lengths[row]):
            word, shift = bit_word(at, row_bits, np.uint64(ids[p]))
            value = np.uint64(weights[p]) << shift
            words[word] |= np.uint32(value & _LOW_WORD)
            words[word + _LANES] |= np.uint32(value >> _WORD)
        at += groups * row_bits * _LANES
    return np.int64(at)
