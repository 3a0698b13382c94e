"""Borrowed arrays: the same memory with no owner, so compiled loops that bind them
count no references, and nothing else about them changes."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, types
from numba.core.errors import TypingError
from numba.extending import intrinsic

from sparsebench.core.borrowed import borrowed


@intrinsic
def _owner(typingctx, array):
    """The address of an array's owner (its meminfo): 0 for an array with none."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, arguments):
        view = context.make_array(signature.args[0])(context, builder, arguments[0])
        return builder.ptrtoint(view.meminfo, context.get_value_type(types.intp))

    return types.intp(array), codegen


@njit
def _owners(values, pair):
    lent = borrowed((values, 3, None, pair))
    inner = lent[3]
    return _owner(values), _owner(lent[0]), _owner(inner[0]), _owner(inner[1][0])


@njit
def _weighted_sum(values, weights):
    held = borrowed((values, weights))
    total = 0.0
    for i in range(len(held[0])):
        total += held[0][i] * held[1][i]
    return total


def test_every_borrowed_array_has_no_owner_and_the_original_keeps_its_own():
    values = np.arange(10, dtype=np.uint16)
    pair = (np.ones(3), (np.zeros(2, dtype=np.int64),))
    original, lent, first, nested = _owners(values, pair)
    assert original != 0
    assert lent == first == nested == 0


def test_a_loop_over_borrowed_arrays_computes_what_it_did_over_owned_ones():
    values = np.random.default_rng(3).integers(0, 255, 1000).astype(np.uint8)
    weights = np.random.default_rng(4).random(1000)
    assert _weighted_sum(values, weights) == pytest.approx(float(values @ weights), rel=1e-12)


def test_a_value_it_cannot_borrow_is_a_typing_error():
    @njit
    def borrow_a_list(items):
        return borrowed(items)

    with pytest.raises(TypingError, match="borrowed"):
        borrow_a_list([np.zeros(2)])
