"""A tiny random masked LM with a made-up vocabulary, saved as a Hugging Face folder."""

from __future__ import annotations

import re

import torch
import transformers
from conftest import TINY_DOCS, TINY_QUERIES

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def words_of(texts):
    return sorted({w for t in texts for w in re.findall(r"[a-z]+", t.lower())})


def tiny_tokenizer():
    """A WordPiece tokenizer of the tiny collection's words (and three suffixes)."""
    texts = [f"{t} {x}" for _, t, x in TINY_DOCS] + [q for _, q in TINY_QUERIES]
    vocab = SPECIAL + words_of(texts) + ["##s", "##ing", "##ed"]
    return transformers.BertTokenizer(vocab={w: i for i, w in enumerate(vocab)})


def build_masked_lm(folder, architecture="bert", seed=0):
    """A tiny random masked LM with a made-up vocabulary, saved as a Hugging Face folder."""
    tokenizer = tiny_tokenizer()
    vocab = tokenizer.get_vocab()
    torch.manual_seed(seed)
    common = dict(vocab_size=len(vocab), max_position_embeddings=64)
    if architecture == "bert":
        model = transformers.BertForMaskedLM(
            transformers.BertConfig(
                hidden_size=16,
                num_hidden_layers=1,
                num_attention_heads=2,
                intermediate_size=32,
                **common,
            )
        )
    elif architecture == "roberta":
        model = transformers.RobertaForMaskedLM(
            transformers.RobertaConfig(
                hidden_size=16,
                num_hidden_layers=1,
                num_attention_heads=2,
                intermediate_size=32,
                pad_token_id=0,
                **{**common, "max_position_embeddings": 80},
            )
        )
    else:
        model = transformers.DistilBertForMaskedLM(
            transformers.DistilBertConfig(
                dim=16, n_layers=1, n_heads=2, hidden_dim=32, pad_token_id=0, **common
            )
        )
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
