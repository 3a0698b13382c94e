"""uniCOIL encoders: vectors equal Pyserini's UniCoil{Document,Query}Encoder computed one
text at a time (tests/support/unicoil.py) on a random checkpoint in castorini's layout;
the layouts the loader reads and the errors of those it refuses; a whole pair with
Pyserini's integer rule scored as the integer dot product of Pyserini's vectors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import TINY_DOCS, TINY_QUERIES

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from support.unicoil import build_unicoil, pyserini_vectors  # noqa: E402

from sparsebench import api  # noqa: E402
from sparsebench.core.errors import ConfigError  # noqa: E402
from sparsebench.encode.unicoil import UniCoilEncoder, UniCoilSettings  # noqa: E402
from sparsebench.runs.runfile import read_run  # noqa: E402

TEXTS = [f"{t} {x}" for _, t, x in TINY_DOCS] + [
    "",
    "tides " * 40,
    "moon moon moon bread",
    "salt [PAD] moon bread",  # Pyserini stops at the first [PAD]
    "[CLS] moon [SEP] bread",
]


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    return build_unicoil(tmp_path_factory.mktemp("unicoil") / "model")


def as_dicts(encoded):
    terms = encoded.terms.to_pylist()
    matrix = encoded.matrix
    return [
        {terms[c]: float(v) for c, v in zip(matrix[i].indices, matrix[i].data, strict=True)}
        for i in range(matrix.shape[0])
    ]


def assert_vectors_equal(ours, expected):
    for i, (got, want) in enumerate(zip(ours, expected, strict=True)):
        want = {t: w for t, w in want.items() if w > 0}  # a zero weight is no posting
        assert set(got) == set(want), (i, sorted(set(got) ^ set(want)))
        for term in want:
            assert got[term] == pytest.approx(want[term], abs=2e-5), (i, term)


@pytest.mark.parametrize("batch_size", [1, 3, 16])
@pytest.mark.parametrize("side", ["documents", "queries"])
def test_vectors_equal_pyserini(checkpoint, batch_size, side):
    query = side == "queries"
    encoder = UniCoilEncoder(
        UniCoilSettings(
            model=str(checkpoint),
            max_length=24,
            batch_size=batch_size,
            aggregate="sum" if query else "max",
            device="cpu",
        )
    )
    ours = as_dicts(encoder.encode(TEXTS))
    assert_vectors_equal(ours, pyserini_vectors(checkpoint, TEXTS, query=query, max_length=24))
    assert set(ours[len(TINY_DOCS)]) <= {"[SEP]"}  # an empty text: [CLS] [SEP]
    assert any("[SEP]" in v for v in ours)  # kept, as Pyserini keeps it
    assert not any("[CLS]" in v for v in ours)
    assert "moon" not in ours[len(TINY_DOCS) + 3]  # after the [PAD]


def test_a_vector_does_not_depend_on_its_neighbours(checkpoint):
    encoder = UniCoilEncoder(UniCoilSettings(model=str(checkpoint), batch_size=4, device="cpu"))
    together = encoder.encode(TEXTS).matrix
    alone = encoder.encode(TEXTS[2:3]).matrix
    np.testing.assert_array_equal(alone.indices, together[2].indices)
    np.testing.assert_array_equal(alone.data, together[2].data)  # bytes, not close


@pytest.mark.parametrize(
    ("prefix", "weights"),
    [("", "model.safetensors"), ("coil_encoder.", "model.safetensors"), ("", "pytorch_model.bin")],
)
def test_other_checkpoint_layouts(tmp_path, checkpoint, prefix, weights):
    other = build_unicoil(tmp_path / "other", prefix=prefix, weights=weights)
    settings = UniCoilSettings(model=str(other), max_length=24, device="cpu")
    reference = UniCoilSettings(model=str(checkpoint), max_length=24, device="cpu")
    got = UniCoilEncoder(settings).encode(TEXTS).matrix
    want = UniCoilEncoder(reference).encode(TEXTS).matrix
    np.testing.assert_array_equal(got.toarray(), want.toarray())


def test_refused_checkpoints(tmp_path, checkpoint):
    with pytest.raises(ConfigError, match="model folder .*nope does not exist"):
        UniCoilEncoder(UniCoilSettings(model=str(tmp_path / "nope"), device="cpu"))
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "config.json").write_bytes((checkpoint / "config.json").read_bytes())
    with pytest.raises(ConfigError, match="has no weights"):
        UniCoilEncoder(UniCoilSettings(model=str(bare), device="cpu"))
    state = torch.load(checkpoint / "pytorch_model.bin", weights_only=True)
    torch.save({k: v for k, v in state.items() if "tok_proj" not in k}, bare / "pytorch_model.bin")
    with pytest.raises(ConfigError, match="not a uniCOIL checkpoint: it needs tok_proj.weight"):
        UniCoilEncoder(UniCoilSettings(model=str(bare), device="cpu"))
    torch.save(
        {k: v for k, v in state.items() if "encoder.layer.0.output" not in k},
        bare / "pytorch_model.bin",
    )
    with pytest.raises(
        ConfigError, match=r"not a complete uniCOIL checkpoint: \d+ encoder weights"
    ):
        UniCoilEncoder(UniCoilSettings(model=str(bare), device="cpu"))


def test_a_pair_scores_pyserinis_integer_vectors(tmp_path, tiny_collection, checkpoint):
    """kind: unicoil through every stage with Pyserini's rule (round(w / 5 * 256) on both
    sides): each score of the run is the integer dot product of Pyserini's vectors."""
    rule = {"scale": "256/5", "arithmetic": "float64"}
    model = {"kind": "unicoil", "model": str(checkpoint), "quantization": rule, "device": "cpu"}
    files = api.run_pair({"source": "local", "path": str(tiny_collection)}, model, tmp_path)
    run = read_run(files.run)
    documents = {d: f"{t} {x}".strip() for d, t, x in TINY_DOCS}
    ids = list(documents)
    doc_vectors = pyserini_vectors(checkpoint, [documents[d] for d in ids])
    quantized = [{t: round(w / 5 * 256) for t, w in v.items()} for v in doc_vectors]
    queries = dict(TINY_QUERIES)
    scored = 0
    for query_id, doc_id, score in zip(run["query_id"], run["doc_id"], run["score"], strict=True):
        (query,) = pyserini_vectors(checkpoint, [queries[query_id]], query=True, max_length=128)
        weights = {t: round(w / 5 * 256) for t, w in query.items()}
        document = quantized[ids.index(doc_id)]
        expected = sum(w * document.get(t, 0) for t, w in weights.items() if w > 0)
        assert math.isclose(float(score), expected), (query_id, doc_id, score, expected)
        scored += 1
    assert scored > 0


def test_the_kind_reads_as_pyserinis_encoders(checkpoint):
    from sparsebench.workflow.config import validate_config
    from sparsebench.workflow.plan import Plan

    config = validate_config(
        {
            "datasets": {"d": {"source": "local", "path": "."}},
            "models": {"u": {"kind": "unicoil", "model": str(checkpoint)}},
        }
    )
    plan = Plan(config)
    kind, entry = plan.kind("u"), config["models"]["u"]
    documents, queries = (kind.encoding(entry, side, "en") for side in ("documents", "queries"))
    assert (documents["max_length"], documents["aggregate"]) == (512, "max")
    assert (queries["max_length"], queries["aggregate"]) == (128, "sum")
    with pytest.raises(ConfigError, match="pooling"):
        validate_config(
            {
                "datasets": {"d": {"source": "local", "path": "."}},
                "models": {"u": {"kind": "unicoil", "model": str(checkpoint), "pooling": "max"}},
            }
        )
