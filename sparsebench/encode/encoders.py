"""Encoders turn texts into sparse vectors with named columns; one class per model kind.

Every encoder has `encode(texts) -> LabelledCSR` and does its own batching. The BM25
encoder holds raw term counts (the saturation needs corpus statistics and is applied
after stacking, in weighting); SPLADE encoders hold the model's term weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import pyarrow as pa

from sparsebench.analysis.analyzer import Analyzer
from sparsebench.core.errors import ConfigError
from sparsebench.core.progress import progress
from sparsebench.core.strings import as_string_array
from sparsebench.encode.sparse import LabelledCSR, counts_matrix, iter_row_blocks, stack_labelled


class Encoder(Protocol):
    """What the pipeline needs of a model's document or query encoder."""

    def encode(self, texts: pa.Array | Sequence[str]) -> LabelledCSR: ...


def encode_table(encoder: Encoder, table: pa.Table) -> LabelledCSR:
    """Encode the rows of a corpus or query table: their text, or the column an encoder
    names as its `input_column` (pre-encoded vectors are looked up by id)."""
    return encoder.encode(table.column(getattr(encoder, "input_column", "text")))


class TermCountEncoder:
    """Bag of analyzed terms with their counts (the input of BM25 and tf-idf)."""

    batch_size = 20_000

    def __init__(self, analyzer: Analyzer) -> None:
        self.analyzer = analyzer

    def _encode_batch(self, texts: pa.Array) -> LabelledCSR:
        batch = self.analyzer.analyze_batch(texts)
        matrix = counts_matrix(batch.text_index, batch.term_ids, batch.n_texts, len(batch.terms))
        return LabelledCSR(matrix, batch.terms)

    def encode(self, texts: pa.Array | Sequence[str]) -> LabelledCSR:
        array = as_string_array(texts)
        parts = []
        with progress(len(array), "encoding texts") as bar:  # one update per batch: cheap
            for start, stop in iter_row_blocks(len(array), self.batch_size):
                parts.append(self._encode_batch(array.slice(start, stop - start)))
                bar.update(stop - start)
        return stack_labelled(parts or [self._encode_batch(array)])


class _SpladeAdapter:
    """A SPLADE-family encoder behind the pipeline's interface (lazy torch import)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def encode(self, texts: pa.Array | Sequence[str]) -> LabelledCSR:
        return self.inner.encode(as_string_array(texts).to_pylist())


def make_encoder(encoding: dict[str, Any], runtime: dict[str, Any] | None = None) -> Encoder:
    """The encoder of one side of a model, from its encoding settings
    (params.encoding_params) and its speed settings (params.runtime_params)."""
    runtime = runtime or {}
    kind = encoding["kind"]
    if kind == "bm25":
        return TermCountEncoder(Analyzer.from_config(encoding["analyzer"]))
    if kind in ("splade", "tokenizer") and runtime.get("threads"):
        import torch

        torch.set_num_threads(int(runtime["threads"]))
    if kind == "splade":
        from sparsebench.encode.splade import SpladeEncoder, SpladeSettings

        settings = SpladeSettings(
            model=encoding["model"],
            max_length=encoding["max_length"],
            pooling=encoding["pooling"],
            dtype=encoding["dtype"],
            top_k=encoding.get("top_k"),
            threshold=encoding.get("threshold", 0.0),
            batch_size=encoding["batch_size"],
            device=runtime.get("device", "auto"),
        )
        return _SpladeAdapter(SpladeEncoder(settings))
    if kind == "python":
        from sparsebench.encode.custom import PythonEncoder

        return PythonEncoder(
            encoding["encoder"],
            encoding["options"],
            encoding["side"],
            runtime.get("batch_size", 1024),
        )
    if kind == "vectors":
        from sparsebench.encode.json_vectors import VectorFileEncoder

        return VectorFileEncoder(encoding["path"], encoding["side"])
    if kind == "tokenizer":
        from sparsebench.encode.splade import TokenizerQueryEncoder

        return _SpladeAdapter(TokenizerQueryEncoder(encoding["model"]))
    raise ConfigError(f"no encoder for model kind {kind!r}")
