"""The string-array helpers built on numpy and Arrow buffers."""

from __future__ import annotations

import random

import numpy as np

from sparsebench.strings import string_views


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
