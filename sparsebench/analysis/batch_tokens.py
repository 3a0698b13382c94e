"""A batch's tokens, by the tokenizer over whole texts or over their distinct chunks.

A tokenizer local to space-separated chunks (sparsebench.analysis.fast_distinct_chunks)
gives the same tokens either way. Over distinct chunks it costs less per byte but needs
numba and its compiled passes, whose loading into a new process costs more than
tokenizing a few megabytes of whole texts with numpy (benchmarks/RESULTS.md, "A job's
start-up"). So a process tokenizes its first WHOLE_TEXT_BYTES whole, and from the batch
that would pass them on by distinct chunks: a job encoding queries or a small corpus
never loads numba, and a large one pays at most that many bytes at numpy's speed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import pyarrow as pa

from sparsebench.analysis.chains import Tokenize
from sparsebench.analysis.standard_tokenizer import tokenize_batch
from sparsebench.core.strings import as_string_array, string_buffers

WHOLE_TEXT_BYTES = 8 << 20
_whole_bytes_left = WHOLE_TEXT_BYTES


def chunk_local_tokens(
    tokenize: Tokenize, texts: pa.Array | pa.ChunkedArray | Sequence[str]
) -> tuple[np.ndarray, pa.Array]:
    """`tokenize`'s tokens of the texts, (text index per token, tokens): whole texts
    while this process has tokenized fewer than WHOLE_TEXT_BYTES, then by distinct
    chunks (as a dictionary array). `tokenize` must be local to space-separated chunks."""
    global _whole_bytes_left
    array = as_string_array(texts)
    size = len(string_buffers(array)[1])
    if size <= _whole_bytes_left:
        _whole_bytes_left -= size
        return tokenize(array)
    _whole_bytes_left = 0  # from here on compiled: its loading is paid once
    from sparsebench.analysis.fast_distinct_chunks import by_distinct_chunks  # numba

    return by_distinct_chunks(tokenize, array)


@contextmanager
def by_chunks_meanwhile() -> Iterator[None]:
    """Every batch by distinct chunks meanwhile, however small: for building the
    compiled passes into numba's cache (sparsebench.warmup)."""
    global _whole_bytes_left
    left, _whole_bytes_left = _whole_bytes_left, 0
    try:
        yield
    finally:
        _whole_bytes_left = left


def standard_tokens(
    texts: pa.Array | pa.ChunkedArray | Sequence[str],
) -> tuple[np.ndarray, pa.Array]:
    """StandardTokenizer's tokens of the texts (tokenize_batch)."""
    return chunk_local_tokens(tokenize_batch, texts)
