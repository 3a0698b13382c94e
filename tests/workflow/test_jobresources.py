"""What jobs ask a scheduler for follows the shard, the encoder and the index."""

from __future__ import annotations

from sparsebench.kinds.registry import kind_of
from sparsebench.workflow import jobresources
from sparsebench.workflow.config import validate_config

CONFIG = validate_config(
    {
        "datasets": {"d": {"source": "builtin", "name": "minibeir"}},
        "models": {
            "bm25": {"kind": "bm25"},
            "splade": {"kind": "splade", "model": "naver/splade-cocondenser-ensembledistil"},
            "splade-cpu": {
                "kind": "splade",
                "model": "naver/splade-cocondenser-ensembledistil",
                "device": "cpu",
            },
        },
    }
)
BM25, SPLADE, SPLADE_CPU = (
    kind_of(entry).hardware(entry)
    for entry in (CONFIG["models"][m] for m in ("bm25", "splade", "splade-cpu"))
)


def test_encode_jobs_grow_with_the_shard_and_ask_a_gpu_only_for_learned_encoders():
    assert jobresources.encode_gpus(SPLADE) == 1
    assert jobresources.encode_gpus(SPLADE_CPU) == jobresources.encode_gpus(BM25) == 0
    for model in (BM25, SPLADE, SPLADE_CPU):
        small = jobresources.encode_memory_mb(model, 1_000)
        assert jobresources.encode_memory_mb(model, 100_000) > small > 0
        assert jobresources.encode_runtime_min(model, 1_000) == jobresources.MIN_RUNTIME_MIN
    big = 1_000_000
    assert (
        jobresources.encode_runtime_min(SPLADE_CPU, big)
        > jobresources.encode_runtime_min(SPLADE, big)
        > jobresources.encode_runtime_min(BM25, big)
    )
    assert jobresources.encode_memory_mb(SPLADE, big) > jobresources.encode_memory_mb(BM25, big)


def test_retrieve_memory_follows_the_index_and_the_block_budget(tmp_path):
    index = tmp_path / "postings.npz"
    budget = CONFIG["retrieval"]["max_block_mb"]
    empty = jobresources.retrieve_memory_mb(index, budget)  # not written yet
    assert empty == CONFIG["retrieval"]["max_block_mb"] + 512
    index.write_bytes(b"\0" * 100 * 2**20)
    assert jobresources.retrieve_memory_mb(index, budget) == empty + 130


def test_matrix_jobs_ask_for_the_matrices_they_hold(tmp_path):
    shards = [tmp_path / "0.npz", tmp_path / "1.npz"]
    assert jobresources.matrix_memory_mb(shards) == 1024  # not written yet
    for shard in shards:
        shard.write_bytes(b"\0" * 100 * 2**20)
    assert jobresources.matrix_memory_mb(shards) == 1024 + 230
