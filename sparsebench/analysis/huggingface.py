"""A Hugging Face tokenizer as a BM25 analyzer, as Anserini's
HuggingFaceTokenizerAnalyzer (`-analyzeWithHuggingFaceTokenizer`): each text's tokens
(WordPiece, SentencePiece or BPE pieces, as the tokenizer writes them: "##ing", "▁the"),
without special tokens and cut to the first `max_length` tokens (Anserini's DJL tokenizer
truncates at 512), joined by spaces and split again by Lucene's WhitespaceTokenizer; no
other filter. Queries are analyzed so too, so BM25 matches pieces, not words.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparsebench.analysis import whitespace
from sparsebench.analysis.chains import Chain
from sparsebench.analysis.settings import MAX_LENGTH
from sparsebench.core.errors import ConfigError


def load_tokenizer(model: str) -> Any:
    """A fast tokenizer from a local folder or a hub id, or a clear error."""
    from transformers import AutoTokenizer

    path = Path(model).expanduser()
    looks_local = model.startswith((".", "/", "~")) or path.exists()
    if looks_local and not path.is_dir():
        raise ConfigError(f"model folder {model} does not exist")
    try:
        return AutoTokenizer.from_pretrained(str(path) if looks_local else model)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load a tokenizer from {model!r}: {exc}") from None


def vocabulary(tokenizer: Any) -> pa.Array:
    """The tokenizer's token strings, indexed by token id."""
    tokens = [""] * len(tokenizer)
    for token, index in tokenizer.get_vocab().items():
        if index < len(tokens):
            tokens[index] = token
    return pa.array(tokens, type=pa.string())


def chain(model: str, max_length: int | None = MAX_LENGTH) -> Chain:
    """The analyzer of a tokenizer (a folder or hub id): its pieces, whitespace-split."""
    tokenizer = load_tokenizer(model)
    pieces = vocabulary(tokenizer)

    def tokenize(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
        ids = tokenizer(
            texts.fill_null("").to_pylist(),
            add_special_tokens=False,
            truncation=max_length is not None,
            max_length=max_length,
            return_attention_mask=False,
            return_token_type_ids=False,
        )["input_ids"]
        offsets = np.zeros(len(ids) + 1, np.int32)
        np.cumsum([len(row) for row in ids], out=offsets[1:])
        flat = np.fromiter((i for row in ids for i in row), np.int64, count=int(offsets[-1]))
        per_text = pa.ListArray.from_arrays(pa.array(offsets), pieces.take(pa.array(flat)))
        # Anserini joins the pieces with spaces and reads them back with Lucene's
        # WhitespaceTokenizer: a piece holding whitespace splits, an empty one goes
        return whitespace.tokenize(pc.binary_join(per_text, " "))

    return Chain(language=f"huggingface:{model}", tokenize=tokenize, filter=lambda tokens: tokens)
