"""Pseudo-relevance feedback (`feedback:`) as Anserini 1.7.1 computes it: its RM3 and
Rocchio runs on ADI and CACM (data/, made as its README says) line for
line, with the defaults and other settings; Anserini's float arithmetic and orders; the
settings' errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from conftest import shared_path
from support.anserini_runs import assert_run_matches_anserini

from sparsebench.core.errors import ConfigError
from sparsebench.feedback.documents import utf16_lengths
from sparsebench.feedback.javafloat import pruned
from sparsebench.feedback.methods import feedback_settings
from sparsebench.pair import run_pair
from sparsebench.runs.runfile import read_run
from sparsebench.workflow.config import validate_config

DATA = Path(__file__).parent / "data"  # Anserini 1.7.1 runs, made as its README says
SETTINGS = {
    "rm3": {"method": "rm3"},
    "rocchio": {"method": "rocchio"},
    "rm3b": {"method": "rm3", "terms": 20, "docs": 5, "original_query_weight": 0.3},
    "rocchiob": {"method": "rocchio", "terms": 20, "docs": 5, "alpha": 0.8, "beta": 0.5},
    "rocchioneg": {"method": "rocchio", "negative_docs": 10},
}


@pytest.mark.parametrize(
    ("collection", "name"),
    [("adi", n) for n in SETTINGS] + [("cacm", "rm3"), ("cacm", "rocchio")],
)
def test_runs_equal_anserinis(tmp_path, collection, name):
    model = {"kind": "bm25", "statistics": "lucene", "feedback": SETTINGS[name]}
    dataset = {"source": "local", "path": str(shared_path("data", collection))}
    run = read_run(run_pair(dataset, model, tmp_path).run)
    assert assert_run_matches_anserini(run, DATA / f"{collection}.{name}.trec.gz") > 2000


def test_feedback_changes_the_run(tmp_path):
    dataset = {"source": "local", "path": str(shared_path("data", "adi"))}
    plain = run_pair(dataset, {"kind": "bm25"}, tmp_path / "plain").run.read_bytes()
    rm3 = {"kind": "bm25", "feedback": {"method": "rm3"}}
    assert run_pair(dataset, rm3, tmp_path / "rm3").run.read_bytes() != plain


def test_java_orders_and_lengths():
    """Ties go to the term first in Java's String order (UTF-16 code units: U+FFFF after
    an astral letter's surrogates), and a term's length counts UTF-16 code units."""
    vector = {"b": np.float32(1), "a": np.float32(1), "\uffff": np.float32(1), "𝒜": np.float32(1)}
    assert list(pruned(vector, 3)) == ["a", "b", "𝒜"]
    assert list(pruned({"x": np.float32(1), "y": np.float32(2)}, 1)) == ["y"]
    assert utf16_lengths(pa.array(["ab", "𝒜", "é"])).tolist() == [2, 2, 1]


def test_settings_and_refusals(tmp_path):
    assert feedback_settings({"method": "rm3"}) == {
        "method": "rm3",
        "cutoff": 50,
        "docs": 10,
        "terms": 10,
        "original_query_weight": 0.5,
        "filter_terms": True,
    }
    with pytest.raises(ConfigError, match="rm3 takes .* not alpha"):
        feedback_settings({"method": "rm3", "alpha": 1.0})
    dataset = {"d": {"source": "local", "path": str(tmp_path)}}
    for models, extra, message in [
        ({"m": {"kind": "bm25", "feedback": {"method": "rm4"}}}, {}, "rm4"),
        ({"m": {"kind": "bm25", "feedback": {"method": "rocchio", "original_query_weight": 0.5}}},
         {}, "rocchio takes"),
        ({"m": {"kind": "bm25", "feedback": {"method": "rm3"}, "fields": {"title": 1.0}}},
         {}, "a multifield model takes none"),
        ({"m": {"kind": "bm25", "feedback": {"method": "rm3"}}}, {"retrieval": {"partitions": 2}},
         "config.models.m.feedback: .*partitions: 1"),
        ({"m": {"kind": "splade", "model": "x/y", "feedback": {"method": "rm3"}}}, {}, "feedback"),
    ]:  # fmt: skip
        with pytest.raises(ConfigError, match=message):
            validate_config({"datasets": dataset, "models": models, **extra})


def test_feedback_settings_are_swept_like_any_parameter(tmp_path):
    config = validate_config(
        {
            "datasets": {"d": {"source": "local", "path": str(tmp_path)}},
            "models": {
                "m": {"kind": "bm25", "feedback": {"method": "rm3", "docs": {"grid": [5, 10]}}}
            },
        }
    )
    variants = {n: e for n, e in config["models"].items() if e.get("variant_of") == "m"}
    assert sorted(e["feedback"]["docs"] for e in variants.values()) == [5, 10]
    assert config["models"]["m"]["kind"] == "tuned"
