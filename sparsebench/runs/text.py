"""The bytes of run lines, assembled by compiled code (numba) in one pass: ids copied
from their UTF-8 buffers, ranks in decimal, scores as `%.9g` writes float32 values.

Scores: Python formats each value by correct rounding (half to even) of its exact binary
value. A float32 score v whose decimal exponent e lies in [-4, 8] has its nine digits
d = rint(v * 10^(8-e)); the product is exact in float64 (v has 24 significant bits and
10^(8-e) = 5^(8-e) 2^(8-e) with 5^12 < 2^28, so 52 bits at most), and rint rounds it half
to even, as Python does. `%.9g` then writes d in fixed notation with trailing fractional
zeros dropped. Scores outside [1e-4, 999999999.5) in magnitude (written with an
exponent, or near its threshold), zeros and non-finite values come as texts Python
formatted (`given`); in retrieval's scores they are a handful.

Everything per line is inline in one loop: a compiled call that passes arrays costs
more than a line's work (reference counts both ways).
"""

from __future__ import annotations

import numpy as np

from sparsebench.core.arrays import read_only_views
from sparsebench.core.jit import compiled

FAST_LOW, FAST_HIGH = 1e-4, 999999999.5  # magnitudes written here; others are `given`
_POW10 = 10.0 ** np.arange(0, 13)  # exact in float64
_STEPS = 10.0 ** np.arange(-3, 9)  # 10^(e + 1) for e = -4..7: where the exponent steps up
_DIGITS3 = np.array([list(f"{g:03d}".encode()) for g in range(1000)], dtype=np.uint8)
_Q0 = np.frombuffer(b" Q0 ", dtype=np.uint8)


@compiled
def _nine_digits(magnitude):
    """(d, e): magnitude ~ d x 10^(e - 8) with d in [10^8, 10^9) rounded half to even,
    for magnitudes in [FAST_LOW, FAST_HIGH). The exponent by comparisons with powers of
    ten (a logarithm costs more than the whole line), set right by the digits' range."""
    e = -4
    while e < 8 and magnitude >= _STEPS[e + 4]:
        e += 1
    scaled = magnitude * _POW10[8 - e]
    if scaled >= 1e9 and e < 8:  # the power of ten rounded below the magnitude
        e += 1
        scaled = magnitude * _POW10[8 - e]
    elif scaled < 1e8 and e > -4:  # or above it
        e -= 1
        scaled = magnitude * _POW10[8 - e]
    d = np.rint(scaled)
    if d >= 1e9:  # 9.99999999x rounds up to 10.0000000: one more digit
        d = 1e8
        e += 1
    return np.int64(d), e


@compiled
def assemble(
    query_rows,
    ranks,
    scores,
    given,
    given_offsets,
    given_bytes,
    query_offsets,
    query_bytes,
    doc_starts,
    doc_ends,
    doc_bytes,
    tail,
    out,
):
    """Write the lines `qid Q0 docid rank score<tail>` into `out` (large enough); returns
    the bytes written. Line i's query id is query_rows[i] (offsets into query_bytes), its
    document id doc_bytes[doc_starts[i]:doc_ends[i]] (gathered by the caller: over a
    large corpus each is a cache miss, and numpy's gather overlaps them); scores:
    float64 holding float32 values; given[i] >= 0: line i's score text is given text
    given[i] (offsets into given_bytes)."""
    at = 0
    digits = np.empty(20, dtype=np.uint8)
    for line in range(len(ranks)):
        q = query_rows[line]
        for b in range(query_offsets[q], query_offsets[q + 1]):
            out[at] = query_bytes[b]
            at += 1
        for b in range(4):
            out[at] = _Q0[b]
            at += 1
        for b in range(doc_starts[line], doc_ends[line]):
            out[at] = doc_bytes[b]
            at += 1
        out[at] = 32
        at += 1
        rank = ranks[line]
        n = 0
        while True:
            digits[n] = 48 + rank % 10
            rank //= 10
            n += 1
            if rank == 0:
                break
        for j in range(n - 1, -1, -1):
            out[at] = digits[j]
            at += 1
        out[at] = 32
        at += 1
        text = given[line]
        if text >= 0:
            for b in range(given_offsets[text], given_offsets[text + 1]):
                out[at] = given_bytes[b]
                at += 1
        else:
            value = scores[line]
            if value < 0:
                out[at] = 45  # "-"
                at += 1
                value = -value
            nine, e = _nine_digits(value)
            high, rest = divmod(nine, 1_000_000)  # three digits at a time, from a table
            middle, low = divmod(rest, 1000)
            for j in range(3):
                digits[j] = _DIGITS3[high, j]
                digits[3 + j] = _DIGITS3[middle, j]
                digits[6 + j] = _DIGITS3[low, j]
            kept = 9  # without trailing zeros
            while kept > 1 and digits[kept - 1] == 48:
                kept -= 1
            if e >= 0:  # e + 1 digits before the point, a point only if more remain
                for j in range(e + 1):
                    out[at] = digits[j]
                    at += 1
                if kept > e + 1:
                    out[at] = 46  # "."
                    at += 1
                    for j in range(e + 1, kept):
                        out[at] = digits[j]
                        at += 1
            else:  # "0." and -e - 1 zeros, then the digits
                out[at] = 48
                out[at + 1] = 46
                at += 2
                for _ in range(-e - 1):
                    out[at] = 48
                    at += 1
                for j in range(kept):
                    out[at] = digits[j]
                    at += 1
        for b in range(len(tail)):
            out[at] = tail[b]
            at += 1
    return at


def assembled(*inputs: np.ndarray, out: np.ndarray) -> int:
    """assemble(*inputs, out) with read-only views of the inputs: id buffers come
    read-only from Arrow or writable from numpy, and each mix would be compiled apart
    (at a stage's first lines); so they share the one that load_compiled loads."""
    return assemble(*read_only_views(*inputs), out)


def load_compiled() -> None:
    """Load the compiled writer (from numba's cache, or compile it): a process's first
    compiled call also starts numba's runtime, which a stage can charge to its start-up
    rather than to its first lines."""
    one = np.ones(1, dtype=np.int64)
    empty = np.zeros(0, dtype=np.uint8)
    bounds = np.array([0, 0], dtype=np.int64)
    out = np.empty(64, dtype=np.uint8)
    assembled(
        one - 1,  # a line of query 0
        one,  # rank 1
        np.ones(1),  # score 1
        -one,  # no given text
        bounds[:1],
        empty,
        bounds,  # an empty query id
        empty,
        bounds[:1],  # an empty document id
        bounds[1:],
        empty,
        empty,  # no tag
        out=out,
    )
