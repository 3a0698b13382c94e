"""SPLADE and its variants: a masked language model's vocabulary logits, saturated and
pooled into a sparse vector (Formal et al., "SPLADE: Sparse Lexical and Expansion Model
for First Stage Ranking", SIGIR 2021; "SPLADE v2", arXiv 2109.10086). Separate query
models (SPLADE-doc, efficient SPLADE) and inference-free queries (the query's tokens,
weighted by an IDF) are settings of the same kind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from sparsebench.core.errors import ConfigError
from sparsebench.core.provenance import model_folder_files
from sparsebench.encode.quantization import ARITHMETICS, DEFAULT_RULE, ROUNDINGS, side_rules
from sparsebench.encode.schemes import SCHEMES
from sparsebench.encode.splade_pooling import ACTIVATIONS, POOLINGS
from sparsebench.kinds.base import Entry, ModelKind

DEVICE = {
    "type": "string",
    "default": "auto",
    "pattern": "^(auto|cpu|cuda(:[0-9]+)?)$",
    "description": "Where the encoder runs: auto = the first CUDA device when there is one, "
    "else the CPU; cpu; cuda or cuda:N. Speed only: nothing is encoded again. Its encoding "
    "jobs ask the cluster for a GPU unless it is cpu.",
}
# A quantization rule (sparsebench.encode.quantization): the documents' with its defaults;
# the queries' own, without (what it leaves out takes the default, not the documents').
RULE = {
    "scale": {
        "type": ["number", "string"],
        "description": "The factor: a positive number, or 'a/b' (divided by b, then times "
        "a: 256/5 as Pyserini).",
    },
    "rounding": {
        "enum": list(ROUNDINGS),
        "description": "half_even (np.rint, Python's round), half_up (Java's Math.round) or "
        "down (truncation, as JsonVectorCollection's asInt).",
    },
    "arithmetic": {
        "enum": list(ARITHMETICS),
        "description": "float32 (numpy on float32 weights, Java floats) or float64 (Python "
        "floats).",
    },
}


class Splade(ModelKind):
    name = "splade"
    description = "A SPLADE-family masked LM (hub id or local folder)."
    path_or_hub_keys = ("model", "doc_model", "query_model")
    schema: ClassVar[dict[str, Any]] = {
        "properties": {
            "model": {
                "type": "string",
                "minLength": 1,
                "description": "Hub id or folder of a masked LM (both sides).",
            },
            "doc_model": {
                "type": "string",
                "minLength": 1,
                "description": "Document-side model, if separate.",
            },
            "query_model": {
                "type": "string",
                "minLength": 1,
                "description": "Query-side model, if separate.",
            },
            "query_encoder": {
                "enum": ["model", "tokenizer"],
                "default": "model",
                "description": "tokenizer = inference-free queries (the tokens alone, "
                "weighted by the IDF).",
            },
            "max_length": {
                "type": "integer",
                "minimum": 8,
                "default": 256,
                "description": "Document tokens kept.",
            },
            "query_max_length": {
                "type": "integer",
                "minimum": 4,
                "default": 64,
                "description": "Query tokens kept (max_length of the queries).",
            },
            "batch_size": {
                "type": "integer",
                "minimum": 1,
                "default": 8,
                "description": "Rows of the fixed-shape block every document is encoded "
                "in (part of the encoding: changing it re-encodes). Small blocks waste "
                "little on partial blocks; raise it on a GPU.",
            },
            "query_batch_size": {
                "type": "integer",
                "minimum": 1,
                "default": 32,
                "description": "batch_size of the queries.",
            },
            "pooling": {
                "enum": ["auto", *POOLINGS],
                "default": "auto",
                "description": "How a text's token activations become its vector: max over "
                "the tokens (SPLADE v2, ++ and v3) or their sum (the first SPLADE); auto = "
                "what the model declares (its sentence-transformers SpladePooling config), "
                "else max.",
            },
            "activation": {
                "enum": ["auto", *ACTIVATIONS],
                "default": "auto",
                "description": "The saturation of a token's logit x, named as "
                "sentence-transformers' SpladePooling names it: relu = log(1 + relu(x)) "
                "(SPLADE), log1p_relu = log(1 + log(1 + relu(x))) (OpenSearch's v3 document "
                "models); auto = what the model declares, else relu.",
            },
            "dtype": {
                "enum": ["fp32", "fp16", "bf16"],
                "default": "fp32",
                "description": "fp16/bf16 autocast on CUDA.",
            },
            "device": DEVICE,
            "top_k": {
                "type": "integer",
                "minimum": 1,
                "description": "Keep the k largest weights per document.",
            },
            "threshold": {
                "type": "number",
                "minimum": 0,
                "default": 0,
                "description": "Drop document weights at or below it.",
            },
            "quantization": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    **{k: {**spec, "default": DEFAULT_RULE[k]} for k, spec in RULE.items()},
                    "queries": {
                        "oneOf": [
                            {"enum": ["same", "none"]},
                            {"type": "object", "additionalProperties": False, "properties": RULE},
                        ],
                        "default": "same",
                        "description": "same = the documents' rule; none = the query weights "
                        "stay floats; or a rule of their own, {scale, rounding, arithmetic}, "
                        "each key it leaves out at its default.",
                    },
                },
                "description": "Integer impacts, scored by the integer dot product as "
                "Anserini's impact search: weight * scale rounded, zeros dropped (defaults: "
                "the published pre-encoded corpora's np.rint(w * 100) on float32). scale may "
                "be 'a/b' (Pyserini: 256/5, arithmetic float64); queries: same, none, or a "
                "rule of their own (Anserini's ONNX query encoders: {scale: 256/5, rounding: "
                "half_up}).",
            },
            "packed_postings": {
                "type": "boolean",
                "default": False,
                "description": "Store the index's long posting lists bit-packed (ids "
                "delta-coded, impacts offset from their least, in chunks of 128 as PISA's "
                "block codecs): about PISA's bytes a posting, at some search speed "
                '(benchmarks/RESULTS.md, "Packed postings"). Needs quantization.',
            },
            "idf": {
                "enum": list(SCHEMES["splade"].idfs),
                "default": "none",
                "description": "Multiply query weights by an IDF: none (plain dot product, "
                "as published SPLADE figures), a corpus IDF variant (as Qdrant's "
                "Modifier.IDF), or model (the idf.json shipped with inference-free models).",
            },
        }
    }

    def problems(self, entry: Entry) -> list[str]:
        if not (entry.get("model") or entry.get("doc_model")):
            return [f"a {self.name} model needs `model` (or `doc_model`)"]
        problems = super().problems(entry)
        if entry.get("quantization"):
            try:
                side_rules(entry["quantization"])
            except ConfigError as error:
                problems.append(str(error))
            if entry["idf"] != "none":
                problems.append(
                    f"quantization scores integer impacts by their dot product (as Anserini's "
                    f"impact search): it takes no IDF (idf: {entry['idf']}; set idf: none)"
                )
        elif entry.get("packed_postings"):
            problems.append(
                "packed_postings bit-packs integer impacts: it needs quantization (the "
                "weights are floats without it)"
            )
        return problems

    def _model(self, entry: Entry, side: str) -> str:
        if side == "documents":
            return entry.get("doc_model") or entry.get("model")
        return entry.get("query_model") or entry.get("model") or entry.get("doc_model")

    def encoding(self, entry: Entry, side: str, language: str) -> dict[str, Any]:
        quantized = {}
        if side == "queries":
            rule = side_rules(entry.get("quantization"))["queries"]
            quantized = {"quantization": rule} if rule else {}
        if side == "queries" and entry["query_encoder"] == "tokenizer":
            return {"kind": "tokenizer", "model": self._model(entry, side), **quantized}
        document = side == "documents"
        return {
            **quantized,
            "kind": "splade",
            "model": self._model(entry, side),
            "max_length": int(entry["max_length" if document else "query_max_length"]),
            "batch_size": int(entry["batch_size" if document else "query_batch_size"]),
            "pooling": entry["pooling"],
            "activation": entry["activation"],
            "side": side,
            "dtype": entry["dtype"],
        }

    speed_settings: ClassVar[tuple[str, ...]] = ("device",)

    def runtime(self, entry: Entry, side: str) -> dict[str, Any]:
        return {"device": entry["device"]}

    def pruning(self, entry: Entry) -> dict[str, Any]:
        """Static pruning of each document's weights. The workflow applies it to the
        stored, unpruned encoding (in term_weights), so models and sweep points that
        differ only in it share one encoding of the corpus."""
        return {"top_k": entry.get("top_k"), "threshold": float(entry["threshold"])}

    def weighting(self, entry: Entry) -> dict[str, Any]:
        params = {"kind": "splade", "idf": entry["idf"], "pruning": self.pruning(entry)}
        rule = side_rules(entry.get("quantization"))["documents"]
        if rule:
            params["quantization"] = rule
        if entry.get("packed_postings"):
            params["packed"] = True
        if entry["idf"] == "model":
            params["idf_source"] = self._model(entry, "queries")
        return params

    def model_sources(self, entry: Entry, side: str | None = None) -> list[str]:
        sides = [side] if side else ["documents", "queries"]
        return list(dict.fromkeys(self._model(entry, s) for s in sides))

    def encode_threads(self, side: str) -> int:
        return 4 if side == "documents" else 2

    def hardware(self, entry: Entry) -> str:
        return "cpu" if entry["device"] == "cpu" else "gpu"


def local_files(source: str) -> list[str]:
    """The files of a model given as a local folder or file (inputs of its encoding jobs,
    so that replacing the weights reruns them), its pooling's declaration among them
    (provenance.model_folder_files); none for a hub id."""
    path = Path(str(source)).expanduser()
    if path.is_file():
        return [str(path)]
    if not path.is_dir():
        return []
    return [str(p) for p in model_folder_files(path)]


SPLADE_KIND = Splade()
