"""Integer impacts (sparsebench.encode.quantization): each rule as its maker computes it,
and splade-tiny's ADI impacts equal to the file Anserini indexed
(tests/retrieve/data/anserini_impact_adi, made with round(w * 100))."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from sparsebench.core.csrfiles import load_csr
from sparsebench.core.errors import ConfigError
from sparsebench.core.fileio import read_lines
from sparsebench.encode.json_vectors import read_json_vectors
from sparsebench.encode.quantization import QuantizationRule, parse_scale, side_rules
from sparsebench.search.postings import load_postings
from sparsebench.workflow.config import validate_config

SHARED = Path(__file__).resolve().parents[3] / "shared"
ADI_IMPACTS = Path(__file__).resolve().parents[1] / "retrieve" / "data" / "anserini_impact_adi"


def rule(**settings) -> QuantizationRule:
    return QuantizationRule.from_config(settings)


def test_roundings_on_halves():
    halves = np.array([0.005, 0.015, 0.025, 0.035, 1.0, 0.0049], dtype=np.float64)
    # x100 in float64: 0.5, 1.5, 2.5, 3.5 (approximately: 0.015*100 = 1.5 exactly, ...)
    scaled = halves * 100
    assert rule(arithmetic="float64").quantize(halves).tolist() == np.rint(scaled).tolist()
    up = rule(rounding="half_up", arithmetic="float64").quantize(np.array([0.5, 1.5, 2.5]) / 100)
    assert up.tolist() == [1, 2, 3]
    assert rule(rounding="down").quantize(np.array([2.99, -2.99], np.float32) / 100).tolist() == [
        2,
        -2,
    ]
    # Math.round of the float just below 0.5 is 0, though 0.49999997f + 0.5f rounds to 1.0f
    below_half = np.nextafter(np.float32(0.5), np.float32(0))
    assert rule(scale=1, rounding="half_up").quantize(np.array([below_half])).tolist() == [0]


def test_each_rule_is_its_makers_arithmetic():
    rng = np.random.default_rng(0)
    weights = rng.random(100_000, dtype=np.float32) * 3
    # naver/splade and tevatron: np.rint on float32
    assert np.array_equal(rule().quantize(weights), np.rint(weights * 100).astype(np.int64))
    # Pyserini's encoder: round(w / 5 * 256) on Python floats
    pyserini = [round(float(w) / 5 * 256) for w in weights[:5000]]
    assert rule(scale="256/5", arithmetic="float64").quantize(weights[:5000]).tolist() == pyserini
    # Anserini's ONNX encoders: Math.round(w / 5f * 256f) on floats (the float x's
    # nearest integer, halves up: floor(x + 1/2) computed exactly)
    x = (weights[:5000] / np.float32(5)) * np.float32(256)
    java = [math.floor(Fraction(float(v)) + Fraction(1, 2)) for v in x]
    assert rule(scale="256/5", rounding="half_up").quantize(weights[:5000]).tolist() == java


def test_quantize_rows_drops_zeros_and_keeps_rows():
    matrix = sp.csr_matrix(np.array([[0.004, 0.5, -1.0], [0.0, 0.0, 0.0], [2.0, 0.006, 0.0]]))
    out = rule().quantize_rows(matrix)
    assert out.dtype == np.float32
    assert out.toarray().tolist() == [[0, 50, 0], [0, 0, 0], [200, 1, 0]]
    assert out.nnz == 3


def test_scales_and_bad_settings():
    assert parse_scale(100) == (100.0, 1.0)
    assert parse_scale("256/5") == (256.0, 5.0)
    for bad in (0, -1, "x", "1/0", "0/5", True):
        with pytest.raises(ConfigError, match="quantization scale"):
            parse_scale(bad)
    with pytest.raises(ConfigError, match="rounding must be one of half_even, half_up, down"):
        rule(rounding="up")
    assert side_rules({"scale": 50})["queries"] == side_rules({"scale": 50})["documents"]
    assert side_rules({"queries": "none"})["queries"] is None
    queries = side_rules({"queries": {"scale": "256/5", "rounding": "half_up"}})["queries"]
    assert queries == {"scale": "256/5", "rounding": "half_up", "arithmetic": "float32"}


def splade(**settings) -> dict:
    return {"kind": "splade", "model": str(SHARED / "models" / "splade-tiny"), **settings}


def test_config_errors_name_the_setting():
    datasets = {"adi": {"source": "local", "path": str(SHARED / "data" / "adi")}}
    with pytest.raises(ConfigError, match="it takes no IDF"):
        validate_config(
            {"datasets": datasets, "models": {"m": splade(quantization={}, idf="lucene")}}
        )
    with pytest.raises(ConfigError, match="quantization scale"):
        validate_config(
            {"datasets": datasets, "models": {"m": splade(quantization={"scale": "a/b"})}}
        )
    with pytest.raises(ConfigError, match="quantization"):
        validate_config(
            {"datasets": datasets, "models": {"m": splade(quantization={"rounding": "up"})}}
        )


def test_splade_impacts_of_adi_equal_the_file_anserini_indexed(tmp_path):
    """Through every stage (run_pair), splade-tiny's ADI postings are the integers of the
    reference file, except (none on the machine that made it) a weight whose scaled value
    lies within 1e-3 of a half, where another CPU's last bits may round it the other way."""
    from tests.conftest import run_stages

    files = run_stages(
        SHARED / "data" / "adi",
        tmp_path,
        model=splade(quantization={"arithmetic": "float64"}, device="cpu"),
    )
    postings = load_postings(files.weights / "postings.npz").documents()
    floats = load_csr(files.encoded / "corpus.npz")  # the unquantised encoding
    vocabulary = read_lines(files.encoded / "vocab.txt")
    doc_ids = read_lines(files.encoded / "doc_ids.txt")
    reference_ids, reference = read_json_vectors(ADI_IMPACTS / "docs.jsonl.gz")
    ours = {
        (doc_ids[row], vocabulary[col]): value
        for row, col, value in zip(*sp.find(postings), strict=True)
    }
    theirs = {}
    coo = reference.matrix.tocoo()
    terms = reference.terms.to_pylist()
    for row, col, value in zip(coo.row, coo.col, coo.data, strict=True):
        theirs[(reference_ids[row], terms[col])] = value
    scaled = floats.data.astype(np.float64) * 100
    fragile_rows = np.repeat(np.arange(floats.shape[0]), np.diff(floats.indptr))[
        np.abs(scaled - np.floor(scaled) - 0.5) < 1e-3
    ]
    fragile = {doc_ids[row] for row in fragile_rows}
    differ = [
        key
        for key in ours.keys() | theirs.keys()
        if key[0] not in fragile and ours.get(key) != theirs.get(key)
    ]
    assert len(ours) > 12_000
    assert not differ, f"{len(differ)} impacts differ, e.g. {differ[:3]}"
    metrics = (files.metrics).read_text()
    assert '"nDCG@10": 0.39499022291467' in metrics  # Anserini's run: 0.3949902229146711


def test_packed_postings_need_quantization():
    datasets = {"d": {"source": "local", "path": str(SHARED / "data" / "adi")}}
    with pytest.raises(ConfigError, match="packed_postings bit-packs integer impacts"):
        validate_config({"datasets": datasets, "models": {"m": splade(packed_postings=True)}})


def test_packed_postings_write_the_same_run_in_fewer_bytes(tmp_path):
    """splade-tiny's quantised ADI impacts through every stage with and without
    packed_postings: the same run, byte for byte (its lists packed: ADI's long ones), from
    a smaller index."""
    from tests.conftest import run_stages

    runs = {}
    for packed in (False, True):
        model = splade(quantization={}, device="cpu", packed_postings=packed)
        files = run_stages(SHARED / "data" / "adi", tmp_path / str(packed), model=model)
        postings = load_postings(files.weights / "postings.npz")
        assert (postings.packed is not None) == packed
        runs[packed] = (files.run.read_bytes(), (files.weights / "postings.npz").stat().st_size)
    assert runs[True][0] == runs[False][0] and runs[True][0].count(b"\n") > 1000
    assert runs[True][1] < runs[False][1]
