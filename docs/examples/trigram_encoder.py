"""An example custom encoder for sparsebench: hashed character trigrams.

    models:
      trigrams:
        kind: python
        encoder: trigram_encoder:TrigramEncoder     # this file on PYTHONPATH or in the workdir
        options: {dimensions: 262144}
        idf: lucene

Each text becomes log(1 + count) of its lowercased character trigrams, hashed (CRC-32)
into `dimensions` columns; queries are encoded the same way.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter


class TrigramEncoder:
    def __init__(self, dimensions: int = 1 << 18) -> None:
        self.vocab_size = dimensions

    def _encode(self, text: str) -> dict[int, float]:
        padded = f"  {text.lower()}  "
        grams = Counter(padded[i : i + 3] for i in range(len(padded) - 2))
        vector: dict[int, float] = {}
        for gram, count in grams.items():
            column = zlib.crc32(gram.encode("utf-8")) % self.vocab_size
            vector[column] = vector.get(column, 0.0) + math.log1p(count)
        return vector

    def encode_documents(self, texts: list[str]) -> list[dict[int, float]]:
        return [self._encode(t) for t in texts]

    def encode_queries(self, texts: list[str]) -> list[dict[int, float]]:
        return [self._encode(t) for t in texts]
