"""Encoders turn texts into sparse vectors with named columns; one class per model kind.

Every encoder returns a LabelledCSR. The BM25 encoder holds raw term counts (the BM25
saturation needs the corpus statistics and is applied after stacking, in weighting).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import pyarrow as pa

from sparsebench.analysis import Analyzer
from sparsebench.errors import ConfigError
from sparsebench.sparse import LabelledCSR, counts_matrix, iter_row_blocks, stack_labelled


class Encoder(Protocol):
    """What the pipeline needs of a model's encoder."""

    batch_size: int

    def encode_documents(self, texts: pa.Array) -> LabelledCSR: ...

    def encode_queries(self, texts: pa.Array) -> LabelledCSR: ...


class TermCountEncoder:
    """Bag of analyzed terms with their counts (the input of BM25 and tf-idf)."""

    batch_size = 20_000

    def __init__(self, analyzer: Analyzer) -> None:
        self.analyzer = analyzer

    def _encode(self, texts: pa.Array) -> LabelledCSR:
        batch = self.analyzer.analyze_batch(texts)
        matrix = counts_matrix(batch.text_index, batch.term_ids, batch.n_texts, len(batch.terms))
        return LabelledCSR(matrix, batch.terms)

    encode_documents = _encode
    encode_queries = _encode


def make_encoder(encoding: dict[str, Any]) -> Encoder:
    """The encoder of a model from its encoding settings (config.encoding_params)."""
    if encoding["kind"] == "bm25":
        return TermCountEncoder(Analyzer.from_config(encoding["analyzer"]))
    raise ConfigError(f"no encoder for model kind {encoding['kind']!r}")


def encode_in_batches(
    encoder: Encoder, texts: pa.Array | Sequence[str], queries: bool = False
) -> LabelledCSR:
    """Encode many texts batch by batch; memory follows the encoder's batch size."""
    array = texts if isinstance(texts, pa.Array | pa.ChunkedArray) else pa.array(texts, pa.string())
    encode = encoder.encode_queries if queries else encoder.encode_documents
    parts = [
        encode(array.slice(start, stop - start))
        for start, stop in iter_row_blocks(len(array), encoder.batch_size)
    ]
    if not parts:
        parts = [encode(array)]
    return stack_labelled(parts)
