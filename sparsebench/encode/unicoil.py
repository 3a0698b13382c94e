"""uniCOIL encoders (Lin and Ma, "A Few Brief Notes on DeepImpact, COIL, and a Conceptual
Framework for Information Retrieval Techniques", arXiv 2106.14807): a BERT encoder and a
one-output projection (`tok_proj`) give each input token a weight, relu(tok_proj(h_i));
a text's vector holds its own tokens only (no expansion), each token id weighing the
maximum over its positions (documents) or their sum (queries).

As Pyserini's UniCoilDocumentEncoder and UniCoilQueryEncoder write the vectors: [CLS] is
dropped, [SEP] kept (an empty text is a vector of its [SEP]), nothing after the first
[PAD] counts, the encoder attends to the non-[PAD] tokens. Checkpoints are read in the
layout of castorini's uniCOIL repositories (config.json of a BERT, the weights under
`coil_encoder.bert.*` and `coil_encoder.tok_proj.*`, in model.safetensors or
pytorch_model.bin; without the prefix too). Every text is encoded in a fixed-shape block
(sparsebench.encode.token_blocks), so its vector depends on the text alone.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sparsebench.core.errors import ConfigError
from sparsebench.encode.encoders import Encoder, TextListEncoder
from sparsebench.encode.splade import set_torch_threads
from sparsebench.encode.token_blocks import TokenBlockEncoder, vocabulary_terms

AGGREGATES = ("max", "sum")  # Pyserini: max over a document's positions, sum in a query
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
PREFIX = "coil_encoder."  # castorini's checkpoints: UniCoilEncoder.base_model_prefix


@dataclass(frozen=True)
class UniCoilSettings:
    """How one side (documents or queries) of a uniCOIL model encodes."""

    model: str
    max_length: int = 512
    batch_size: int = 8  # rows of every block: part of the encoding
    aggregate: str = "max"
    dtype: str = "fp32"
    device: str = "auto"
    top_k: int | None = None
    threshold: float = 0.0


def _source(model: str) -> str:
    """A local folder's path, or the hub id; a local path that is no folder is refused."""
    path = Path(model).expanduser()
    looks_local = model.startswith((".", "/", "~")) or path.exists()
    if looks_local and not path.is_dir():
        raise ConfigError(f"model folder {model} does not exist")
    return str(path) if looks_local else model


def _state_dict(source: str, model: str) -> dict[str, Any]:
    """The checkpoint's tensors, from the first weight file the folder or repo has."""
    import torch
    from transformers.utils import cached_file

    for name in WEIGHT_FILES:
        try:
            path = cached_file(
                source,
                name,
                _raise_exceptions_for_missing_entries=False,
                _raise_exceptions_for_connection_errors=False,
            )
        except OSError as exc:
            raise ConfigError(f"cannot read the weights of {model!r}: {exc}") from None
        if path is None:
            continue
        if name.endswith(".safetensors"):
            from safetensors.torch import load_file

            return load_file(path)
        return torch.load(path, map_location="cpu", weights_only=True)
    raise ConfigError(f"{model!r} has no weights ({' or '.join(WEIGHT_FILES)})")


def load_unicoil(model: str) -> tuple[Any, Any, Any]:
    """(tokenizer, BERT encoder, tok_proj) of a uniCOIL checkpoint, with clear errors."""
    import torch
    from transformers import AutoConfig, AutoModel, AutoTokenizer

    source = _source(model)
    try:
        config = AutoConfig.from_pretrained(source)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load a model from {model!r}: {exc}") from None
    state = _state_dict(source, model)
    state = {k.removeprefix(PREFIX): v for k, v in state.items()}
    head = "tok_proj."
    projection = {k.removeprefix(head): v for k, v in state.items() if k.startswith(head)}
    if set(projection) != {"weight", "bias"} or tuple(projection["weight"].shape) != (
        1,
        config.hidden_size,
    ):
        raise ConfigError(
            f"{model!r} is not a uniCOIL checkpoint: it needs tok_proj.weight (1 x "
            f"{config.hidden_size}) and tok_proj.bias beside the BERT weights (found "
            f"{', '.join(sorted(projection)) or 'no tok_proj'})"
        )
    encoder = AutoModel.from_config(config)
    prefix = f"{encoder.base_model_prefix}."
    weights = {k.removeprefix(prefix): v for k, v in state.items() if k.startswith(prefix)}
    missing, _ = encoder.load_state_dict(weights, strict=False)
    missing = sorted(k for k in missing if not k.startswith("pooler."))  # never used
    if missing:
        raise ConfigError(
            f"{model!r} is not a complete uniCOIL checkpoint: {len(missing)} encoder weights "
            f"are missing (e.g. {prefix}{missing[0]}) and would be random"
        )
    linear = torch.nn.Linear(config.hidden_size, 1)
    linear.load_state_dict(projection)
    tokenizer = AutoTokenizer.from_pretrained(source)
    return tokenizer, encoder.eval(), linear.eval()


@functools.lru_cache(maxsize=2)
def _loaded_on(model: str, device: str):
    """load_unicoil on a device, once per process (documents and queries share it)."""
    tokenizer, encoder, projection = load_unicoil(model)
    return tokenizer, encoder.to(device), projection.to(device)


class UniCoilEncoder(TokenBlockEncoder):
    """Encodes texts into vectors of their own tokens, weighted by uniCOIL."""

    encodes_empty_texts = True  # "" is [CLS] [SEP]: a vector of [SEP], as in Pyserini

    def __init__(self, settings: UniCoilSettings) -> None:
        if settings.aggregate not in AGGREGATES:
            raise ConfigError(
                f"aggregate must be one of {', '.join(AGGREGATES)}, not {settings.aggregate!r}"
            )
        self.settings = settings
        self.setup(settings)
        self.tokenizer, self.network, self.projection = _loaded_on(settings.model, str(self.device))
        self.terms = vocabulary_terms(self.tokenizer, self.network.config.vocab_size)
        self.removed_ids = self.device_tensor([])  # [CLS] and [PAD] are masked per position
        self.cls_id = self.tokenizer.cls_token_id
        self.pad_id = self.tokenizer.pad_token_id

    def block_weights(self, input_ids, mask):
        import torch

        pad = input_ids == self.pad_id
        attended = (mask.bool() & ~pad).long()
        hidden = self.network(input_ids=input_ids, attention_mask=attended).last_hidden_state
        token_weights = torch.relu(self.projection(hidden)).squeeze(-1).float()
        counted = (torch.cumsum(pad.long(), dim=1) == 0) & (input_ids != self.cls_id)
        token_weights = torch.where(counted, token_weights, torch.zeros_like(token_weights))
        weights = torch.zeros(
            input_ids.shape[0], self.vocab_size, dtype=torch.float32, device=input_ids.device
        )
        reduce = "amax" if self.settings.aggregate == "max" else "sum"
        return weights.scatter_reduce_(1, input_ids, token_weights, reduce=reduce)


def build(encoding: Mapping[str, Any], runtime: Mapping[str, Any]) -> Encoder:
    """The encoder of `kind: unicoil` encoding settings (sparsebench.kinds.unicoil)."""
    set_torch_threads(runtime)
    settings = UniCoilSettings(
        model=encoding["model"],
        max_length=encoding["max_length"],
        aggregate=encoding["aggregate"],
        dtype=encoding["dtype"],
        batch_size=encoding["batch_size"],
        device=runtime.get("device", "auto"),
    )
    return TextListEncoder(UniCoilEncoder(settings))
