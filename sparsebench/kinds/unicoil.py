"""uniCOIL: a BERT encoder's per-token impact weights over the text's own tokens, no
expansion (Lin and Ma, arXiv 2106.14807; castorini's unicoil-msmarco-passage and
unicoil-noexp-msmarco-passage checkpoints). Settings as the SPLADE kind's, less what only
a masked LM has (pooling, activation, tokenizer queries, the model's idf.json); the
weights are the encoder's own (sparsebench.encode.unicoil), quantised by the same rules.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from sparsebench.encode.quantization import side_rules
from sparsebench.encode.schemes import LEARNED_IDFS
from sparsebench.kinds.base import Entry
from sparsebench.kinds.splade import Splade


def _schema() -> dict[str, Any]:
    """The SPLADE kind's schema without its masked-LM settings, with uniCOIL's lengths
    (Pyserini's encoders: 512 document and 128 query tokens)."""
    schema = copy.deepcopy(Splade.schema)
    properties = schema["properties"]
    for key in ("pooling", "activation", "query_encoder"):
        del properties[key]
    properties["model"]["description"] = "Hub id or folder of a uniCOIL checkpoint (both sides)."
    properties["max_length"]["default"] = 512
    properties["query_max_length"]["default"] = 128
    properties["idf"]["enum"] = list(LEARNED_IDFS)
    properties["idf"]["description"] = (
        "Multiply query weights by an IDF: none (plain dot product, as published uniCOIL "
        "figures) or a corpus IDF variant."
    )
    return schema


class UniCoil(Splade):
    name = "unicoil"
    description = "A uniCOIL checkpoint: per-token impacts, no expansion (hub id or folder)."
    schema: ClassVar[dict[str, Any]] = _schema()

    def encoding(self, entry: Entry, side: str, language: str) -> dict[str, Any]:
        document = side == "documents"
        rule = None if document else side_rules(entry.get("quantization"))["queries"]
        return {
            **({"quantization": rule} if rule else {}),
            "kind": "unicoil",
            "model": self._model(entry, side),
            "max_length": int(entry["max_length" if document else "query_max_length"]),
            "batch_size": int(entry["batch_size" if document else "query_batch_size"]),
            "aggregate": "max" if document else "sum",
            "dtype": entry["dtype"],
        }


UNICOIL_KIND = UniCoil()
