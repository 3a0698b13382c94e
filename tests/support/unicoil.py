"""A tiny random uniCOIL checkpoint in the layout of castorini's uniCOIL repositories
(a BERT's config.json, the weights under coil_encoder.bert.* and coil_encoder.tok_proj.*,
a WordPiece vocab.txt), and uniCOIL vectors as Pyserini's encoders write them."""

from __future__ import annotations

import torch
import transformers
from support.masked_lm import tiny_tokenizer


def build_unicoil(folder, *, prefix="coil_encoder.", weights="pytorch_model.bin", seed=1):
    """A random BERT and tok_proj saved as castorini's checkpoints are; `prefix` and
    `weights` give the other layouts the loader reads."""
    tokenizer = tiny_tokenizer()
    torch.manual_seed(seed)
    config = transformers.BertConfig(
        vocab_size=len(tokenizer.get_vocab()),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
    )
    bert = transformers.BertModel(config)
    projection = torch.nn.Linear(config.hidden_size, 1)
    torch.nn.init.normal_(projection.weight, std=0.5)
    torch.nn.init.constant_(projection.bias, 2.0)  # most tokens weigh above 0
    state = {f"{prefix}bert.{k}": v for k, v in bert.state_dict().items()}
    state |= {f"{prefix}tok_proj.{k}": v for k, v in projection.state_dict().items()}
    folder.mkdir(parents=True)
    if weights.endswith(".safetensors"):
        from safetensors.torch import save_file

        save_file({k: v.contiguous() for k, v in state.items()}, folder / weights)
    else:
        torch.save(state, folder / weights)
    config.architectures = ["UniCoilEncoder"]
    config.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def pyserini_vectors(folder, texts, *, query=False, max_length=512):
    """Pyserini's UniCoil{Document,Query}Encoder, one text at a time: token -> weight,
    [CLS] skipped, stop at the first [PAD], the maximum of a document's repeated tokens
    and the sum of a query's. Written from its algorithm, not from sparsebench."""
    state = torch.load(folder / "pytorch_model.bin", weights_only=True)
    config = transformers.BertConfig.from_pretrained(folder)
    bert = transformers.BertModel(config).eval()
    bert.load_state_dict(
        {k.removeprefix("coil_encoder.bert."): v for k, v in state.items() if ".bert." in k},
        strict=True,
    )
    proj = torch.nn.Linear(config.hidden_size, 1).eval()
    proj.load_state_dict({k.rsplit(".", 1)[1]: v for k, v in state.items() if "tok_proj" in k})
    tokenizer = transformers.BertTokenizer.from_pretrained(folder)
    vectors = []
    with torch.no_grad():
        for text in texts:
            ids = tokenizer([text], max_length=max_length, padding="longest", truncation=True,
                            return_tensors="pt")["input_ids"]  # fmt: skip
            mask = ids != config.pad_token_id
            hidden = bert(input_ids=ids, attention_mask=mask).last_hidden_state
            weights = torch.relu(proj(hidden))[0].flatten().tolist()
            vector: dict[str, float] = {}
            for token, weight in zip(tokenizer.convert_ids_to_tokens(ids[0]), weights, strict=True):
                if token == "[CLS]":
                    continue
                if token == "[PAD]":
                    break
                if token not in vector:
                    vector[token] = weight
                elif query:
                    vector[token] += weight
                elif weight > vector[token]:
                    vector[token] = weight
            vectors.append(vector)
    return vectors
