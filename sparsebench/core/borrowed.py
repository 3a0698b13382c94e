"""Borrowed arrays in compiled code: the same arrays with no owner to count references
to (numba has no such notion of its own).

numba counts an array's references with atomic instructions: each time a compiled
function binds an array to a name, it increments its owner's count, and decrements it
when the name is last used. Inlined helpers that take arrays, or take them out of
tuples, bind them anew at every call, and where a call sits in a per-posting or
per-document loop, those paired atomic updates (each a locked instruction that waits
for the core's pending stores) can cost more than the work itself. A borrowed array
has no owner (as numba.carray's views of raw memory have none): counting its
references is a test of a null pointer. It stays valid only while its owner lives,
so a function borrows the arrays its caller passes it (they outlive the call) and
lets no borrowed array outlive the call.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _borrow(context, builder, value_type, value):
    """value with every array in it (at any depth of tuples) unowned."""
    if isinstance(value_type, types.Array):
        array = context.make_array(value_type)(context, builder, value)
        array.meminfo = cgutils.get_null_value(array.meminfo.type)
        array.parent = cgutils.get_null_value(array.parent.type)
        return array._getvalue()
    if isinstance(value_type, types.BaseTuple):
        for at, member_type in enumerate(value_type):
            member = builder.extract_value(value, at)
            value = builder.insert_value(value, _borrow(context, builder, member_type, member), at)
    return value


def _holds_only(value_type) -> bool:
    """Whether borrowed takes this type: arrays, numbers, None, tuples of them."""
    if isinstance(value_type, types.BaseTuple):
        return all(_holds_only(member) for member in value_type)
    return isinstance(value_type, (types.Array, types.Number, types.NoneType, types.Boolean))


@intrinsic
def borrowed(typingctx, value):
    """value (an array, or a tuple of arrays, numbers, None and such tuples) with every
    array borrowed: the same memory, no reference counted. Use it only on what the
    calling function's own caller keeps alive, and keep the result inside the call."""
    if not _holds_only(value):
        return None

    def codegen(context, builder, signature, arguments):
        return _borrow(context, builder, signature.args[0], arguments[0])

    return value(value), codegen
