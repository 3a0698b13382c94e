"""Hints to the processor's caches from compiled code (numba has none of its own)."""

from __future__ import annotations

import llvmlite.ir as ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def prefetch(typingctx, array, index):
    """Ask for the cache line of array[index] (a 1-d array, a nonnegative index)
    without waiting for it: a loop that prefetches the elements it will read at scattered
    places, then reads them, waits for their memory once rather than once each. Never
    faults, whatever the address."""
    if not isinstance(array, types.Array) or array.ndim != 1:
        return None
    if not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array_type, index_type = signature.args
        data = context.make_array(array_type)(context, builder, args[0])
        at = context.cast(builder, args[1], index_type, types.intp)
        pointer = cgutils.get_item_pointer(
            context, builder, array_type, data, [at], wraparound=False
        )
        byte_pointer, word = ir.IntType(8).as_pointer(), ir.IntType(32)
        hint = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [byte_pointer, word, word, word]),
            "llvm.prefetch.p0",
        )
        # a read, kept in every level of the cache, of data (not instructions)
        builder.call(hint, [builder.bitcast(pointer, byte_pointer), word(0), word(3), word(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen
