"""The registry of encoders: one module per encoding kind with its build(), every
encoding a model kind asks for among them, an unknown one named with the known ones, and
torch imported only by the encoders that need it."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from sparsebench.core.errors import ConfigError
from sparsebench.encode.encoders import ENCODERS, make_encoder
from sparsebench.encode.term_counts import TermCountEncoder
from sparsebench.kinds.registry import KINDS
from sparsebench.workflow.codehash import stage_modules


def test_every_entry_names_a_module_with_its_build():
    for kind, module in ENCODERS.items():
        assert callable(importlib.import_module(module).build), kind


def test_every_encoding_a_model_kind_asks_for_has_an_encoder():
    entries = {
        "bm25": {"analyzer": {}, "k1": 0.9, "b": 0.4, "idf": "lucene"},
        "splade": {"model": "m", "query_encoder": "tokenizer", "max_length": 8},
        "python": {"encoder": "a.b:C", "options": {}},
        "vectors": {"documents": "d.jsonl", "queries": "q.tsv"},
    }
    entries["splade"].update(query_max_length=8, batch_size=1, query_batch_size=1)
    entries["splade"].update(pooling="max", activation="auto", dtype="fp32", device="cpu")
    entries["splade"].update(threshold=0)
    for name, entry in entries.items():
        for side in ("documents", "queries"):
            encoding = KINDS[name].encoding({"kind": name, **entry}, side, "en")
            assert encoding["kind"] in ENCODERS, (name, side)


def test_an_unknown_encoding_names_the_known_ones():
    with pytest.raises(ConfigError, match=r"no encoder for encoding kind 'dense'; known .*bm25"):
        make_encoder({"kind": "dense"})


def test_a_bm25_encoder_is_built_without_torch():
    probe = (
        "import sys; from sparsebench.encode.encoders import make_encoder; "
        "e = make_encoder({'kind': 'bm25', 'analyzer': {}}); "
        "print(type(e).__name__, sorted(m for m in ('torch', 'transformers') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["TermCountEncoder", "[]"]
    assert isinstance(make_encoder({"kind": "bm25", "analyzer": {}}), TermCountEncoder)


def test_the_encoding_stages_digest_every_encoder():
    """The registry names its modules as strings: the digest follows them."""
    for stage in ("encode_corpus_shard", "encode_queries"):
        assert set(ENCODERS.values()) <= set(stage_modules(stage, "sparsebench.encode.stages"))


def test_an_encoders_first_call_is_loading_not_encoding(tmp_path, monkeypatch):
    """The first call of a process loads (or builds) compiled code: a fresh install's
    first shard reported BM25 encoding at 1 document/s. The cost record's seconds are
    those of the encoding proper; the first call counts as loading."""
    import json
    import time

    import pyarrow as pa
    import pyarrow.parquet as pq

    from sparsebench.analysis.analyzer import Analyzer
    from sparsebench.encode import stages

    class FirstCallSlow:
        calls = 0

        def encode(self, texts: pa.Array):
            FirstCallSlow.calls += 1
            if FirstCallSlow.calls == 1:
                time.sleep(0.5)
            return TermCountEncoder(Analyzer()).encode(texts)

    monkeypatch.setattr(stages, "make_encoder", lambda encoding, runtime: FirstCallSlow())
    table = pa.table({"doc_id": ["a", "b"], "title": ["", ""], "body": ["solar power", "wind"]})
    pq.write_table(table, tmp_path / "corpus.parquet")
    out = tmp_path / "0"
    stages.encode_corpus_shard(
        tmp_path / "corpus.parquet", 0, 10, {}, f"{out}.npz", f"{out}.terms.txt",
        out_cost=f"{out}.cost.json",
    )  # fmt: skip
    cost = json.loads((tmp_path / "0.cost.json").read_text())
    assert FirstCallSlow.calls == 2 and cost["documents"] == 2
    assert cost["load_seconds"] >= 0.5 > cost["seconds"]
