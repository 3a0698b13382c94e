"""Transformer encoders that give every text the same vector whatever its neighbours:
the fixed-shape blocks the SPLADE family and uniCOIL both encode in.

Float sums are ordered by the shapes of the tensors they run over (a GEMM may pick its
kernel and blocking by the row count; softmax and attention reduce over the padded
length), so every text is encoded in a block of exactly `batch_size` rows padded to its
own length bucket (eight buckets an octave: lengths round up to a multiple of max(8,
2^ceil(log2 length) / 8), so padding adds at most 1/8). A block holds only texts of one
bucket; a partial block is filled with copies of its first text, whose rows are dropped.
The same text therefore gives the same bytes in any shard, batch or partition, in any
order, with any thread count. The block's row count is part of the encoding (the workflow
re-encodes when it changes); a small one (8 by default) wastes little on the partial
blocks of a small corpus, a GPU wants more.

A model is a subclass that loads its tokenizer and network and says how one block's
token ids become (block x vocabulary) weights (`block_weights`); batching, truncation
counts, autocast, special-token removal, sparsification on the device and pruning are
here.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from sparsebench.core.devices import select_device
from sparsebench.core.errors import ConfigError
from sparsebench.core.progress import progress
from sparsebench.encode.pruning import prune_rows
from sparsebench.encode.sparse import LabelledCSR

log = logging.getLogger(__name__)
DTYPES = ("fp32", "fp16", "bf16")
BUCKETS_PER_OCTAVE = 8  # padded lengths: few buckets (few partial blocks), little padding
MIN_BUCKET = 8  # tokens: padded lengths are multiples of 8 (tensor-core friendly)


def torch_dtype(name: str):
    """The torch dtype of a `dtype` setting."""
    import torch

    if name not in DTYPES:
        raise ConfigError(f"dtype must be one of {', '.join(DTYPES)}, not {name!r}")
    return {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[name]


def vocabulary_terms(tokenizer: Any, size: int) -> pa.Array:
    """The token of each of the first `size` ids (the model's output columns)."""
    tokens = [""] * size
    for token, index in tokenizer.get_vocab().items():
        if index < size:
            tokens[index] = token
    return pa.array(tokens, type=pa.string())


class BlockSettings(Protocol):
    """The settings every block encoder's settings have (SpladeSettings, UniCoilSettings)."""

    max_length: int
    batch_size: int
    dtype: str
    device: str
    top_k: int | None
    threshold: float


class TokenBlockEncoder(ABC):
    """Encodes texts into vocabulary-sized sparse vectors, block by block.

    A subclass calls `setup` with its settings, then loads its tokenizer and network on
    `device`, sets `terms` (the output columns) and `removed_ids` (the token ids whose
    columns are zeroed: the SPLADE family's special tokens), and implements
    `block_weights`."""

    tokenizer: Any
    network: Any
    # an empty or blank text: an empty row (SPLADE), or encoded as any text is (what
    # Pyserini's uniCOIL encoders do: [CLS] [SEP], the [SEP] weighted)
    encodes_empty_texts: bool = False

    def setup(self, settings: BlockSettings) -> None:
        """The settings every block encoder has; picks the device and dtype."""
        import torch

        self.max_length = settings.max_length
        self.batch_size = settings.batch_size
        self.top_k = settings.top_k
        self.threshold = settings.threshold
        self.device = select_device(settings.device)
        self.dtype = torch_dtype(settings.dtype)
        if self.device.type == "cpu" and self.dtype != torch.float32:
            log.warning("dtype %s on the CPU is slow or unsupported; using fp32", settings.dtype)
            self.dtype = torch.float32
        self.truncated = 0

    def device_tensor(self, ids: Sequence[int]):
        """A sorted tensor of token ids on the encoder's device."""
        import torch

        return torch.tensor(sorted(set(ids)), dtype=torch.long, device=self.device)

    @property
    def vocab_size(self) -> int:
        return len(self.terms)

    # -- batching ---------------------------------------------------------------------

    def _lengths(self, texts: Sequence[str]) -> np.ndarray:
        """Token counts (special tokens included), capped at max_length + 1: a count above
        max_length means the text is truncated."""
        encoded = self.tokenizer(
            list(texts),
            add_special_tokens=True,
            truncation=True,
            max_length=self.max_length + 1,
            return_attention_mask=False,
            return_token_type_ids=False,
        )
        return np.fromiter(
            (len(ids) for ids in encoded["input_ids"]), dtype=np.int64, count=len(texts)
        )

    def padded_lengths(self, lengths: np.ndarray) -> np.ndarray:
        """The padded length of each text: a function of its own token count only."""
        capped = np.maximum(np.minimum(lengths, self.max_length), 1)
        octave = 2 ** np.ceil(np.log2(capped)).astype(np.int64)
        width = np.maximum(MIN_BUCKET, octave // BUCKETS_PER_OCTAVE)
        return np.minimum(-(-capped // width) * width, self.max_length)

    def blocks(self, lengths: np.ndarray) -> list[tuple[np.ndarray, int]]:
        """(text positions, padded length) of each block: texts of one length bucket, at
        most batch_size of them, longest buckets first."""
        padded = self.padded_lengths(lengths)
        order = np.argsort(-padded, kind="stable")
        bounds = np.flatnonzero(np.diff(padded[order])) + 1
        return [
            (group[start : start + self.batch_size], int(padded[group[0]]))
            for group in np.split(order, bounds)
            for start in range(0, len(group), self.batch_size)
        ]

    def encode(self, texts: Sequence[str]) -> LabelledCSR:
        """Sparse vectors of `texts`, rows in input order; empty texts give empty rows
        unless the encoder encodes them."""
        import torch

        texts = [t if isinstance(t, str) else "" for t in texts]
        n = len(texts)
        nonempty = np.array(
            [self.encodes_empty_texts or bool(t.strip()) for t in texts], dtype=bool
        )
        rows, cols, vals = [], [], []
        if nonempty.any():
            positions = np.nonzero(nonempty)[0]
            lengths = self._lengths([texts[i] for i in positions])
            too_long = int((lengths > self.max_length).sum())
            self.truncated += too_long
            if too_long:
                log.info(
                    "%d of %d texts exceed max_length %d tokens and are truncated",
                    too_long,
                    len(positions),
                    self.max_length,
                )
            with torch.inference_mode(), progress(len(positions), "encoding texts") as bar:
                for members, padded in self.blocks(lengths):
                    batch = positions[members]
                    bar.update(len(batch))
                    weights = self._encode_batch([texts[i] for i in batch], padded)
                    row, col = torch.nonzero(weights, as_tuple=True)
                    values = weights[row, col]
                    rows.append(batch[row.cpu().numpy()])
                    cols.append(col.cpu().numpy())
                    vals.append(values.float().cpu().numpy())
        if (~nonempty).any():
            log.info("%d empty texts encode to empty vectors", int((~nonempty).sum()))
        matrix = sp.csr_matrix(
            (
                np.concatenate(vals) if vals else np.zeros(0, np.float32),
                (
                    np.concatenate(rows) if rows else np.zeros(0, np.int64),
                    np.concatenate(cols) if cols else np.zeros(0, np.int64),
                ),
            ),
            shape=(n, self.vocab_size),
            dtype=np.float32,
        )
        matrix.sort_indices()
        matrix = prune_rows(matrix, self.top_k, self.threshold)
        return LabelledCSR(matrix, self.terms)

    def _encode_batch(self, texts: list[str], padded: int):
        """(len(texts) x vocabulary) weights on the device, `removed_ids` zeroed,
        computed in a block of exactly batch_size rows of `padded` tokens."""
        import torch

        encoded = self.tokenizer(
            texts,
            padding="max_length",
            truncation=True,
            max_length=padded,
            return_tensors="pt",
        )
        fill = torch.zeros(self.batch_size, dtype=torch.long)
        fill[: len(texts)] = torch.arange(len(texts))
        input_ids = encoded["input_ids"][fill].to(self.device)
        mask = encoded["attention_mask"][fill].to(self.device)
        autocast = torch.autocast(
            device_type="cuda",
            dtype=self.dtype,
            enabled=self.device.type == "cuda" and self.dtype != torch.float32,
        )
        with autocast:
            weights = self.block_weights(input_ids, mask)
        weights = weights[: len(texts)].float()
        if len(self.removed_ids):
            weights[:, self.removed_ids] = 0.0
        return weights

    @abstractmethod
    def block_weights(self, input_ids, mask):
        """(block x vocabulary) weights of one block of token ids and attention mask."""
