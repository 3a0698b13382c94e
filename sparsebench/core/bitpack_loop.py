"""Bit-packed runs (sparsebench.core.bitpack's layout) packed, and unpacked eight
values at a time with vector instructions: numba has none of its own, so the unpacking
is LLVM vector IR. A byte shuffle puts each value's (at most three) bytes in a 32-bit
lane, a shift by lane and a mask finish it; the shuffle's pattern depends on the width
alone, so the unpacking is compiled once for each width (a switch on it, per run), in a
function of its own that every place that unpacks calls (_unpacker). Unpacking writes
whole groups of eight (count rounded up to eight values: those past `count` are
whatever the bytes after the run hold).
"""

from __future__ import annotations

import llvmlite.ir as ir
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from sparsebench.core.bitpack import GROUP, MAX_WIDTH
from sparsebench.core.jit import compiled

_I8, _I32, _I64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
_BYTES, _LANES = ir.VectorType(_I8, 16), ir.VectorType(_I32, GROUP)
_OUTPUTS = (types.uint8, types.uint16, types.int32, types.uint32)
_FLOAT_OUTPUTS = (types.float32, types.float64)  # offsets only: weights of a float index


@compiled
def pack(values, width, stream, at):
    """values (unsigned, each below 2 ** width) packed into stream (uint8, zero there)
    from byte `at` on: the byte past them."""
    if width == 0:
        return at
    bits = np.uint64(0)
    filled = 0
    out = at
    for value in values:
        bits |= np.uint64(value) << np.uint64(filled)
        filled += width
        while filled >= 8:
            stream[out] = np.uint8(bits & np.uint64(0xFF))
            bits >>= np.uint64(8)
            filled -= 8
            out += 1
    if filled:
        stream[out] = np.uint8(bits)
        out += 1
    return out


def _constant(values: list[int]) -> ir.Constant:
    return ir.Constant(ir.VectorType(_I32, len(values)), values)


def _gather_bytes(width: int) -> ir.Constant:
    """The byte shuffle of a group of `width`: lane k takes the bytes that hold value k
    (its bits from k * width on), index 16 (a zero byte) for the rest."""
    pattern = []
    for lane in range(GROUP):
        first, shift = divmod(lane * width, 8)
        held = (shift + width + 7) // 8
        pattern += [first + j if j < held else 16 for j in range(4)]
    return _constant(pattern)


def _splat(builder: ir.IRBuilder, scalar: ir.Value) -> ir.Value:
    one = builder.insert_element(ir.Constant(_LANES, ir.Undefined), scalar, _I32(0))
    return builder.shuffle_vector(one, ir.Constant(_LANES, ir.Undefined), _constant([0] * GROUP))


def _unpacked_group(builder: ir.IRBuilder, source: ir.Value, group: ir.Value, width: int):
    """Group `group`'s eight values of `width` bits (width > 0), as eight 32-bit lanes."""
    at = builder.gep(source, [builder.mul(group, _I64(width))])
    loaded = builder.load(builder.bitcast(at, _BYTES.as_pointer()), align=1)
    spread = builder.shuffle_vector(loaded, ir.Constant(_BYTES, [0] * 16), _gather_bytes(width))
    lanes = builder.lshr(
        builder.bitcast(spread, _LANES), _constant([(k * width) % 8 for k in range(GROUP)])
    )
    return builder.and_(lanes, _constant([(1 << width) - 1] * GROUP))


def _prefix_sums(builder: ir.IRBuilder, lanes: ir.Value) -> ir.Value:
    """Each lane plus the lanes before it: two shifted additions within each half
    (byte shifts that stay in a 128-bit lane), then the low half's total added to
    the high half (the one shuffle that crosses)."""
    zero = _constant([0] * GROUP)
    half = GROUP // 2
    for step in (1, 2):
        moved = builder.shuffle_vector(
            lanes, zero, _constant([k - step if k % half >= step else GROUP for k in range(GROUP)])
        )
        lanes = builder.add(lanes, moved)
    moved = builder.shuffle_vector(lanes, zero, _constant([GROUP] * half + [half - 1] * half))
    return builder.add(lanes, moved)


def _unpack(context, builder, signature, arguments, ascending: bool):
    """A call of the run's unpacking (_unpacker), its arguments as pointers and numbers."""
    stream_type, _, _, _, _, out_type, _ = signature.args
    stream = context.make_array(stream_type)(context, builder, arguments[0])
    out = context.make_array(out_type)(context, builder, arguments[5])
    at, count, width, into = (
        context.cast(builder, arguments[n], signature.args[n], types.int64) for n in (1, 2, 3, 6)
    )
    floats = isinstance(out_type.dtype, types.Float)
    start_type = out_type.dtype if floats else types.int64  # a float base, or the first id
    start = context.cast(builder, arguments[4], signature.args[4], start_type)
    unpacker = _unpacker(builder.module, context.get_data_type(out_type.dtype), ascending)
    source, target = builder.gep(stream.data, [at]), builder.gep(out.data, [into])
    builder.call(unpacker, [source, target, count, width, start])
    return context.get_dummy_value()


def _unpacker(module: ir.Module, element: ir.Type, ascending: bool) -> ir.Function:
    """The unpacking of a run into `element`s (the loop over its groups, compiled once
    per width: a switch on the width; another width, impossible in a checked stream,
    unpacks nothing), a function of the module, defined once in it and never inlined:
    inlined, each of the searches' dozen places that read a chunk held its 17 loops,
    and compiling them took most of the compile time of the packed searches
    (benchmarks/RESULTS.md, "`sparsebench compile` in half the time"), for a call a
    chunk."""
    floats = isinstance(element, (ir.FloatType, ir.DoubleType))
    start_type = element if floats else _I64
    kind = "ascending" if ascending else "offsets"
    name = f"sparsebench.bitpack.unpack_{kind}.{element}"
    signature = ir.FunctionType(
        ir.VoidType(), [_I8.as_pointer(), element.as_pointer(), _I64, _I64, start_type]
    )
    function = cgutils.get_or_insert_function(module, signature, name)
    if not function.is_declaration:
        return function
    function.linkage = "linkonce_odr"
    function.attributes.add("noinline")
    function.attributes.add("nounwind")
    source, target, count, width, start = function.args
    builder = ir.IRBuilder(function.append_basic_block("entry"))
    out_lanes = ir.VectorType(element, GROUP)
    if floats:  # offsets from a float base: the base added to the values as floats
        one = builder.insert_element(ir.Constant(out_lanes, ir.Undefined), start, _I32(0))
        float_base = builder.shuffle_vector(one, one, _constant([0] * GROUP))
        first = _constant([0] * GROUP)
    else:
        first = _splat(builder, builder.trunc(start, _I32))
    groups = builder.lshr(builder.add(count, _I64(GROUP - 1)), _I64(3))
    done = function.append_basic_block("unpack.done")
    switch = builder.switch(width, done)
    for bits in range(MAX_WIDTH + 1):
        head = function.append_basic_block(f"unpack.width{bits}")
        body = function.append_basic_block(f"unpack.width{bits}.group")
        switch.add_case(_I64(bits), head)
        builder.position_at_end(head)
        builder.cbranch(builder.icmp_unsigned("==", groups, _I64(0)), done, body)
        builder.position_at_end(body)
        group = builder.phi(_I64)
        carried = builder.phi(_LANES)  # ascending: the last value so far in every lane
        group.add_incoming(_I64(0), head)
        carried.add_incoming(first, head)
        values = _unpacked_group(builder, source, group, bits) if bits else _constant([0] * 8)
        step = carried
        if ascending and bits:
            values = _prefix_sums(builder, values)
            last = builder.shuffle_vector(values, values, _constant([GROUP - 1] * GROUP))
            step = builder.add(carried, last)
        if floats:
            narrowed = builder.fadd(builder.uitofp(values, out_lanes), float_base)
        else:
            values = builder.add(values, carried)
            narrowed = values if out_lanes.element.width == 32 else builder.trunc(values, out_lanes)
        written = builder.gep(target, [builder.mul(group, _I64(GROUP))])
        builder.store(narrowed, builder.bitcast(written, out_lanes.as_pointer()), align=1)
        following = builder.add(group, _I64(1))
        group.add_incoming(following, builder.block)
        carried.add_incoming(step, builder.block)
        builder.cbranch(builder.icmp_unsigned("<", following, groups), body, done)
    builder.position_at_end(done)
    builder.ret_void()
    return function


def _typed(stream, at, count, width, start, out, into, ascending: bool):
    """The signature and code of an unpacking, or None for arguments it does not take."""
    kinds = _OUTPUTS if ascending else _OUTPUTS + _FLOAT_OUTPUTS
    arrays_fit = (
        isinstance(stream, types.Array)
        and stream.ndim == 1
        and stream.dtype == types.uint8
        and isinstance(out, types.Array)
        and out.ndim == 1
        and out.dtype in kinds
    )
    numbers = (types.Integer, types.Float) if out.dtype in _FLOAT_OUTPUTS else types.Integer
    if not arrays_fit or not (
        all(isinstance(value, types.Integer) for value in (at, count, width, into))
        and isinstance(start, numbers)
    ):
        return None
    signature = types.void(stream, at, count, width, start, out, into)
    return signature, lambda c, b, s, a: _unpack(c, b, s, a, ascending)


@intrinsic
def unpack_ascending(typingctx, stream, at, count, width, first, out, into):
    """The run at byte `at` read as differences: out[into + i] = first + values[0] +
    ... + values[i] (document ids, each the one before plus its difference). Writes
    whole groups of eight into out (uint8, uint16, int32 or uint32: the sums are kept in
    32 bits, then narrowed)."""
    return _typed(stream, at, count, width, first, out, into, ascending=True)


@intrinsic
def unpack_offsets(typingctx, stream, at, count, width, base, out, into):
    """The run at byte `at` as offsets from `base`: out[into + i] = base + values[i]
    (weights stored less their run's least; out may also be float32 or float64, the
    sum then a float). Writes whole groups of eight into out, as unpack_ascending
    does."""
    return _typed(stream, at, count, width, base, out, into, ascending=False)
