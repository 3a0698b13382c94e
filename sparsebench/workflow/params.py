"""The settings each Snakemake rule depends on, derived from a validated config.

Each rule's `params` hold only the settings that change that rule's output, so changing
one model's k1 reruns that model's weighting and retrieval, never its tokenised shards
and never another model. A model's fingerprint (what its outputs are keyed and recorded
by) is built here too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sparsebench.errors import ConfigError
from sparsebench.workflow.config import (
    LEXICAL_KINDS,
    is_variant,
    significance_metrics,
    tuning_metrics,
)


def stable_hash(obj: Any) -> str:
    """sha256 of the canonical JSON form of `obj`: the same settings give the same hash."""
    payload = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _splade_side(model: Mapping[str, Any], side: str) -> dict[str, Any]:
    document = side == "documents"
    name = (
        model.get("doc_model" if document else "query_model")
        or model.get("model")
        or model.get("doc_model")
    )
    return {
        "kind": "splade",
        "model": name,
        "max_length": int(model["max_length" if document else "query_max_length"]),
        "pooling": model["pooling"],
        "dtype": model["dtype"],
    }


def pruning_params(model: Mapping[str, Any]) -> dict[str, Any]:
    """The static pruning of a SPLADE model's documents. It applies to the stored, unpruned
    encoding (in term_weights), so models and sweep points that differ only in it share
    one encoding of the corpus."""
    if model["kind"] != "splade":
        return {}
    return {"top_k": model.get("top_k"), "threshold": float(model["threshold"])}


def encoding_params(
    model: Mapping[str, Any], side: str = "documents", language: str = "en"
) -> dict[str, Any]:
    """What changes a model's encoded documents (side='documents') or queries, for a
    dataset in `language` (the BM25 analyzer follows it unless the model fixes it)."""
    if model["kind"] in LEXICAL_KINDS:
        from sparsebench.encode.analysis import resolve_analyzer

        return {"kind": "bm25", "analyzer": resolve_analyzer(dict(model["analyzer"]), language)}
    if model["kind"] == "python":
        from sparsebench.encode.custom import source_digest

        return {
            "kind": "python",
            "encoder": model["encoder"],
            "options": dict(model["options"]),
            "side": side,
            "code_sha256": source_digest(model["encoder"]),
        }
    if model["kind"] == "splade":
        if side == "queries" and model["query_encoder"] == "tokenizer":
            return {"kind": "tokenizer", "model": _splade_side(model, "queries")["model"]}
        return _splade_side(model, side)
    raise ConfigError(f"unknown model kind {model['kind']!r}")


def encoder_id(model: Mapping[str, Any], language: str = "en", side: str = "documents") -> str:
    """Name of a model's document (or query) encoding: models that encode documents the
    same way (e.g. BM25 variants that differ in k1, b or IDF; SPLADE with and without IDF
    or pruning) share one set of shards, built once; models that also encode queries the same way
    into that vocabulary share the encoded queries."""
    params = encoding_params(model, "documents", language)
    if side == "queries":
        params = {
            "documents": encoder_id(model, language),
            "queries": encoding_params(model, "queries", language),
        }
    kind = encoding_params(model, side, language)["kind"]
    return f"{kind}-{stable_hash(params)[:12]}"


def dataset_language(config: Mapping[str, Any], dataset: str) -> str:
    return config["datasets"][dataset].get("language", "en")


def run_path(model: Mapping[str, Any], dataset: str) -> str:
    """The file of an external run model for one dataset."""
    return model["path"].replace("{dataset}", dataset)


def covered_pairs(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(model, dataset) pairs to evaluate: every pair, except datasets an external run
    model has no file for."""

    return [
        (m, d)
        for m, model in config["models"].items()
        for d in config["datasets"]
        if not is_variant(model)
        and (model["kind"] != "run" or Path(run_path(model, d)).expanduser().is_file())
    ]


def encoders(
    config: Mapping[str, Any], side: str = "documents"
) -> dict[str, tuple[Mapping[str, Any], str]]:
    """encoder id -> (a model using it, the language it encodes), for every pair."""
    found: dict[str, tuple[Mapping[str, Any], str]] = {}
    for model in config["models"].values():
        if model["kind"] in ("run", "tuned"):
            continue
        for dataset in config["datasets"]:
            language = dataset_language(config, dataset)
            found.setdefault(encoder_id(model, language, side), (model, language))
    return found


def encoder_model(
    config: Mapping[str, Any], encoder: str, side: str = "documents"
) -> Mapping[str, Any]:
    """The first configured model that uses the document (or query) encoding `encoder`."""
    try:
        return encoders(config, side)[encoder][0]
    except KeyError:
        raise ConfigError(f"no model encodes {side} as {encoder!r}") from None


def runtime_params(model: Mapping[str, Any], side: str = "documents") -> dict[str, Any]:
    """Settings that change speed only (batch size, device): never a rerun trigger."""
    if model["kind"] == "splade":
        batch = model["batch_size" if side == "documents" else "query_batch_size"]
        return {"batch_size": int(batch), "device": model["device"]}
    if model["kind"] == "python":
        return {"batch_size": int(model["batch_size"])}
    return {}


def local_model_files(model: Mapping[str, Any], side: str = "documents") -> list[str]:
    """The files of a model given as a local folder (inputs of its encoding jobs, so that
    replacing the weights reruns them); empty for hub ids and BM25."""

    encoding = encoding_params(model, side)
    folder = Path(str(encoding.get("model", ""))).expanduser() if "model" in encoding else None
    if folder is None or not folder.is_dir():
        return []
    return sorted(str(p) for p in folder.iterdir() if p.is_file())


def weighting_params(model: Mapping[str, Any]) -> dict[str, Any]:
    """What changes the document weights and the IDF of a model."""
    if model["kind"] == "bm25":
        return {
            "kind": "bm25",
            "k1": float(model["k1"]),
            "b": float(model["b"]),
            "idf": model["idf"],
            "k1_plus_one": bool(model["k1_plus_one"]),
            "statistics": model["statistics"],
        }
    if model["kind"] == "binary":  # tf / (tf + 0) = 1 for every matching term
        return {
            "kind": "bm25",
            "k1": 0.0,
            "b": 0.0,
            "idf": model["idf"],
            "k1_plus_one": False,
            "statistics": model["statistics"],
        }
    if model["kind"] == "tfidf":
        return {"kind": "tf", "idf": model["idf"], "statistics": model["statistics"]}
    if model["kind"] == "python":
        return {"kind": "python", "idf": model["idf"]}
    if model["kind"] == "splade":
        params = {"kind": "splade", "idf": model["idf"], "pruning": pruning_params(model)}
        if model["idf"] == "model":
            params["idf_source"] = encoding_params(model, "queries")["model"]
        return params
    raise ConfigError(f"unknown model kind {model['kind']!r}")


def model_fingerprint(model: Mapping[str, Any], language: str = "en") -> dict[str, Any]:
    """Every setting of a model that changes its results (not batch sizes or devices)."""
    if model["kind"] == "run":
        return {"run": model["path"]}
    if model["kind"] == "tuned":
        return {"base": model["base"], "sweep": model["sweep"]}
    return {
        "documents": encoding_params(model, "documents", language),
        "queries": encoding_params(model, "queries", language),
        "weighting": weighting_params(model),
    }


def retrieval_params(config: Mapping[str, Any], dataset: str) -> dict[str, Any]:
    """What changes a run file (batch size and memory budget only change speed)."""
    return {
        "k": int(config["retrieval"]["k"]),
        "ignore_identical_ids": bool(config["datasets"][dataset]["ignore_identical_ids"]),
    }


def evaluation_params(config: Mapping[str, Any], dataset: str | None = None) -> dict[str, Any]:
    """What changes the metric files (of `dataset`, whose relevance level may be its own)."""
    from sparsebench.evaluate.measures import default_metric_names

    evaluation = config["evaluation"]
    cutoffs = sorted(int(k) for k in evaluation["cutoffs"])
    return {
        "cutoffs": cutoffs,
        "metrics": list(
            dict.fromkeys(
                default_metric_names(cutoffs)
                + significance_metrics(config)
                + tuning_metrics(config)
            )
        ),
        "query_set": evaluation["query_set"],
        "relevance_level": int(
            config["datasets"]
            .get(dataset, {})
            .get("relevance_level", evaluation["relevance_level"])
        ),
    }
