"""The `tokenizer` encoding: inference-free queries (SPLADE-doc, OpenSearch's
inference-free models), each distinct non-special token of a query weighing 1, the IDF
(the corpus's or the model's idf.json, sparsebench.encode.splade.load_idf_json) weighting
it at retrieval."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from sparsebench.analysis.huggingface import load_tokenizer, vocabulary
from sparsebench.encode.encoders import Encoder, TextListEncoder
from sparsebench.encode.sparse import LabelledCSR
from sparsebench.encode.splade import set_torch_threads


class TokenizerQueryEncoder:
    """Inference-free query side: each distinct non-special token of the query weighs 1;
    the IDF (the corpus's or the model's idf.json) then weights it at retrieval."""

    def __init__(self, model: str) -> None:
        self.tokenizer = load_tokenizer(model)
        self.terms = vocabulary(self.tokenizer)
        self.special = set(self.tokenizer.all_special_ids)
        self.batch_size = 1024

    def encode(self, texts: Sequence[str]) -> LabelledCSR:
        encoded = self.tokenizer(
            list(texts), add_special_tokens=False, truncation=False, return_attention_mask=False
        )["input_ids"]
        rows = np.repeat(np.arange(len(texts)), [len(ids) for ids in encoded])
        cols = np.fromiter((i for ids in encoded for i in ids), dtype=np.int64, count=len(rows))
        keep = ~np.isin(cols, np.fromiter(self.special, dtype=np.int64, count=len(self.special)))
        matrix = sp.csr_matrix(
            (np.ones(int(keep.sum()), np.float32), (rows[keep], cols[keep])),
            shape=(len(texts), len(self.terms)),
            dtype=np.float32,
        )
        matrix.sum_duplicates()
        matrix.data[:] = 1.0  # distinct tokens
        return LabelledCSR(matrix, self.terms)


def build(encoding: Mapping[str, Any], runtime: Mapping[str, Any]) -> Encoder:
    """The query encoder of `kind: tokenizer` encoding settings ({model})."""
    set_torch_threads(runtime)
    return TextListEncoder(TokenizerQueryEncoder(encoding["model"]))
