"""Runs of small unsigned integers bit-packed at one width: the layout, which the
compiled packing and unpacking (sparsebench.core.bitpack_loop) share with the code that
sizes and checks packed streams without compiling anything.

A run of `count` values of `width` bits (0 to MAX_WIDTH) takes packed_bytes(count,
width) bytes: value i in bits i * width onwards, least significant bit first
(horizontal packing, as PISA's and Lucene's ForUtil-like codecs lay out a block, and
with no padding between values: a run of 20 values of 11 bits takes 28 bytes). Eight
values of w bits take exactly w bytes, so the unpacking reads a group of eight from one
16-byte load; it reads up to SLACK bytes past a run's last byte, so a stream of runs
ends with SLACK bytes of its own.
"""

from __future__ import annotations

import numpy as np

MAX_WIDTH = 16  # the widest value: a document's place in a block of 65,536, or a uint16
GROUP = 8  # values unpacked at once: eight 32-bit lanes
SLACK = 16  # bytes a stream carries past its last run: a group is one 16-byte load


def packed_bytes(count: int | np.ndarray, width: int | np.ndarray) -> int | np.ndarray:
    """The bytes a run of `count` values of `width` bits takes."""
    return (count * width + 7) // 8
