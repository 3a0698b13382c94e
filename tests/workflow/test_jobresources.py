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


def test_a_search_takes_a_second_thread_only_when_it_is_large(tmp_path):
    """Queries times index bytes: SciFact's 300 queries over its 3.4 MB index take one
    thread (two are slower there), 1,000 queries over a 263 MB index two; before the
    inputs exist (the plan's first pass), the most."""
    queries, postings = tmp_path / "query_ids.txt", tmp_path / "postings.npz"
    assert jobresources.search_threads(queries, postings) == jobresources.SEARCH_THREADS == 2
    queries.write_text("".join(f"q{i}\n" for i in range(300)))
    postings.write_bytes(b"\0" * 3_435_806)
    assert jobresources.search_threads(queries, postings) == 1
    queries.write_text("".join(f"q{i}\n" for i in range(1000)))
    with open(postings, "r+b") as grown:
        grown.truncate(263 * 2**20)
    assert jobresources.search_threads(queries, postings) == 2
    # the bound itself: queries x bytes at SHARED_WORK shares the search
    with open(postings, "r+b") as cut:
        cut.truncate(jobresources.SHARED_WORK // 1000)
    assert jobresources.search_threads(queries, postings) == 2
    with open(postings, "r+b") as cut:
        cut.truncate(jobresources.SHARED_WORK // 1000 - 1)
    assert jobresources.search_threads(queries, postings) == 1


def test_a_neural_encoding_takes_its_threads_only_for_enough_texts(tmp_path):
    """Texts times the model's bytes: ADI's 82 documents with the 18 MB splade-tiny take
    one thread, 1,000 of them the encoding's; a hub model (no local files) or texts not
    counted yet, the encoding's; BM25's one thread stays one."""
    model = tmp_path / "model.safetensors"
    with open(model, "wb") as weights:
        weights.truncate(17_671_552)
    assert jobresources.encode_threads(4, 82, [str(model)]) == 1
    assert jobresources.encode_threads(4, 1000, [str(model)]) == 4
    assert jobresources.encode_threads(4, None, [str(model)]) == 4
    assert jobresources.encode_threads(4, 82, []) == 4
    assert jobresources.encode_threads(1, 10**9, [str(model)]) == 1


def test_shard_and_query_counts_come_from_the_prepared_summaries(tmp_path):
    corpus, dataset = tmp_path / "corpus.json", tmp_path / "dataset.json"
    assert jobresources.shard_documents(corpus, 0, 100) is None
    assert jobresources.judged_queries(dataset, "evaluation") is None
    corpus.write_text('{"n_docs": 250}')
    assert [jobresources.shard_documents(corpus, s, 100) for s in range(3)] == [100, 100, 50]
    dataset.write_text('{"n_judged_queries": 35, "n_tuning_queries": 7}')
    assert jobresources.judged_queries(dataset, "evaluation") == 35
    assert jobresources.judged_queries(dataset, "tuning") == 7
