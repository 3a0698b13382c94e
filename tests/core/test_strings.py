"""The string-array helpers built on numpy and Arrow buffers."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.core.strings import empty_or_holding, string_views


def test_string_views_cut_any_spans_of_the_parts():
    """Spans in any order, overlapping, of 0 to 40 bytes (inline views and views of the
    buffer), over parts of any length, equal Python's slices of the bytes."""
    rng = random.Random(3)
    alphabet = ["a", "Z", " ", "é", "中", "한", "\U00020000"]
    for _ in range(300):
        texts = ["".join(rng.choices(alphabet, k=rng.randint(0, 30))) for _ in range(3)]
        encoded = [t.encode() for t in texts]
        whole = b"".join(encoded)
        bounds = [i for i in range(len(whole) + 1) if i == len(whole) or whole[i] & 0xC0 != 0x80]
        spans = []
        for _ in range(rng.randint(0, 40)):
            start = rng.choice(bounds)
            end = rng.choice([b for b in bounds if start <= b <= start + 40])
            spans.append((start, end))
        starts = np.array([s for s, _ in spans], dtype=np.int64)
        lengths = np.array([e - s for s, e in spans], dtype=np.int64)
        parts = [np.frombuffer(e, dtype=np.uint8) for e in encoded]
        expected = [whole[s:e].decode() for s, e in spans]
        assert string_views(parts, starts, lengths).to_pylist() == expected


def test_empty_or_holding_agrees_with_a_regex_over_the_strings():
    """The byte search finds what the regex `^$|\\s` finds (RE2's \\s: tab, newline, form
    feed, carriage return, space), in plain, sliced and chunked arrays, and misses
    what it misses (vertical tab, no-break space)."""
    rng = random.Random(5)
    alphabet = ["a", "1", "é", "中", "\u00a0", "\v"] * 6 + [" ", "\t", "\n", "\f", "\r", ""]
    seen = set()
    for _ in range(400):
        texts = ["".join(rng.choices(alphabet, k=rng.randint(0, 6))) for _ in range(5)]
        array = pa.array(texts, pa.string())
        for column in (array, array.slice(2), pa.chunked_array([array.slice(0, 2), array[2:]])):
            expected = pc.any(pc.match_substring_regex(column, r"^$|\s")).as_py() or False
            assert empty_or_holding(column, b" \t\n\f\r") == expected, texts
            seen.add(expected)
    assert seen == {True, False}
