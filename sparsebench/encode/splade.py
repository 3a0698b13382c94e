"""SPLADE-family encoders on transformers masked language models, batched on GPU or CPU.

w_j(text) = pool over the text's tokens of log(1 + relu(logit_j)), the attention mask
selecting the tokens (max pooling as SPLADE v2, ++ and v3; sum pooling as an option), or
of log(1 + log(1 + relu(logit_j))) for models trained with it (OpenSearch's v3 document
models); what a model declares is read by sparsebench.encode.splade_pooling.

Every text is encoded in a fixed-shape block (sparsebench.encode.token_blocks), so its
vector depends on the text alone, never on its neighbours.

Speed, with vectors unchanged:
- texts are grouped by length bucket within a shard, so batches carry little padding;
- max pooling commutes with the monotone saturation, so the logits are max-pooled
  first and the transform applied to one (batch x vocabulary) row set, not to every token;
- padding positions take a copy of their text's first token (which is in the mask), so
  the max needs no masking pass;
- the vocabulary projection runs in column chunks sized to a memory budget, so the
  (batch x length x chunk) logits stay bounded and cache-friendly;
- pooling, special-token removal, pruning and sparsification happen on the device; only
  the nonzero (index, weight) pairs are copied to the CPU;
- torch.inference_mode, and autocast on CUDA for fp16 / bf16.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sparsebench.core.errors import ConfigError
from sparsebench.encode.encoders import Encoder, TextListEncoder
from sparsebench.encode.splade_pooling import ACTIVATIONS, resolve_pooling
from sparsebench.encode.token_blocks import TokenBlockEncoder, vocabulary_terms

log = logging.getLogger(__name__)
_LOGIT_BUDGET_BYTES = 32 << 20  # per (batch x length x vocabulary chunk) block


@dataclass(frozen=True)
class SpladeSettings:
    """How one side (documents or queries) of a SPLADE model encodes."""

    model: str
    max_length: int = 256
    batch_size: int = 8  # rows of every block: part of the encoding (see above)
    pooling: str = "auto"  # max, sum, or auto: what the model declares (splade_pooling)
    activation: str = "auto"  # relu, log1p_relu, or auto (splade_pooling)
    side: str = "documents"  # the route of a model with separate query and document ones
    dtype: str = "fp32"
    device: str = "auto"
    top_k: int | None = None  # keep the k largest weights of each text (pruning.prune_rows)
    threshold: float = 0.0  # drop weights at or below this


def load_masked_lm(model: str):
    """Tokenizer and masked-LM model from a local folder or a hub id, with clear errors."""
    from transformers import AutoConfig, AutoModelForMaskedLM, AutoTokenizer

    looks_local = model.startswith((".", "/", "~")) or Path(model).expanduser().exists()
    if looks_local and not Path(model).expanduser().is_dir():
        raise ConfigError(f"model folder {model} does not exist")
    source = str(Path(model).expanduser()) if looks_local else model
    try:
        config = AutoConfig.from_pretrained(source)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load a model from {model!r}: {exc}") from None
    architectures = list(getattr(config, "architectures", None) or [])
    if architectures and not any(a.endswith("ForMaskedLM") for a in architectures):
        raise ConfigError(
            f"{model!r} is not a masked language model checkpoint (architectures: "
            f"{', '.join(architectures)}); SPLADE needs its MLM head, e.g. BertForMaskedLM"
        )
    try:
        network, info = AutoModelForMaskedLM.from_pretrained(source, output_loading_info=True)
    except ValueError as exc:
        raise ConfigError(
            f"{model!r} is not a masked language model ({type(config).__name__}); SPLADE needs "
            f"one (e.g. BertForMaskedLM): {exc}"
        ) from None
    except OSError as exc:
        raise ConfigError(f"cannot load the weights of {model!r}: {exc}") from None
    if info.get("missing_keys"):
        missing = sorted(info["missing_keys"])
        raise ConfigError(
            f"{model!r} is not a complete masked language model: {len(missing)} weights are "
            f"missing (e.g. {missing[0]}) and would be random"
        )
    tokenizer = AutoTokenizer.from_pretrained(source)
    network.eval()
    return tokenizer, network


@functools.lru_cache(maxsize=2)
def _loaded_on(model: str, device: str):
    """load_masked_lm on a device, once per process: encoding a corpus shard by shard in
    one process (sparsebench.pair, the API) loads the model once, not once a shard. The
    network is only read (eval, inference_mode), so encoders may share it."""
    tokenizer, network = load_masked_lm(model)
    return tokenizer, network.to(device)


def _split_head(network) -> tuple[Callable, Callable, Any] | None:
    """(encoder, transform, decoder) of known masked-LM layouts, so the vocabulary
    projection can run in chunks; None for other layouts (the full forward is used)."""
    import torch.nn.functional as F

    base = network.base_model

    def encode(input_ids, attention_mask):
        return base(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    head = getattr(network, "cls", None)
    if head is not None and hasattr(head, "predictions"):  # BERT and relatives
        return encode, head.predictions.transform, head.predictions.decoder
    head = getattr(network, "lm_head", None)
    if head is not None and all(hasattr(head, a) for a in ("dense", "layer_norm", "decoder")):
        return encode, lambda h: head.layer_norm(F.gelu(head.dense(h))), head.decoder  # RoBERTa
    if all(hasattr(network, a) for a in ("vocab_transform", "vocab_layer_norm", "vocab_projector")):
        activation = network.activation  # DistilBERT
        return (
            encode,
            lambda h: network.vocab_layer_norm(activation(network.vocab_transform(h))),
            network.vocab_projector,
        )
    return None


class SpladeEncoder(TokenBlockEncoder):
    """Encodes texts into vocabulary-sized sparse vectors with a masked LM."""

    def __init__(self, settings: SpladeSettings) -> None:
        self.settings = settings
        self.setup(settings)
        self.tokenizer, self.network = _loaded_on(settings.model, str(self.device))
        self.pooling = resolve_pooling(
            settings.model, settings.side, settings.pooling, settings.activation
        )
        log.info(
            "%s (%s): %s pooling of %s (%s)",
            settings.model,
            settings.side,
            self.pooling.pooling,
            ACTIVATIONS[self.pooling.activation],
            f"{self.pooling.declared_in} declares"
            if self.pooling.declared_in
            else "the model declares no pooling",
        )
        self.head = _split_head(self.network)
        size = self.network.get_output_embeddings().out_features
        self.terms = vocabulary_terms(self.tokenizer, size)
        self.removed_ids = self.device_tensor(i for i in self.tokenizer.all_special_ids if i < size)

    def saturate(self, logits):
        """log(1 + relu(x)), or log(1 + log(1 + relu(x))) for log1p_relu."""
        import torch

        weights = torch.log1p(torch.relu(logits))
        return torch.log1p(weights) if self.pooling.activation == "log1p_relu" else weights

    def block_weights(self, input_ids, mask):
        import torch

        maximum = self.pooling.pooling == "max"
        if self.head is None:  # unknown head layout: full forward, then pool
            logits = self.network(input_ids=input_ids, attention_mask=mask).logits
            activation = self.saturate(logits) * mask.unsqueeze(-1)
            return activation.amax(dim=1) if maximum else activation.sum(1)
        encode, transform, decoder = self.head
        hidden = encode(input_ids, mask)
        if maximum:
            # padding takes the first token's state: it cannot change a maximum
            first = hidden[:, :1, :].expand_as(hidden)
            hidden = torch.where(mask.unsqueeze(-1).bool(), hidden, first)
        states = transform(hidden)
        batch, length, _ = states.shape
        vocabulary = decoder.out_features
        chunk = max(1024, min(vocabulary, _LOGIT_BUDGET_BYTES // max(batch * length * 4, 1)))
        pooled = []
        for start in range(0, vocabulary, chunk):
            weight = decoder.weight[start : start + chunk]
            bias = decoder.bias[start : start + chunk] if decoder.bias is not None else None
            logits = torch.nn.functional.linear(states, weight, bias)
            if maximum:
                pooled.append(logits.amax(dim=1))
            else:
                pooled.append((self.saturate(logits) * mask.unsqueeze(-1)).sum(dim=1))
        pooled = torch.cat(pooled, dim=1)
        return self.saturate(pooled) if maximum else pooled


def set_torch_threads(runtime: Mapping[str, Any]) -> None:
    """torch's threads, where the speed settings give them (an encoding job's cores)."""
    if runtime.get("threads"):
        import torch

        torch.set_num_threads(int(runtime["threads"]))


def build(encoding: Mapping[str, Any], runtime: Mapping[str, Any]) -> Encoder:
    """The encoder of `kind: splade` encoding settings (sparsebench.kinds.splade) on the
    device the speed settings ask for."""
    set_torch_threads(runtime)
    settings = SpladeSettings(
        model=encoding["model"],
        max_length=encoding["max_length"],
        pooling=encoding["pooling"],
        activation=encoding["activation"],
        side=encoding["side"],
        dtype=encoding["dtype"],
        top_k=encoding.get("top_k"),
        threshold=encoding.get("threshold", 0.0),
        batch_size=encoding["batch_size"],
        device=runtime.get("device", "auto"),
    )
    return TextListEncoder(SpladeEncoder(settings))


def load_idf_json(model: str, terms: pa.Array) -> np.ndarray:
    """The IDF shipped with an inference-free model (idf.json: token -> weight), aligned
    with the vocabulary; tokens it does not list weigh 0."""
    import json

    path = Path(model).expanduser() / "idf.json"
    if not path.is_file():
        try:
            from huggingface_hub import hf_hub_download

            path = Path(hf_hub_download(model, "idf.json"))
        except Exception as exc:  # noqa: BLE001 (any hub failure means: not available)
            raise ConfigError(f"the model {model!r} ships no idf.json ({exc})") from None
    weights = json.loads(path.read_text(encoding="utf-8"))
    vocabulary = terms.to_pylist()
    return np.array([float(weights.get(t, 0.0)) for t in vocabulary], dtype=np.float64)
