"""The pooling and activation a SPLADE model declares, so that it is encoded as its
authors encode it.

A model saved by sentence-transformers (SparseEncoder) names its pooling in a
SpladePooling module: `modules.json` lists the modules, the pooling's folder holds its
`config.json` ({"pooling_strategy": "max", "activation_function": "relu"}). Models with
separate query and document routes (OpenSearch's inference-free models) wrap their
modules in a Router (formerly Asym): its `router_config.json` names each route's modules
("document": ["document_0_MLMTransformer", "document_1_SpladePooling"]), each in a folder
of that name. sentence-transformers always saturates with log(1 + .): its
`activation_function` "relu" gives log(1 + relu(x)), the SPLADE papers' formula, and
"log1p_relu" gives log(1 + log(1 + relu(x))), which OpenSearch's v3 document models are
trained with. A model with no such files (the naver checkpoints as first released)
declares nothing: SPLADE's max pooling and log(1 + relu(x)) apply.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sparsebench.core.errors import ConfigError

log = logging.getLogger(__name__)

POOLINGS = ("max", "sum")
# sentence-transformers' names (see the docstring) -> the saturation of a token's logit x
ACTIVATIONS = {"relu": "log(1 + relu(x))", "log1p_relu": "log(1 + log(1 + relu(x)))"}
DEFAULTS = {"pooling": "max", "activation": "relu"}  # the SPLADE v2 papers'
# a side of the pipeline -> the Router routes that encode it (Asym's were free-form)
ROUTES = {"documents": ("document", "doc", "passage", "corpus"), "queries": ("query",)}

Reader = Callable[[str], Any]  # a file of the model, parsed; None when it has none


@dataclass(frozen=True)
class Pooling:
    """How a side of a model pools and saturates, and where that was read."""

    pooling: str
    activation: str
    declared_in: str | None  # the model's file that declared it, None for the defaults


def resolve_pooling(model: str, side: str, pooling: str, activation: str) -> Pooling:
    """The settings with `auto` replaced by what the model declares for `side`
    (documents or queries), or by SPLADE's defaults where it declares nothing. An explicit
    setting is kept; where it differs from the model's declaration a warning says so."""
    if pooling not in ("auto", *POOLINGS):
        raise ConfigError(f"pooling must be auto, {' or '.join(POOLINGS)}, not {pooling!r}")
    if activation not in ("auto", *ACTIVATIONS):
        raise ConfigError(
            f"activation must be auto, {' or '.join(ACTIVATIONS)}, not {activation!r}"
        )
    declared = declared_pooling(model, side)
    chosen = {"pooling": pooling, "activation": activation}
    for key, value in chosen.items():
        said = declared.get(key) if declared else None
        if value == "auto":
            chosen[key] = said or DEFAULTS[key]
        elif said and said != value:
            log.warning(
                "%s declares %s %s in %s; encoding with %s %s as the settings ask",
                model,
                key,
                said,
                declared["file"],
                key,
                value,
            )
    return Pooling(chosen["pooling"], chosen["activation"], declared["file"] if declared else None)


def declared_pooling(model: str, side: str) -> dict[str, str] | None:
    """{"pooling", "activation", "file"} of the SpladePooling module that encodes `side`
    in a sentence-transformers layout, or None when the model has none."""
    read = _reader(model)
    modules = read("modules.json")
    if not isinstance(modules, list):
        return None
    for module in modules:
        kind, folder = str(module.get("type", "")), str(module.get("path", ""))
        if kind.endswith(".SpladePooling"):
            return _pooling_config(read, folder)
        if kind.endswith((".Router", ".Asym")):
            found = _routed_pooling(read, folder, side)
            if found:
                return found
    return None


def _routed_pooling(read: Reader, folder: str, side: str) -> dict[str, str] | None:
    """The SpladePooling of the route that encodes `side` in a Router's folder."""
    router = read(_join(folder, "router_config.json")) or read(_join(folder, "config.json"))
    if not isinstance(router, dict) or not isinstance(router.get("structure"), dict):
        return None
    types = router.get("types", {})
    for route in ROUTES[side]:
        for module_id in router["structure"].get(route, []):
            if str(types.get(module_id, "")).endswith(".SpladePooling"):
                return _pooling_config(read, _join(folder, module_id))
    return None


def _pooling_config(read: Reader, folder: str) -> dict[str, str]:
    """A SpladePooling module's settings; sentence-transformers' defaults where its
    config leaves one out (max, relu)."""
    file = _join(folder, "config.json")
    config = read(file)
    if not isinstance(config, dict):
        raise ConfigError(f"the model's SpladePooling module has no readable {file}")
    pooling = config.get("pooling_strategy", "max")
    activation = config.get("activation_function", "relu")
    if pooling not in POOLINGS or activation not in ACTIVATIONS:
        raise ConfigError(
            f"{file} declares pooling_strategy {pooling!r} and activation_function "
            f"{activation!r}; sparsebench encodes pooling {' or '.join(POOLINGS)} with "
            f"activation {' or '.join(ACTIVATIONS)}"
        )
    return {"pooling": pooling, "activation": activation, "file": file}


def _join(folder: str, name: str) -> str:
    return f"{folder.strip('/')}/{name}" if folder.strip("/") else name


def _reader(model: str) -> Reader:
    """Reads a model's small JSON files from its folder, or from the hub (cached there as
    transformers caches the weights); a file the model lacks reads as None."""
    folder = Path(model).expanduser()
    if folder.is_dir():
        return lambda name: _parse(folder / name) if (folder / name).is_file() else None

    def from_hub(name: str) -> Any:
        from huggingface_hub import hf_hub_download, try_to_load_from_cache
        from huggingface_hub.errors import EntryNotFoundError, LocalEntryNotFoundError
        from huggingface_hub.file_download import _CACHED_NO_EXIST

        cached = try_to_load_from_cache(model, name)
        if cached is _CACHED_NO_EXIST:
            return None  # the hub said so when the model was downloaded
        try:
            return _parse(Path(cached or hf_hub_download(model, name)))
        except LocalEntryNotFoundError:  # (a subclass of the next: first)
            # offline and never downloaded: the declaration cannot be read; say so rather
            # than encode with a guess in silence
            log.warning(
                "%s: %s is not in the hub cache and the hub is offline; if the model "
                "declares its pooling there, set pooling and activation explicitly",
                model,
                name,
            )
            return None
        except EntryNotFoundError:
            return None  # the repository has no such file

    return from_hub


def _parse(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
