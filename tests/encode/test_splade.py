"""SPLADE encoders: vectors equal the SPLADE formula computed directly, on a tiny random
masked LM built here and on the real ../shared/models/splade-tiny; options, errors, and
the inference-free query side."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
from conftest import TINY_DOCS, shared_path

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from support.masked_lm import SPECIAL, build_masked_lm  # noqa: E402

from sparsebench.core.devices import select_device  # noqa: E402
from sparsebench.core.errors import ConfigError  # noqa: E402
from sparsebench.encode.splade import (  # noqa: E402
    SpladeEncoder,
    SpladeSettings,
    load_idf_json,
)
from sparsebench.encode.splade_pooling import declared_pooling, resolve_pooling  # noqa: E402
from sparsebench.encode.tokenizer_queries import TokenizerQueryEncoder  # noqa: E402


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    return str(build_masked_lm(tmp_path_factory.mktemp("tiny-mlm") / "model"))


def direct_splade(model_path, texts, max_length, pooling="max", activation="relu"):
    """The SPLADE formula, one text at a time, from the full forward pass; `log1p_relu`
    saturates twice, as sentence-transformers' SpladePooling of that name."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_path)
    model = transformers.AutoModelForMaskedLM.from_pretrained(model_path).eval()
    rows = []
    with torch.no_grad():
        for text in texts:
            if not text.strip():
                rows.append(np.zeros(model.config.vocab_size, np.float32))
                continue
            encoded = tokenizer([text], truncation=True, max_length=max_length, return_tensors="pt")
            logits = model(**encoded).logits
            saturated = torch.log1p(torch.relu(logits))
            if activation == "log1p_relu":
                saturated = torch.log1p(saturated)
            saturated = saturated * encoded["attention_mask"].unsqueeze(-1)
            pooled = saturated.amax(dim=1) if pooling == "max" else saturated.sum(dim=1)
            pooled[0, tokenizer.all_special_ids] = 0
            rows.append(pooled[0].numpy())
    return np.stack(rows)


TEXTS = [f"{t} {x}" for _, t, x in TINY_DOCS] + ["", "tides " * 40]


@pytest.mark.parametrize("pooling", ["max", "sum"])
@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_vectors_equal_the_formula(tiny_model, pooling, batch_size):
    encoder = SpladeEncoder(
        SpladeSettings(
            model=tiny_model, max_length=24, pooling=pooling, batch_size=batch_size, device="cpu"
        )
    )
    ours = encoder.encode(TEXTS).matrix.toarray()
    np.testing.assert_allclose(ours, direct_splade(tiny_model, TEXTS, 24, pooling), atol=2e-5)


@pytest.mark.parametrize("architecture", ["roberta", "distilbert"])
def test_other_masked_lm_layouts(tmp_path, architecture):
    path = str(build_masked_lm(tmp_path / architecture, architecture))
    ours = SpladeEncoder(SpladeSettings(model=path, max_length=24, batch_size=4, device="cpu"))
    np.testing.assert_allclose(
        ours.encode(TEXTS[:6]).matrix.toarray(), direct_splade(path, TEXTS[:6], 24), atol=2e-5
    )


def test_real_splade_tiny_equals_the_formula():
    path = str(shared_path("models", "splade-tiny"))
    texts = [
        "Photovoltaic panels convert sunlight into electricity.",
        "What causes the ocean tides? The gravity of the moon.",
        "",
        "sparse retrieval " * 200,
    ]
    encoder = SpladeEncoder(SpladeSettings(model=path, max_length=128, batch_size=2, device="cpu"))
    ours = encoder.encode(texts)
    np.testing.assert_allclose(ours.matrix.toarray(), direct_splade(path, texts, 128), atol=1e-4)
    assert ours.terms[2023].as_py() == "this" and len(ours.terms) == 30522
    assert ours.matrix[2].nnz == 0


def _declare(folder: Path, pooling: str, activation: str, route: str | None = None) -> Path:
    """A sentence-transformers layout beside the model's files: a SparseEncoder's
    1_SpladePooling, or (route given) a Router whose routes are those of OpenSearch's
    inference-free models, the pooling in the named route only."""
    config = {"pooling_strategy": pooling, "activation_function": activation}
    prefix = "sentence_transformers.sparse_encoder.models."
    if route is None:
        modules = [
            {"idx": 0, "name": "0", "path": "", "type": prefix + "MLMTransformer"},
            {"idx": 1, "name": "1", "path": "1_SpladePooling", "type": prefix + "SpladePooling"},
        ]
        where = "1_SpladePooling"
    else:
        modules = [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Router"}
        ]
        where = f"{route}_1_SpladePooling"
        other = "query" if route == "document" else "document"
        router = {
            "types": {
                f"{other}_0_SparseStaticEmbedding": prefix + "SparseStaticEmbedding",
                f"{route}_0_MLMTransformer": prefix + "MLMTransformer",
                where: prefix + "SpladePooling",
            },
            "structure": {
                other: [f"{other}_0_SparseStaticEmbedding"],
                route: [f"{route}_0_MLMTransformer", where],
            },
            "parameters": {"default_route": "document", "allow_empty_key": True},
        }
        (folder / "router_config.json").write_text(json.dumps(router))
    (folder / "modules.json").write_text(json.dumps(modules))
    (folder / where).mkdir(exist_ok=True)
    (folder / where / "config.json").write_text(json.dumps(config))
    return folder


@pytest.fixture()
def declared_model(tiny_model, tmp_path):
    """The tiny model, copied, as a folder that can declare its pooling."""
    import shutil

    return shutil.copytree(tiny_model, tmp_path / "declared")


@pytest.mark.parametrize("pooling", ["max", "sum"])
@pytest.mark.parametrize("route", [None, "document"])
def test_a_model_is_encoded_with_the_activation_it_declares(declared_model, pooling, route):
    """OpenSearch's v3 document models declare log1p_relu, log(1 + log(1 + relu(x))):
    `auto` (the default) encodes as the model's own SpladePooling would."""
    model = str(_declare(declared_model, pooling, "log1p_relu", route))
    encoder = SpladeEncoder(SpladeSettings(model=model, max_length=24, device="cpu"))
    assert (encoder.pooling.pooling, encoder.pooling.activation) == (pooling, "log1p_relu")
    ours = encoder.encode(TEXTS).matrix.toarray()
    np.testing.assert_allclose(
        ours, direct_splade(model, TEXTS, 24, pooling, "log1p_relu"), atol=2e-5
    )
    gap = float(np.abs(ours - direct_splade(model, TEXTS, 24, pooling)).max())
    assert gap > 50 * 2e-5, gap  # the saturation the model declares, not SPLADE's


def test_the_declaration_is_read_for_the_side_its_route_encodes(declared_model):
    model = str(_declare(declared_model, "max", "log1p_relu", route="document"))
    assert declared_pooling(model, "documents") == {
        "pooling": "max",
        "activation": "log1p_relu",
        "file": "document_1_SpladePooling/config.json",
    }
    assert declared_pooling(model, "queries") is None  # its query route has no pooling
    queries = resolve_pooling(model, "queries", "auto", "auto")
    assert (queries.pooling, queries.activation, queries.declared_in) == ("max", "relu", None)
    assert (
        declared_pooling(str(_declare(declared_model, "sum", "relu")), "queries")["pooling"]
        == "sum"
    )


def test_a_model_that_declares_nothing_is_encoded_as_splade(tiny_model):
    resolved = resolve_pooling(tiny_model, "documents", "auto", "auto")
    assert (resolved.pooling, resolved.activation, resolved.declared_in) == ("max", "relu", None)


def test_an_explicit_setting_wins_over_the_declaration_and_says_so(declared_model, caplog):
    model = str(_declare(declared_model, "max", "log1p_relu"))
    with caplog.at_level(logging.WARNING, logger="sparsebench.encode.splade_pooling"):
        encoder = SpladeEncoder(
            SpladeSettings(model=model, max_length=24, activation="relu", device="cpu")
        )
    assert encoder.pooling.activation == "relu"
    assert "declares activation log1p_relu in 1_SpladePooling/config.json" in caplog.text
    np.testing.assert_allclose(
        encoder.encode(TEXTS).matrix.toarray(), direct_splade(model, TEXTS, 24), atol=2e-5
    )


@pytest.mark.parametrize(
    ("pooling", "activation", "message"),
    [
        ("mean", "relu", "pooling_strategy 'mean' and activation_function 'relu'"),
        ("max", "softplus", "activation_function 'softplus'"),
    ],
)
def test_a_declaration_sparsebench_cannot_encode_is_refused(
    declared_model, pooling, activation, message
):
    model = str(_declare(declared_model, pooling, activation))
    with pytest.raises(ConfigError, match=message):
        SpladeEncoder(SpladeSettings(model=model, max_length=24, device="cpu"))


def test_settings_outside_the_choices_are_refused(tiny_model):
    with pytest.raises(ConfigError, match="activation must be auto, relu or log1p_relu"):
        resolve_pooling(tiny_model, "documents", "auto", "gelu")
    with pytest.raises(ConfigError, match="pooling must be auto, max or sum"):
        resolve_pooling(tiny_model, "documents", "mean", "auto")


def _hub_cache(root: Path, repo: str, files: dict[str, object], absent: tuple[str, ...] = ()):
    """A hub cache holding `files` of model `repo` at one commit, and the hub's word that
    it has none of `absent` (as huggingface_hub records a 404)."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    base = root / f"models--{repo.replace('/', '--')}"
    (base / "refs").mkdir(parents=True)
    (base / "refs" / "main").write_text(commit)
    for name, content in files.items():
        path = base / "snapshots" / commit / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content))
    for name in absent:
        path = base / ".no_exist" / commit / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def test_a_hub_models_declaration_is_read_from_the_hub_cache(tmp_path, monkeypatch, caplog):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    prefix = "sentence_transformers.sparse_encoder.models."
    _hub_cache(
        tmp_path,
        "org/declared",
        {
            "modules.json": [
                {"idx": 1, "name": "1", "path": "1_SpladePooling", "type": prefix + "SpladePooling"}
            ],
            "1_SpladePooling/config.json": {
                "pooling_strategy": "max",
                "activation_function": "log1p_relu",
            },
        },
    )
    _hub_cache(tmp_path, "org/plain", {}, absent=("modules.json",))
    _hub_cache(tmp_path, "org/unread", {})
    assert declared_pooling("org/declared", "documents")["activation"] == "log1p_relu"
    with caplog.at_level(logging.WARNING, logger="sparsebench.encode.splade_pooling"):
        assert declared_pooling("org/plain", "documents") is None  # the hub said: no such file
        assert not caplog.text
        assert declared_pooling("org/unread", "documents") is None  # offline, never fetched
    assert "org/unread: modules.json is not in the hub cache and the hub is offline" in caplog.text


def test_special_tokens_never_become_terms_and_runs_are_deterministic(tiny_model):
    encoder = SpladeEncoder(SpladeSettings(model=tiny_model, max_length=24, device="cpu"))
    first = encoder.encode(TEXTS)
    assert first.matrix[:, : len(SPECIAL)].nnz == 0
    second = encoder.encode(TEXTS)
    assert (first.matrix != second.matrix).nnz == 0


def test_pruning(tiny_model):
    dense = SpladeEncoder(SpladeSettings(model=tiny_model, max_length=24, device="cpu")).encode(
        TEXTS
    )
    top = SpladeEncoder(
        SpladeSettings(model=tiny_model, max_length=24, device="cpu", top_k=3)
    ).encode(TEXTS)
    assert np.diff(top.matrix.indptr).max() <= 3
    for row in range(len(TEXTS)):
        kept = top.matrix[row].toarray().ravel()
        full = dense.matrix[row].toarray().ravel()
        assert np.allclose(np.sort(kept[kept > 0]), np.sort(full)[::-1][: (kept > 0).sum()][::-1])
    threshold = float(np.median(dense.matrix.data))
    cut = SpladeEncoder(
        SpladeSettings(model=tiny_model, max_length=24, device="cpu", threshold=threshold)
    ).encode(TEXTS)
    assert cut.matrix.nnz == int((dense.matrix.data > threshold).sum())
    assert cut.matrix.data.min() > threshold


def test_truncation_is_counted(tiny_model, caplog):
    caplog.set_level(logging.INFO)
    encoder = SpladeEncoder(SpladeSettings(model=tiny_model, max_length=12, device="cpu"))
    encoder.encode(["moon " * 30, "moon", ""])
    assert encoder.truncated == 1
    assert "1 of 2 texts exceed max_length 12 tokens" in caplog.text
    assert "1 empty texts encode to empty vectors" in caplog.text


def test_missing_model_folder(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        SpladeEncoder(SpladeSettings(model=str(tmp_path / "nope"), device="cpu"))


def test_checkpoint_that_is_not_a_masked_lm(tmp_path, tiny_model):
    gpt = tmp_path / "gpt"
    transformers.GPT2LMHeadModel(
        transformers.GPT2Config(
            n_layer=1, n_embd=16, n_head=2, vocab_size=40, bos_token_id=0, eos_token_id=0
        )
    ).save_pretrained(gpt)
    with pytest.raises(ConfigError, match="not a masked language model"):
        SpladeEncoder(SpladeSettings(model=str(gpt), device="cpu"))
    encoder_only = tmp_path / "bert"
    transformers.BertModel(
        transformers.BertConfig(
            vocab_size=40,
            hidden_size=16,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=32,
        )
    ).save_pretrained(encoder_only)
    with pytest.raises(ConfigError, match="not a masked language model"):
        SpladeEncoder(SpladeSettings(model=str(encoder_only), device="cpu"))


def test_device_selection():
    assert select_device("cpu").type == "cpu"
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert select_device("auto").type == expected
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="CUDA is not available"):
            select_device("cuda:0")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_half_precision_is_close_to_cpu(tiny_model):  # pragma: no cover - GPU only
    cpu = SpladeEncoder(SpladeSettings(model=tiny_model, max_length=24, device="cpu"))
    gpu = SpladeEncoder(
        SpladeSettings(model=tiny_model, max_length=24, device="cuda", dtype="fp16")
    )
    np.testing.assert_allclose(
        gpu.encode(TEXTS).matrix.toarray(), cpu.encode(TEXTS).matrix.toarray(), atol=5e-2
    )


def test_the_wrapped_encoders_name_the_device_they_run_on(tiny_model):
    """A shard's cost record reads the device off the pipeline's encoder: the SPLADE
    family's wrapper passes on its model's (a GPU's shard was recorded as "cpu")."""
    from types import SimpleNamespace

    from sparsebench.encode.encoders import TextListEncoder

    wrapped = TextListEncoder(SpladeEncoder(SpladeSettings(model=tiny_model, device="cpu")))
    assert wrapped.device == "cpu"
    assert TextListEncoder(SimpleNamespace(device=torch.device("cuda", 0))).device == "cuda:0"
    assert TextListEncoder(SimpleNamespace()).device == "cpu"  # a text encoder of no device


def test_inference_free_query_side(tiny_model, tmp_path):
    encoder = TokenizerQueryEncoder(tiny_model)
    encoded = encoder.encode(["moon moon tides", ""])
    terms = encoded.terms.to_pylist()
    row = {
        terms[i]: v for i, v in zip(encoded.matrix[0].indices, encoded.matrix[0].data, strict=True)
    }
    assert row == {"moon": 1.0, "tides": 1.0}
    assert encoded.matrix[1].nnz == 0
    (tmp_path / "idf.json").write_text(json.dumps({"moon": 2.5, "tides": 0.5}))
    idf = load_idf_json(str(tmp_path), encoded.terms)
    assert idf[terms.index("moon")] == 2.5 and idf[terms.index("the")] == 0.0


def _cranfield_texts(n: int) -> list[str]:
    with open(shared_path("data", "cranfield", "corpus.jsonl"), encoding="utf-8") as handle:
        docs = [json.loads(line) for line, _ in zip(handle, range(n), strict=False)]
    return [f"{d.get('title', '')} {d['text']}".strip() for d in docs]


def test_a_vector_does_not_depend_on_its_neighbours():
    """The same bytes whatever batch, order or thread count a text is encoded in."""
    texts = _cranfield_texts(60)
    encoder = SpladeEncoder(
        SpladeSettings(
            model=str(shared_path("models", "splade-tiny")), max_length=128, batch_size=8
        )
    )
    together = encoder.encode(texts).matrix
    assert together.nnz > 0
    reversed_order = encoder.encode(texts[::-1]).matrix[::-1]
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        in_sevens = [encoder.encode(texts[i : i + 7]).matrix for i in range(0, len(texts), 7)]
        alone = [encoder.encode([text]).matrix for text in texts[:12]]
    finally:
        torch.set_num_threads(threads)
    import scipy.sparse as sp

    for other in (reversed_order, sp.vstack(in_sevens), sp.vstack(alone)):
        other = other.tocsr()
        rows = other.shape[0]
        np.testing.assert_array_equal(other.indptr, together[:rows].indptr)
        np.testing.assert_array_equal(other.indices, together[:rows].indices)
        np.testing.assert_array_equal(other.data, together[:rows].data)  # bytes, not close


def test_blocks_hold_one_length_bucket_and_at_most_a_batch():
    encoder = SpladeEncoder(
        SpladeSettings(model=str(shared_path("models", "splade-tiny")), max_length=20, batch_size=2)
    )
    assert encoder.padded_lengths(np.array([1, 8, 9, 65, 129, 250, 300])).tolist() == [
        8,
        8,
        16,
        20,
        20,
        20,
        20,
    ]
    encoder.max_length = 512
    assert encoder.padded_lengths(np.array([65, 129, 250, 300, 1000])).tolist() == [
        80,
        160,
        256,
        320,
        512,
    ]
    lengths = np.array([3, 8, 9, 30, 16, 5, 21])
    encoder.max_length = 20
    blocks = encoder.blocks(lengths)
    assert [(members.tolist(), padded) for members, padded in blocks] == [
        ([3, 6], 20),
        ([2, 4], 16),
        ([0, 1], 8),
        ([5], 8),
    ]


@pytest.mark.slow
def test_splade_runs_do_not_depend_on_the_shard_size(tmp_path):
    """Shards of 1, 7 and the default documents write the same run file, byte for byte
    (partitioned retrieval encodes in smaller shards than a single job). ADI's 82
    documents make one shard at any size from 82 up (500 as the default)."""
    from conftest import run_stages
    from support.samefiles import assert_same_files

    model = {"kind": "splade", "model": str(shared_path("models", "splade-tiny")), "batch_size": 8}
    runs = {
        size: run_stages(shared_path("data", "adi"), tmp_path / str(size), model, size).run
        for size in (100_000, 7, 1)
    }
    for size in (7, 1):
        assert_same_files(runs[size], runs[100_000])


def test_a_pair_run_in_one_process_loads_its_model_once(tmp_path, monkeypatch):
    """run_pair (the API's evaluate_sparse_model) encodes every shard with one encoder:
    loading the model per shard cost more than encoding it (a real SPLADE, hundreds of
    shards). The shards' files are the ones a fresh encoder per shard writes, as the
    workflow's jobs do."""
    from conftest import run_stages
    from support.samefiles import assert_same_files

    import sparsebench.pair
    from sparsebench.encode import stages
    from sparsebench.encode.encoders import make_encoder

    made = []

    def counted(encoding, runtime=None):
        made.append((encoding, runtime))
        return make_encoder(encoding, runtime)

    monkeypatch.setattr(sparsebench.pair, "make_encoder", counted)
    monkeypatch.setattr(stages, "make_encoder", counted)
    model = {"kind": "splade", "model": str(shared_path("models", "splade-tiny"))}
    files = run_stages(shared_path("data", "adi"), tmp_path / "pair", model, 30, k=10)
    shards = sorted((files.encoded / "shards").glob("*.npz"))
    assert len(shards) == 3  # ADI's 82 documents in shards of 30
    assert len(made) == 2  # one encoder for the documents' 3 shards, one for the queries
    encoding, runtime = made[0]
    for i, shard in enumerate(shards):
        alone = tmp_path / "alone" / str(i)
        alone.parent.mkdir(exist_ok=True)
        stages.encode_corpus_shard(
            files.corpus / "corpus.parquet", i, 30, encoding, f"{alone}.npz",
            f"{alone}.terms.txt", runtime=runtime,
        )  # fmt: skip
        assert_same_files(Path(f"{alone}.npz"), shard)
        assert_same_files(Path(f"{alone}.terms.txt"), shard.with_suffix(".terms.txt"))
