"""What a retrieval costs (sparsebench.retrieve.costs) and the efficiency table
(sparsebench.evaluate.efficiency): FLOPS, postings touched and non-zeros against direct
computations on the matrices, partitions adding up to the whole, and the stage's record."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from sparsebench.core.csrfiles import save_csr
from sparsebench.core.errors import DataError
from sparsebench.core.fileio import write_lines
from sparsebench.evaluate import efficiency
from sparsebench.retrieve import costs, stages
from sparsebench.search.postings import BLOCK_DOCS, load_postings
from sparsebench.search.postings_build import save_postings
from sparsebench.search.settings import SearchSettings

N_TERMS = 300


def corpus(n_docs: int, seed: int = 0) -> sp.csr_matrix:
    """Documents of a few hundred terms, spread so that some blocks and documents are
    empty and lengths repeat."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 12, n_docs)
    lengths[rng.random(n_docs) < 0.1] = 0
    rows = np.repeat(np.arange(n_docs), lengths)
    cols = rng.integers(0, N_TERMS, len(rows))
    matrix = sp.csr_matrix(
        (rng.integers(1, 50, len(rows)).astype(np.float64), (rows, cols)), shape=(n_docs, N_TERMS)
    )
    matrix.sum_duplicates()
    return matrix


def queries(n: int, seed: int = 1) -> sp.csr_matrix:
    matrix = sp.random(n, N_TERMS, density=0.02, format="csr", random_state=seed)
    matrix.data = np.ceil(matrix.data * 3)
    return matrix


def term_weights(seed: int = 2) -> np.ndarray:
    weights = np.random.default_rng(seed).random(N_TERMS) + 0.5
    weights[::7] = 0.0  # terms a model weighs 0 are no non-zeros of its queries
    return weights


def record_of(tmp_path, documents, query_matrix, weights, name="postings.npz"):
    """The static part of a cost record (the timings follow in `_timed`)."""
    path = tmp_path / name
    save_postings(path, documents)
    postings = load_postings(path)
    return {
        **costs.index_record(postings, path),
        **costs.query_record(query_matrix, weights, postings.document_frequencies()),
    }


def _timed(record, latency=(1.0, 2.0, 4.0), seconds=2.0):
    return {
        "schema": costs.SCHEMA,
        **record,
        "latency_ms": list(latency),
        "seconds": {"startup": 0.1, "load": 0.5, "retrieval": seconds, "write": 0.25},
        **costs.machine_record(1, "scipy", "cpu", 256),
    }


@pytest.mark.parametrize("n_docs", [500, BLOCK_DOCS + 700])
def test_flops_and_postings_touched_equal_the_direct_computation(tmp_path, n_docs):
    documents, query_matrix, weights = corpus(n_docs), queries(40), term_weights()
    record = record_of(tmp_path, documents, query_matrix, weights)
    doc_pattern = (documents != 0).astype(np.int64)
    weighted = query_matrix.copy()
    weighted.data = weighted.data * weights[weighted.indices]
    weighted.eliminate_zeros()
    query_pattern = (weighted != 0).astype(np.int64)
    products = (query_pattern @ doc_pattern.T).toarray()  # |q & d| for every pair
    assert record["postings_touched"] == products.sum(axis=1).tolist()
    assert record["query_nonzeros"] == np.diff(query_pattern.indptr).tolist()
    row = costs.summary(_timed(record))
    assert row["flops"] == pytest.approx(products.mean(), rel=1e-12)
    lengths = np.diff(documents.indptr)
    assert row["doc_nonzeros_mean"] == pytest.approx(lengths.mean(), rel=1e-12)
    assert row["doc_nonzeros_median"] == np.median(lengths)
    assert row["postings"] == documents.nnz
    touched = products.sum(axis=1)
    assert row["postings_touched_p99"] == pytest.approx(np.percentile(touched, 99))
    assert row["index_mb"] == (tmp_path / "postings.npz").stat().st_size / 2**20


def test_partitions_add_up_to_the_whole(tmp_path):
    documents, query_matrix, weights = corpus(900, seed=5), queries(30, seed=6), term_weights()
    whole = record_of(tmp_path, documents, query_matrix, weights, "whole.npz")
    parts = [
        _timed(
            record_of(tmp_path, documents[rows], query_matrix, weights, f"{i}.npz"), (i + 1.0,) * 3
        )
        for i, rows in enumerate([slice(0, 400), slice(400, 900)])
    ]
    merged = costs.combined(parts)
    for key in ("documents", "postings", "document_nonzeros", "postings_touched", "query_nonzeros"):
        assert merged[key] == whole[key], key
    assert merged["latency_ms"] == [3.0, 3.0, 3.0]  # searched one after the other
    # a partition whose timing budget ran out first: the queries every partition timed
    parts[1]["latency_ms"] = parts[1]["latency_ms"][:2]
    assert costs.combined(parts)["latency_ms"] == [3.0, 3.0]
    assert merged["seconds"]["retrieval"] == 4.0 and merged["partitions"] == 2
    assert costs.summary(merged)["flops"] == costs.summary(_timed(whole))["flops"]


def test_records_of_other_queries_or_versions_are_refused(tmp_path):
    one = _timed(record_of(tmp_path, corpus(50), queries(5), term_weights()))
    other = _timed(record_of(tmp_path, corpus(50), queries(6), term_weights(), "b.npz"))
    with pytest.raises(DataError, match="different query sets"):
        costs.combined([one, other])
    with pytest.raises(DataError, match="no partition cost records"):
        costs.combined([])
    path = tmp_path / "old.json"
    path.write_text(json.dumps({**one, "schema": "something-else"}))
    with pytest.raises(DataError, match="not a retrieval cost record"):
        costs.read_cost(path)


@pytest.mark.parametrize("values", [[3], [1, 5], [4, 1, 1, 9], [2, 2, 7, 7, 7, 0], list(range(11))])
def test_histogram_median_is_numpys(values):
    histogram = {}
    for v in values:
        histogram[str(v)] = histogram.get(str(v), 0) + 1
    assert costs.histogram_median(histogram) == np.median(values)


def test_latency_sample_spreads_over_the_queries():
    assert sorted(costs.latency_sample(10, 100).tolist()) == list(range(10))
    assert sorted(costs.latency_sample(1000, 3).tolist()) == [0, 500, 999]
    assert len(costs.latency_sample(1000, 100)) == 100
    assert costs.latency_sample(1000, 0).tolist() == costs.latency_sample(0, 5).tolist() == []
    # a fixed order, in which any prefix covers the whole range
    sample = costs.latency_sample(1000, 100)
    assert sample.tolist() == costs.latency_sample(1000, 100).tolist()
    assert sample[:10].min() < 250 and sample[:10].max() > 750


def test_single_query_timing_stops_at_its_budget_after_the_minimum():
    def search(rows):
        for r in rows:
            time.sleep(0.002)
            yield int(r), None

    rows = np.arange(50)
    assert len(costs.single_query_latencies(search, rows, budget_seconds=0.0)) == (
        costs.LATENCY_MINIMUM
    )
    assert len(costs.single_query_latencies(search, rows)) == 50
    assert costs.latency_budget(100.0) == 10.0
    assert costs.latency_budget(0.5) == costs.LATENCY_FLOOR_SECONDS


def test_single_query_latencies_time_each_query_after_a_warm_up():
    calls = []

    def search(rows):
        calls.append(rows.tolist())
        yield from ((int(r), None) for r in rows)

    times = costs.single_query_latencies(search, np.array([4, 7, 9]))
    assert calls == [[4], [4, 7, 9]] and len(times) == 3 and (times >= 0).all()
    assert len(costs.single_query_latencies(search, np.zeros(0, dtype=np.int64))) == 0


def test_the_retrieval_stage_records_its_cost_beside_an_unchanged_run(tmp_path):
    documents, query_matrix = corpus(400, seed=8), queries(25, seed=9)
    save_postings(tmp_path / "postings.npz", documents)
    np.save(tmp_path / "idf.npy", term_weights())
    save_csr(tmp_path / "queries.npz", query_matrix)
    write_lines(tmp_path / "query_ids.txt", [f"q{i}" for i in range(25)])
    write_lines(tmp_path / "doc_ids.txt", [f"d{i}" for i in range(400)])
    files = [
        tmp_path / n
        for n in ("postings.npz", "idf.npy", "queries.npz", "query_ids.txt", "doc_ids.txt")
    ]
    stages.retrieve_run(*files, tmp_path / "plain.trec", k=10, tag="m")
    stages.retrieve_run(
        *files, tmp_path / "timed.trec", k=10, tag="m", out_cost=tmp_path / "cost.json",
        search=SearchSettings(latency_queries=7, threads=2),
    )  # fmt: skip
    assert (tmp_path / "plain.trec").read_bytes() == (tmp_path / "timed.trec").read_bytes()
    record = costs.read_cost(tmp_path / "cost.json")
    assert len(record["latency_ms"]) == 7 and record["queries"] == 25
    assert record["threads"] == 2 and record["backend"] == "scipy" and record["device"] == "cpu"
    assert all(record["seconds"][k] >= 0 for k in ("load", "retrieval", "write"))
    in_id_order = np.argsort([f"q{i}" for i in range(25)])  # the order of the run
    expected = record_of(tmp_path, documents, query_matrix[in_id_order], term_weights(), "2.npz")
    assert record["postings_touched"] == expected["postings_touched"]


_IMPORTS_AFTER_STARTUP = """
import sys
from sparsebench.retrieve import costs, stages
from sparsebench.search.settings import SearchSettings

modules = {}
lap = costs.StageTimer.lap


def noted(timer, what):
    modules[what] = set(sys.modules)
    lap(timer, what)


costs.StageTimer.lap = noted
search = SearchSettings(threads=int(sys.argv[7]))
stages.retrieve_run(*sys.argv[1:6], sys.argv[6], k=10, tag="m", search=search)
late = modules["write"] - modules["startup"]
print(" ".join(sorted(name for name in late if not name.startswith("encodings."))))
"""


def stage_files(tmp_path: Path) -> list[Path]:
    """The retrieve stage's inputs for 25 queries over 400 documents: postings, IDF,
    queries, query ids, document ids."""
    files = [tmp_path / n for n in ("p.npz", "idf.npy", "q.npz", "qids.txt", "dids.txt")]
    save_postings(files[0], corpus(400, seed=8))
    np.save(files[1], term_weights())
    save_csr(files[2], queries(25, seed=9))
    write_lines(files[3], [f"q{i}" for i in range(25)])
    write_lines(files[4], [f"d{i}" for i in range(400)])
    return files


@pytest.mark.parametrize("threads", [1, 2])
def test_the_stage_imports_nothing_once_started(tmp_path, threads):
    """Every module the retrieve stage needs is imported at its start-up: an import in
    the middle (pyarrow's pandas shim at the first id conversion, multiprocessing at
    the first progress bar: 3-6 ms each) holds the GIL that the search thread needs,
    and lands in the stage's loading or writing time. Run in a new process, with the
    compiled code cached by a search in this one."""
    files = stage_files(tmp_path)
    stages.retrieve_run(
        *files, tmp_path / "warm.trec", k=10, tag="m", search=SearchSettings(threads=threads)
    )
    script = tmp_path / "imports.py"
    script.write_text(_IMPORTS_AFTER_STARTUP)
    run = [sys.executable, str(script), *map(str, files), str(tmp_path / "r.trec"), str(threads)]
    done = subprocess.run(run, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
    assert (tmp_path / "r.trec").read_bytes() == (tmp_path / "warm.trec").read_bytes()


_NUMBA_LOADED = """
import sys
from sparsebench.retrieve import stages

stages.retrieve_run(*sys.argv[1:6], sys.argv[6], k=int(sys.argv[7]), tag="m")
print("numba" in sys.modules)
"""


def test_a_small_search_never_imports_numba(tmp_path):
    """A run deep for its corpus (no compiled loop pays) and short (numpy writes its
    lines) is searched and written without numba; shallow, the compiled searches and
    numba's runtime are loaded at start-up (the test above): the same lines either way."""
    files = stage_files(tmp_path)
    script = tmp_path / "search.py"
    script.write_text(_NUMBA_LOADED)
    loaded = {}
    for k in (100, 10):
        run = [sys.executable, str(script), *map(str, files), str(tmp_path / f"{k}.trec"), str(k)]
        loaded[k] = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    assert loaded == {100: "False\n", 10: "True\n"}
    deep = (tmp_path / "100.trec").read_text().splitlines()
    assert [line for line in deep if int(line.split()[3]) <= 10] == (
        (tmp_path / "10.trec").read_text().splitlines()
    )


def test_a_tuned_models_row_is_the_variant_of_the_most_evaluated_queries():
    folds = [
        {"variant": "m+b_0.3", "held_out_queries": ["1", "2", "3"]},
        {"variant": "m+b_0.7", "held_out_queries": ["4", "5"]},
        {"variant": "m+b_0.7", "held_out_queries": ["6", "7"]},
    ]
    assert efficiency.chosen_variant({"choices": folds}) == "m+b_0.7"
    assert efficiency.chosen_variant({"choices": folds[:2]}) == "m+b_0.3"
    tie = [{"variant": "z", "held_out_queries": ["1"]}, {"variant": "a", "held_out_queries": ["2"]}]
    assert efficiency.chosen_variant({"choices": tie}) == "a"
    assert efficiency.chosen_variant({"choices": [{"variant": "x"}]}) == "x"  # a training split
    with pytest.raises(DataError, match="names no variant"):
        efficiency.chosen_variant({"model": "m", "choices": []})


def test_the_efficiency_table_reads_each_pairs_records(tmp_path):
    record = _timed(record_of(tmp_path, corpus(60), queries(8), term_weights()))
    costs.write_cost(tmp_path / "bm25.json", record)
    (tmp_path / "shard0.json").write_text(
        json.dumps({"documents": 40, "seconds": 2.0, "device": "cpu", "threads": 1})
    )
    (tmp_path / "shard1.json").write_text(
        json.dumps({"documents": 20, "seconds": 1.0, "device": "cpu", "threads": 1})
    )
    sources = {
        "bm25/d": {
            "searched": {"bm25": str(tmp_path / "bm25.json")},
            "encoded": {"bm25": [str(tmp_path / "shard0.json"), str(tmp_path / "shard1.json")]},
        }
    }
    table = efficiency.efficiency_table(sources)
    row = table.iloc[0]
    assert row["encoding_docs_per_second"] == 20.0 and row["queries_per_second"] == 4.0
    assert row["latency_p50_ms"] == 2.0 and row["measured_on"] == "bm25"
    columns = efficiency.leaderboard_columns(table, ["bm25", "splade"], ["d"])
    assert columns["flops:d"][0] == row["flops"] and np.isnan(columns["flops:d"][1])
    assert columns["postings_per_query:d"][0] == row["postings_touched_mean"]
    grouped = efficiency.leaderboard_columns(table, ["bm25"], ["d", "e"], {"d": "g", "e": "g"})
    assert np.isnan(grouped["flops:g"][0])  # a group's mean needs every member's row
    # a cost's columns stand together, as the docs list them (outputs.py)
    assert list(efficiency.leaderboard_columns(table, ["bm25"], ["d", "e"])) == [
        "flops:d",
        "flops:e",
        "postings_per_query:d",
        "postings_per_query:e",
    ]
    assert "| bm25 | d |" in efficiency.markdown(table)
    with pytest.raises(DataError, match="no cost record of 'other'"):
        efficiency.efficiency_table({"other/d": {"searched": {}, "encoded": {}}})


def test_the_stage_uses_batches_while_the_next_are_made():
    """StageTimer.alongside makes items in a thread of its own from the moment its
    block is entered (items 0 and 1 are made before the caller takes any, as the stage
    prepares its writing), charges the making to one account and the time beyond it to
    the other, and hands on an error of the making where its item would have come."""
    timer = costs.StageTimer()
    next_made = threading.Event()
    makers = []

    def made():
        for item in range(3):
            makers.append(threading.get_ident())
            time.sleep(0.01)
            if item == 1:
                next_made.set()
            yield item

    with timer.alongside("retrieval", made(), "write", depth=2) as items:
        assert next_made.wait(timeout=30)  # deadlocks (and fails) unless made meanwhile
        used = list(items)
    assert used == [0, 1, 2]
    assert threading.get_ident() not in makers
    assert timer.seconds["retrieval"] >= 0.03 and timer.seconds["write"] >= 0

    def failing():
        yield 0
        raise DataError("broken batch")

    with (
        pytest.raises(DataError, match="broken batch"),
        timer.alongside("retrieval", failing(), "write", depth=2) as items,
    ):
        list(items)
