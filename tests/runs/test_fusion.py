"""Run fusion against ranx's fuse (its outputs recorded in data/ranx_fusion.json by
data/make_ranx_fusion.py) and by hand."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.runs.fusion import fuse as fuse_module
from sparsebench.runs.fusion.fuse import fuse, trec_order
from sparsebench.runs.fusion.registry import METHODS
from sparsebench.runs.fusion.settings import Fusion

RANX = json.loads((Path(__file__).parent / "data" / "ranx_fusion.json").read_text())
METHOD = {
    "rrf": "rrf",
    "sum": "combsum",
    "mnz": "combmnz",
    "max": "combmax",
    "wsum": "wsum",
    "isr": "isr",
}
NORM = {None: "none", "min-max": "min-max", "zmuv": "z-score", "sum": "sum", "rank": "rank"}
NAMES = ("bm25", "splade", "dense")


def as_frame(run: dict[str, dict[str, float]]) -> pd.DataFrame:
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


@pytest.mark.parametrize("case", RANX["fused"], ids=lambda c: f"{c['method']}-{c['norm']}")
def test_fusion_equals_ranx(case):
    params = case["params"]
    fusion = Fusion(
        runs=NAMES,
        method=METHOD[case["method"]],
        norm=NORM[case["norm"]],
        k=params.get("k", 60),
        weights=dict(zip(NAMES, params["weights"], strict=True)) if "weights" in params else {},
    )
    ours = fuse({n: as_frame(RANX["runs"][n]) for n in NAMES}, fusion, k=1000)
    expected = as_frame(case["run"])
    merged = ours.merge(expected, on=["query_id", "doc_id"], how="outer", suffixes=("", "_ranx"))
    assert not merged.isna().any().any(), "the fused runs hold different documents"
    np.testing.assert_allclose(merged["score"], merged["score_ranx"], rtol=0, atol=1e-9)
    # the same ranking: each query's scores descending, ties by document id descending
    for _, rows in ours.groupby("query_id"):
        keys = list(zip(-rows["score"].round(12), rows["doc_id"], strict=True))
        assert keys == sorted(keys, key=lambda t: (t[0], [-ord(c) for c in t[1]]))
        assert rows["rank"].tolist() == list(range(1, len(rows) + 1))


def test_rrf_by_hand_with_depth_and_ties():
    # a: x, y, z (y and z tie: trec_eval puts z first); b: z, w
    a = pd.DataFrame({"query_id": "q", "doc_id": ["x", "y", "z"], "score": [3.0, 1.0, 1.0]})
    b = pd.DataFrame({"query_id": "q", "doc_id": ["z", "w"], "score": [2.0, 1.0]})
    assert trec_order(a)["doc_id"].tolist() == ["x", "z", "y"]
    fused = fuse({"a": a, "b": b}, Fusion(runs=("a", "b"), k=60), k=10)
    expected = {"z": 1 / 62 + 1 / 61, "x": 1 / 61, "w": 1 / 62, "y": 1 / 63}
    assert fused["doc_id"].tolist() == ["z", "x", "w", "y"]
    assert fused["score"].tolist() == pytest.approx(
        [expected[d] for d in fused["doc_id"]], abs=1e-15
    )
    # depth 1: each run's first document only; k cuts the fused run
    shallow = fuse({"a": a, "b": b}, Fusion(runs=("a", "b"), k=60, depth=1), k=1)
    assert shallow["doc_id"].tolist() == ["z"]  # 1/61 each: z > x by document id


def test_a_query_one_run_lacks_is_fused_from_the_others():
    a = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["x", "y"], "score": [1.0, 1.0]})
    b = pd.DataFrame({"query_id": ["q1"], "doc_id": ["x"], "score": [5.0]})
    fused = fuse({"a": a, "b": b}, Fusion(runs=("a", "b"), method="combmnz", norm="none"), k=5)
    assert fused.set_index("query_id")["score"].to_dict() == {"q1": 12.0, "q2": 1.0}


def test_equal_values_tie_whatever_the_order_of_the_runs():
    """RRF gives d and e the same three values (ranks 7, 1, 2 and 1, 2, 7): their sums
    are equal to the last bit, so they tie, and the tie falls by document id (e before d,
    as trec_eval orders it), in any order of the runs, with any cut."""
    runs = {
        "a": ["e", "d", "f0"],  # e 1, d 2
        "b": ["d", "f1", "f2", "f3", "f4", "f0", "e"],  # d 1, e 7
        "c": ["f2", "e", "f3", "f4", "f0", "f1", "d"],  # e 2, d 7
    }
    frames = {
        name: pd.DataFrame(
            {"query_id": "q", "doc_id": docs, "score": np.arange(len(docs), 0, -1, dtype=float)}
        )
        for name, docs in runs.items()
    }
    expected = 1 / 61 + 1 / 62 + 1 / 67
    fused = [
        fuse(frames, Fusion(runs=order, k=60), k=1000)
        for order in [("a", "b", "c"), ("c", "b", "a"), ("b", "c", "a")]
    ]
    for other in fused[1:]:
        pd.testing.assert_frame_equal(fused[0], other)
    top = fused[0].set_index("doc_id")["score"]
    assert top["d"] == top["e"] == pytest.approx(expected, abs=1e-15)
    assert fused[0]["doc_id"].tolist()[:2] == ["e", "d"]
    cut = fuse(frames, Fusion(runs=("c", "b", "a"), k=60), k=1)
    assert cut["doc_id"].tolist() == ["e"]


def test_a_run_listing_a_document_twice_is_refused():
    a = pd.DataFrame({"query_id": "q", "doc_id": ["x", "y", "x"], "score": [5.0, 3.0, 1.0]})
    b = pd.DataFrame({"query_id": "q", "doc_id": ["y", "x"], "score": [4.0, 2.0]})
    with pytest.raises(DataError, match=r"the run of 'a' lists document 'x' more than once"):
        fuse({"a": a, "b": b}, Fusion(runs=("a", "b")), k=5)


def test_scores_a_normalisation_overflows_on_are_refused():
    a = pd.DataFrame({"query_id": "q", "doc_id": ["x", "y"], "score": [1.6e308, 1.5e308]})
    b = pd.DataFrame({"query_id": "q", "doc_id": ["x"], "score": [1.0]})
    fusion = Fusion(runs=("a", "b"), method="combsum", norm="z-score")
    with pytest.raises(
        DataError, match="the run of 'a' gives 2 values that are not finite .first in query 'q'"
    ):
        fuse({"a": a, "b": b}, fusion, k=5)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"runs": ("a",)}, "two or more distinct runs"),
        ({"runs": ("a", "a")}, "two or more distinct runs"),
        ({"runs": ("a", "b"), "method": "borda"}, "fusion method 'borda'"),
        ({"runs": ("a", "b"), "norm": "max"}, "fusion norm 'max'"),
        ({"runs": ("a", "b"), "method": "wsum", "weights": {"c": 1.0}}, r"does not fuse: \['c'\]"),
        ({"runs": ("a", "b"), "weights": {"a": 1.0}}, "for method wsum, not rrf"),
        ({"runs": ("a", "b"), "depth": 0}, "depth >= 1"),
    ],
)
def test_bad_fusion_settings_are_refused(settings, message):
    with pytest.raises(ConfigError, match=message):
        Fusion(**settings)


def test_a_missing_run_is_named():
    a = pd.DataFrame({"query_id": ["q"], "doc_id": ["x"], "score": [1.0]})
    with pytest.raises(DataError, match=r"no run of \['b'\]"):
        fuse({"a": a}, Fusion(runs=("a", "b")), k=5)


def test_every_method_module_is_listed_in_the_registry():
    """One module per method, each in the registry (the schema and the fusion kind read
    the registry: no other list of method names)."""
    modules = {p.stem for p in Path(fuse_module.__file__).parent.glob("*.py")}
    methods = modules - {"__init__", "base", "norms", "registry", "fuse", "settings"}
    listed = {
        name: importlib.import_module(f"sparsebench.runs.fusion.{name}").METHOD for name in methods
    }
    assert {method.name: method for method in listed.values()} == METHODS
    for name, method in listed.items():
        doc = importlib.import_module(f"sparsebench.runs.fusion.{name}").__doc__
        assert method.name in doc.lower(), name
        assert re.search(r"\b(19|20)\d\d\b", doc), f"{name}: its source, with its year"
