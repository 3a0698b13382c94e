"""A run file evaluated while it is read (evaluate_run_file): the same values, bit for
bit, as the whole run read first and evaluated as a frame, whatever the blocks and
slices; and the same errors, naming the same lines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from support.trec_eval_reference import CUTOFFS, random_case

from sparsebench.core.errors import DataError
from sparsebench.core.strings import take_rows
from sparsebench.evaluate.coverage import query_overlap
from sparsebench.evaluate.measures import default_metric_names
from sparsebench.evaluate.metrics import evaluate_run, evaluate_run_file
from sparsebench.runs.runfile import misordered_queries, read_run


def write_run(path, run: pd.DataFrame, separator: str = " ") -> None:
    lines = [
        separator.join([q, "Q0", d, str(rank), repr(float(s)), "tag"]) + "\n"
        for rank, (q, d, s) in enumerate(run.itertuples(index=False), start=1)
    ]
    path.write_text("".join(lines))


def assert_same_evaluation(streamed, whole) -> None:
    pd.testing.assert_frame_equal(streamed.per_query, whole.per_query, check_exact=True)
    assert streamed.means == whole.means
    assert (streamed.n_evaluated, streamed.n_in_run, streamed.n_qrels_queries) == (
        whole.n_evaluated,
        whole.n_in_run,
        whole.n_qrels_queries,
    )


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("query_set", ["run", "complete"])
@pytest.mark.parametrize("separator", [" ", "\t"])
def test_a_run_file_read_in_blocks_gives_the_values_of_the_whole_run(
    tmp_path, seed, query_set, separator
):
    """Blocks of a few lines (a query's rows spread over several blocks, a block ending
    inside a query), slices of one query or several, one thread or two."""
    run, qrels = random_case(seed)
    path = tmp_path / "run.trec"
    write_run(path, run, separator)
    names = default_metric_names(CUTOFFS)
    whole = evaluate_run(read_run(path), qrels, names, query_set=query_set, slice_rows=None)
    expected_overlap = query_overlap(run["query_id"], qrels["query_id"])
    for block_bytes, slice_rows, threads in ((256, 1, 1), (700, 37, 2), (4096, 400, 2)):
        streamed = evaluate_run_file(
            path,
            qrels,
            names,
            query_set=query_set,
            threads=threads,
            slice_rows=slice_rows,
            block_bytes=block_bytes,
        )
        assert_same_evaluation(streamed.evaluation, whole)
        assert streamed.overlap == expected_overlap
        assert streamed.misordered == misordered_queries(read_run(path))


def test_a_query_whose_rows_come_back_later_is_evaluated_whole(tmp_path):
    """A judged query listed in two places of the file: its rows are ranked together,
    as trec_eval ranks them, though a slice had already taken the first ones."""
    run, qrels = random_case(3)
    split = pd.concat([run.iloc[1:], run.iloc[:1]])
    path = tmp_path / "run.trec"
    write_run(path, split)
    names = default_metric_names(CUTOFFS)
    whole = evaluate_run(split, qrels, names, slice_rows=None)
    streamed = evaluate_run_file(path, qrels, names, slice_rows=10, block_bytes=300)
    assert_same_evaluation(streamed.evaluation, whole)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("q7 Q0 doc1 1 0.5", r"line 2001 has 5 fields, expected 6"),
        ("q7 Q0 doc1 1 nan tag", r"line 2001: score 'nan' is not a number"),
        ("q7 Q0 doc1 1 high tag", r"line 2001: score 'high' is not a number"),
        ("q7  Q0 doc1 1 0.5 tag", None),  # two spaces: the general reader reads it
    ],
)
def test_a_bad_line_far_into_the_file_is_named_as_when_read_whole(tmp_path, bad, message):
    """Blocks already evaluated do not hide a line the fast reader cannot take: the file
    is then read whole, and the error names the line, or the run is evaluated as it is."""
    run, qrels = random_case(4, n_queries=200)
    lines = [
        f"{q} Q0 {d} {rank} {s!r} tag\n"
        for rank, (q, d, s) in enumerate(run.itertuples(index=False), start=1)
    ]
    assert len(lines) > 2001
    lines[2000] = bad + "\n"
    path = tmp_path / "run.trec"
    path.write_text("".join(lines))
    if message is None:
        streamed = evaluate_run_file(path, qrels, ["MAP"], block_bytes=1024)
        whole = evaluate_run(read_run(path), qrels, ["MAP"])
        assert_same_evaluation(streamed.evaluation, whole)
        return
    with pytest.raises(DataError, match=message):
        evaluate_run_file(path, qrels, ["MAP"], block_bytes=1024, slice_rows=50)


def test_a_repeated_document_in_a_streamed_run_is_an_error(tmp_path):
    run, qrels = random_case(5)
    first = run.iloc[:1]
    repeated = pd.concat([first, run]).reset_index(drop=True)
    path = tmp_path / "run.trec"
    write_run(path, repeated)
    query, doc = first["query_id"].iloc[0], first["doc_id"].iloc[0]
    with pytest.raises(DataError, match=rf"document '{doc}' more than once for query '{query}'"):
        evaluate_run_file(path, qrels, ["MAP"], block_bytes=256, slice_rows=5)


def test_a_streamed_run_that_shares_no_query_with_the_qrels_is_refused(tmp_path):
    run, qrels = random_case(6)
    path = tmp_path / "run.trec"
    write_run(path, run.assign(query_id="Q" + run["query_id"]))
    with pytest.raises(DataError, match="the run and the qrels share no query id"):
        evaluate_run_file(path, qrels, ["MAP"], block_bytes=256)


@pytest.mark.parametrize("seed", range(4))
def test_rows_taken_from_a_chunked_array_are_arrows_take(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, 40, size=12)
    chunks = [
        pa.array([f"s{seed}-{i}-{j}" for j in range(n)], pa.string()) for i, n in enumerate(sizes)
    ]
    values = pa.chunked_array(chunks, pa.string())
    for rows in (
        np.sort(rng.integers(0, len(values), size=30)),
        rng.integers(0, len(values), size=30),
        np.zeros(0, dtype=np.int64),
    ):
        expected = values.combine_chunks().take(pa.array(rows, type=pa.int64()))
        assert take_rows(values, rows).equals(expected)
    with pytest.raises(IndexError):
        take_rows(values, np.array([len(values)]))


def test_queries_written_out_of_score_order_are_named_as_when_read_whole(tmp_path):
    """A rise of score inside a query, in float64 as written (one that float32 would
    round away included), in any slice; a rise where the next query starts is not one."""
    run, qrels = random_case(7)
    run = run.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
    rows = run.reset_index(drop=True)
    for query, bump in (("q3", 1.0), ("q40", 1e-12)):
        at = rows.index[rows["query_id"] == query][1]
        rows.loc[at, "score"] = rows.loc[at - 1, "score"] + bump
    path = tmp_path / "run.trec"
    write_run(path, rows)
    streamed = evaluate_run_file(path, qrels, ["MAP"], slice_rows=7, block_bytes=256)
    assert streamed.misordered == misordered_queries(read_run(path)) == ["q3", "q40"]
