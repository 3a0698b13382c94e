"""Tokenizing each distinct space-separated chunk of a batch once.

A batch's texts are split at the ASCII space into chunks ("results:", "don't", a whole
unspaced sentence); a batch of 20,000 texts holds a few hundred thousand chunks but only
thousands of distinct ones (words repeat). A tokenizer whose tokens never hold a space
and whose tokens of a chunk do not depend on the text around it gives the same tokens
chunk by chunk as text by text, so it needs to see only the distinct chunks: its cost
then follows the batch's vocabulary, not its bytes (Bengali or Russian text, two or
three UTF-8 bytes a character, tokenises as fast as English).

StandardTokenizer is such a tokenizer: a space is in the class of characters that
never occur inside a token and always end one (standard_tokenizer.py), the characters
attached to a space (combining marks after it) are dropped as those at the start of a
text are, and the scanner's 255-unit buffer restarts at every token. The tokens come
back as a dictionary array: the distinct chunks' tokens, and each token of the batch
as an index into them (no string is copied per token).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.arrays import span_indices
from sparsebench.encode.lucene.standard_tokenizer import tokenize_batch
from sparsebench.strings import as_string_array

Tokenize = Callable[[pa.Array], tuple[np.ndarray, pa.Array]]
# Share of the batch's bytes the distinct chunks may hold for chunking to pay (unspaced
# scripts: a chunk is a sentence, and few repeat): above it, the texts go whole.
_WORTH = 0.5


def by_distinct_chunks(tokenize: Tokenize, texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """`tokenize` (texts -> (text index per token, tokens)) run over the distinct
    space-separated chunks of the texts, its tokens spread back over the texts in order:
    the same tokens, as a dictionary array, if `tokenize` is local to chunks (see the
    module's docstring)."""
    array = as_string_array(texts)
    pieces = pc.split_pattern(array, " ")
    encoded = pc.list_flatten(pieces).dictionary_encode()
    distinct = encoded.dictionary
    if distinct.nbytes > _WORTH * max(array.nbytes, 1):
        return tokenize(array)
    chunk_of_token, tokens = tokenize(distinct)
    per_distinct = np.bincount(chunk_of_token, minlength=len(distinct))
    first = np.cumsum(per_distinct) - per_distinct
    occurrence = encoded.indices.to_numpy()
    per_chunk = per_distinct[occurrence]
    starts = first[occurrence]
    text_of_chunk = pc.list_parent_indices(pieces).to_numpy().astype(np.int64)
    references = span_indices(starts, starts + per_chunk)
    text_index = np.repeat(text_of_chunk, per_chunk)
    return text_index, pa.DictionaryArray.from_arrays(pa.array(references, pa.int64()), tokens)


def standard_tokens(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """StandardTokenizer's tokens of the texts (tokenize_batch), chunk by chunk."""
    return by_distinct_chunks(tokenize_batch, texts)
