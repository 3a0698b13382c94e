"""Scores as run files write them: `%.9g` of float32 values, Python's own digits,
computed for whole arrays at once.

Nine significant digits restore every float32 exactly; Python formats each value by
correct rounding (half to even) of its exact binary value. Here a score v whose decimal
exponent e (after rounding) lies in [-4, 8] becomes the integer d = rint(v * 10^(8-e)),
its nine digits. The product is exact in float64: v has 24 significant bits and
10^(8-e) = 5^(8-e) 2^(8-e) with 5^12 < 2^28, so 52 bits at most; rint rounds it half to
even, as Python does. Values outside that exponent range (written with an exponent),
zeros and non-finite values are formatted by Python itself; in retrieval's scores they
are a handful.

The digits become text by integer arithmetic on the string's bytes packed little-endian
in two 64-bit words (a 128-bit value per score): no per-score Python and no per-byte
loops. Each text is returned left-aligned in 16 bytes, padded with NUL bytes.
"""

from __future__ import annotations

import numpy as np

WIDTH = 16  # bytes per text: the longest `%.9g` of a float32 ("-1.17549435e-38") is 15
_TEXT = np.dtype(f"V{WIDTH}")
_LOW_E, _HIGH_E = -4, 8  # exponents written without an exponent part by `%.9g`
_POW10 = 10.0 ** np.arange(0, 9 - _LOW_E)  # exact in float64 (10^22 is the last)
_U64 = np.uint64
_BYTE_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [2**64 - 1], dtype=_U64)


def _three_digit_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per integer 0-999: its three ASCII digits packed little-endian, and how many of
    them end the string as zeros (3 for 0)."""
    text = [f"{g:03d}".encode() for g in range(1000)]
    packed = np.array([int.from_bytes(t, "little") for t in text], dtype=_U64)
    zeros = np.array([len(t) - len(t.rstrip(b"0")) for t in text], dtype=np.int64)
    return packed, zeros


_DIGITS3, _TRAILING_ZEROS3 = _three_digit_tables()
# "0.", "0.0", "0.00", "0.000" by their length 2-5: what precedes the digits for e < 0
_LEADS = np.array(
    [0, 0] + [int.from_bytes(b"0." + b"0" * (n - 2), "little") for n in range(2, 6)], dtype=_U64
)


def score_texts(scores: np.ndarray) -> np.ndarray:
    """`f"{s:.9g}"` of each float32 score as 16-byte values (ASCII, left-aligned, NUL
    padded)."""
    with np.errstate(invalid="ignore"):  # a signalling NaN stays a NaN
        values = np.asarray(scores, dtype=np.float32).astype(np.float64)
    digits, exponents, fast = _nine_digits(np.abs(values))
    low, high = _fixed_notation(digits, exponents)
    negative = values < 0
    if negative.any():
        low, high = _prepend_byte(low, high, negative, ord("-"))
    texts = np.empty((len(values), 2), dtype=_U64)
    texts[:, 0], texts[:, 1] = low, high
    out = texts.view(_TEXT).ravel()
    for i in np.flatnonzero(~fast):
        out[i] = f"{values[i]:.9g}".encode().ljust(WIDTH, b"\0")
    return out


def _nine_digits(magnitudes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per value: its nine significant digits as an integer in [10^8, 10^9), its decimal
    exponent after rounding, and whether that exponent is in range (where not, the
    digits are placeholders)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        exponents = np.floor(np.log10(magnitudes))
        fast = (exponents >= _LOW_E) & (exponents <= _HIGH_E)
        exponents = np.where(fast, exponents, 0).astype(np.int64)
        scaled = magnitudes * _POW10[_HIGH_E - exponents]
        digits = np.rint(scaled)  # exact product (see above): Python's rounding
    carried = digits == 1e9  # 9.99999999x rounds up to 10.0000000: one more digit
    digits[carried] = 1e8
    exponents += carried
    fast &= (digits >= 1e8) & (digits < 1e9) & (exponents <= _HIGH_E)
    return np.where(fast, digits, 1e8).astype(np.int64), exponents, fast


def _fixed_notation(digits: np.ndarray, exponents: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The text of digits x 10^(exponent - 8) in fixed notation, as `%.9g` writes it
    (trailing fractional zeros and a bare point dropped), packed in two words."""
    high3, middle3, low3 = digits // 1_000_000, digits // 1000 % 1000, digits % 1000
    trailing = np.where(
        low3 != 0,
        _TRAILING_ZEROS3[low3],
        np.where(middle3 != 0, 3 + _TRAILING_ZEROS3[middle3], 6 + _TRAILING_ZEROS3[high3]),
    )
    # the nine digit bytes: bytes 0-7 in `low`, byte 8 in `high`
    low = _DIGITS3[high3] | (_DIGITS3[middle3] << _U64(24)) | (_DIGITS3[low3] << _U64(48))
    high = _DIGITS3[low3] >> _U64(16)
    whole = exponents >= 0
    kept = np.where(whole, np.maximum(9 - trailing, exponents + 1), 9 - trailing)
    low = low & _BYTE_MASKS[np.minimum(kept, 8)]
    high = np.where(kept == 9, high, _U64(0))
    # exponent >= 0: a point after digit `exponent` when fractional digits remain
    point = whole & (kept > exponents + 1)
    split = np.where(point, exponents + 1, 8)  # bytes before the point (8: no point)
    head = low & _BYTE_MASKS[split]
    tail_low, tail_high = low & ~_BYTE_MASKS[split], high
    shifted_low, shifted_high = _shift_left(tail_low, tail_high, np.full(len(low), 8))
    point_byte = np.where(point, _U64(ord(".")), _U64(0)) << (_U64(8) * split.astype(_U64))
    low = np.where(point, head | point_byte | shifted_low, low)
    high = np.where(point, shifted_high, high)
    if whole.all():
        return low, high
    # exponent < 0: "0." and -exponent - 1 zeros, then the digits
    lead = np.where(whole, 0, 1 - exponents)
    led_low, led_high = _shift_left(low, high, 8 * lead)
    low = np.where(whole, low, led_low | _LEADS[lead])
    high = np.where(whole, high, led_high)
    return low, high


def _shift_left(low: np.ndarray, high: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, ...]:
    """(high:low) << bits for 0 <= bits < 64, as 128-bit values in two words."""
    bits = bits.astype(_U64)
    spill = np.where(bits == 0, _U64(0), low >> (_U64(64) - bits))
    return low << bits, (high << bits) | spill


def _prepend_byte(
    low: np.ndarray, high: np.ndarray, where: np.ndarray, byte: int
) -> tuple[np.ndarray, np.ndarray]:
    """`byte` before the text where `where`."""
    shifted_low, shifted_high = _shift_left(low, high, np.full(len(low), 8))
    return (
        np.where(where, shifted_low | _U64(byte), low),
        np.where(where, shifted_high, high),
    )
