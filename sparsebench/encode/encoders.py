"""Encoders turn texts into sparse vectors with named columns; one module per encoding
kind, listed in ENCODERS.

Every encoder has `encode(texts) -> LabelledCSR` and does its own batching. The BM25
encoder holds raw term counts (the saturation needs corpus statistics and is applied
after stacking, in weighting); SPLADE encoders hold the model's term weights.

A new encoding kind is a module with its encoder and a `build(encoding, runtime)` that
makes it from the encoding settings (what a model kind's `encoding` gives) and the speed
settings (its `runtime`), and one entry in ENCODERS. The entries name their modules as
strings, imported only when asked for: encoding with BM25 never imports torch, and the
code digest of the encoding stages follows the strings (sparsebench.workflow.codehash).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol

import pyarrow as pa

from sparsebench.core.errors import ConfigError
from sparsebench.core.strings import as_string_array
from sparsebench.encode.sparse import LabelledCSR

# encoding kind (the `kind` of the encoding settings) -> the module whose build() makes it
ENCODERS: dict[str, str] = {
    "bm25": "sparsebench.encode.term_counts",  # analyzed terms and their counts
    "fields": "sparsebench.encode.fields",  # term counts per field (multifield BM25)
    "splade": "sparsebench.encode.splade",  # a SPLADE-family masked LM
    "unicoil": "sparsebench.encode.unicoil",  # per-token impacts of the text's own tokens
    "tokenizer": "sparsebench.encode.tokenizer_queries",  # inference-free queries
    "python": "sparsebench.encode.custom",  # a user's encoder class
    "vectors": "sparsebench.encode.json_vectors",  # vectors encoded elsewhere
}


class Encoder(Protocol):
    """What the pipeline needs of a model's document or query encoder."""

    def encode(self, texts: pa.Array | Sequence[str]) -> LabelledCSR: ...


def encode_table(encoder: Encoder, table: pa.Table) -> LabelledCSR:
    """Encode the rows of a corpus or query table: their text, or the column an encoder
    names as its `input_column` (pre-encoded vectors are looked up by id), or the whole
    rows where the encoder reads several columns (`encode_table`: a document's fields)."""
    if hasattr(encoder, "encode_table"):
        return encoder.encode_table(table)
    return encoder.encode(table.column(getattr(encoder, "input_column", "text")))


class TextListEncoder:
    """An encoder that takes a list of str (the SPLADE family's), behind the pipeline's
    interface (Arrow arrays of text)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def encode(self, texts: pa.Array | Sequence[str]) -> LabelledCSR:
        return self.inner.encode(as_string_array(texts).to_pylist())

    @property
    def device(self) -> str:
        """Where the inner encoder runs (a shard's cost record names it)."""
        return str(getattr(self.inner, "device", "cpu"))


def make_encoder(encoding: dict[str, Any], runtime: dict[str, Any] | None = None) -> Encoder:
    """The encoder of one side of a model, from its encoding settings
    (params.encoding_params) and its speed settings (params.runtime_params)."""
    kind = encoding["kind"]
    if kind not in ENCODERS:
        raise ConfigError(
            f"no encoder for encoding kind {kind!r}; known encoders: {', '.join(ENCODERS)}"
        )
    return importlib.import_module(ENCODERS[kind]).build(encoding, runtime or {})
