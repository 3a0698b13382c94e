"""Bring your own encoder: a class named in config as "package.module:Class".

The class is built with the model entry's `options` and must offer

    vocab_size: int                                   (number of columns)
    encode_documents(texts: list[str]) -> list[dict[int, float]] | scipy sparse matrix
    encode_queries(texts: list[str])   -> the same
    vocabulary: list[str]                             (optional: names of the columns)

Its vectors then flow through the same shards, stacking, weighting and retrieval as the
built-in models. See docs/examples/trigram_encoder.py.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.core.progress import progress
from sparsebench.encode.sparse import LabelledCSR


def _split(spec: str) -> tuple[str, str]:
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ConfigError(f"encoder must look like 'package.module:Class', not {spec!r}")
    return module, name


def source_digest(spec: str) -> str:
    """sha256 of the encoder's module file, so editing the encoder reruns its encodings
    ('' when the module cannot be located without importing it)."""
    module, _ = _split(spec)
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return ""
    if found is None or not found.origin or not Path(found.origin).is_file():
        return ""
    return hashlib.sha256(Path(found.origin).read_bytes()).hexdigest()


def load_encoder_class(spec: str) -> type:
    module, name = _split(spec)
    try:
        loaded = importlib.import_module(module)
    except ImportError as exc:
        raise ConfigError(f"cannot import the encoder module {module!r}: {exc}") from None
    cls = getattr(loaded, name, None)
    if cls is None:
        raise ConfigError(f"module {module!r} has no {name!r}")
    for method in ("encode_documents", "encode_queries"):
        if not callable(getattr(cls, method, None)):
            raise ConfigError(f"{spec} has no method {method}(texts)")
    return cls


class PythonEncoder:
    """Adapts a user's encoder class to the pipeline's encoder interface."""

    def __init__(self, spec: str, options: dict[str, Any], side: str, batch_size: int = 1024):
        cls = load_encoder_class(spec)
        try:
            self.inner = cls(**options)
        except TypeError as exc:
            raise ConfigError(f"cannot build {spec} with options {options}: {exc}") from None
        self.spec, self.side, self.batch_size = spec, side, batch_size
        size = getattr(self.inner, "vocab_size", None)
        if not isinstance(size, int | np.integer) or size < 1:
            raise ConfigError(f"{spec}.vocab_size must be a positive integer, not {size!r}")
        self.vocab_size = int(size)
        names = getattr(self.inner, "vocabulary", None)
        if names is not None and len(names) != self.vocab_size:
            raise ConfigError(f"{spec}.vocabulary has {len(names)} names for {size} columns")
        self.terms = pa.array(
            list(names) if names is not None else [str(i) for i in range(self.vocab_size)],
            type=pa.string(),
        )

    def _to_csr(self, output: Any, n_texts: int) -> sp.csr_matrix:
        if sp.issparse(output):
            matrix = sp.csr_matrix(output, dtype=np.float32)
        else:
            vectors = list(output)
            if len(vectors) != n_texts:
                raise DataError(f"{self.spec} returned {len(vectors)} vectors for {n_texts} texts")
            lengths = [len(v) for v in vectors]
            cols = np.fromiter((int(i) for v in vectors for i in v), np.int64, sum(lengths))
            vals = np.fromiter(
                (float(x) for v in vectors for x in v.values()), np.float32, sum(lengths)
            )
            if len(cols) and (cols.min() < 0 or cols.max() >= self.vocab_size):
                raise DataError(f"{self.spec} returned a term id outside [0, {self.vocab_size})")
            rows = np.repeat(np.arange(n_texts), lengths)
            matrix = sp.csr_matrix((vals, (rows, cols)), shape=(n_texts, self.vocab_size))
        if matrix.shape != (n_texts, self.vocab_size):
            raise DataError(
                f"{self.spec} returned a {matrix.shape} matrix for {n_texts} texts "
                f"and {self.vocab_size} terms"
            )
        matrix.sum_duplicates()
        matrix.sort_indices()
        return matrix

    def encode(self, texts: Sequence[str]) -> LabelledCSR:
        texts = (
            list(texts) if not isinstance(texts, pa.Array | pa.ChunkedArray) else texts.to_pylist()
        )
        method = (
            self.inner.encode_documents if self.side == "documents" else self.inner.encode_queries
        )
        parts = []
        with progress(len(texts), "encoding texts") as bar:
            for i in range(0, len(texts), self.batch_size):
                batch = texts[i : i + self.batch_size]
                parts.append(self._to_csr(method(batch), len(batch)))
                bar.update(len(batch))
        matrix = sp.vstack(parts, format="csr") if parts else sp.csr_matrix((0, self.vocab_size))
        return LabelledCSR(sp.csr_matrix(matrix, dtype=np.float32), self.terms)


def build(encoding: Mapping[str, Any], runtime: Mapping[str, Any]) -> PythonEncoder:
    """The encoder of `kind: python` encoding settings ({encoder, options, side}), with
    the batch size of the speed settings."""
    return PythonEncoder(
        encoding["encoder"],
        encoding["options"],
        encoding["side"],
        runtime.get("batch_size", 1024),
    )
