"""`sparsebench evaluate` on files: formats, options, and errors that name file and line."""

from __future__ import annotations

import json

import pytest
from support.trec_eval_reference import random_case, trec_eval

from sparsebench.cli import main
from sparsebench.evaluate.metrics import evaluate_run


@pytest.fixture
def files(tmp_path):
    run, qrels = random_case(11)
    run_path, qrels_path, trec_qrels = tmp_path / "run.trec", tmp_path / "q.tsv", tmp_path / "q.txt"
    with open(run_path, "w") as handle:
        for i, (q, d, s) in enumerate(run.itertuples(index=False)):
            handle.write(f"{q} Q0 {d} {i} {s} tag\n")
    qrels_path.write_text(
        "query-id\tcorpus-id\tscore\n"
        + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in qrels.itertuples(index=False))
    )
    trec_qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    return run, qrels, run_path, qrels_path, trec_qrels


def test_means_as_json_equal_trec_eval(files, capsys):
    run, qrels, run_path, qrels_path, _ = files
    assert (
        main(
            [
                "evaluate",
                "--qrels",
                str(qrels_path),
                "--run",
                str(run_path),
                "--query-set",
                "run",
                "--quiet",
            ]
        )
        == 0
    )
    means = json.loads(capsys.readouterr().out)
    reference = trec_eval(run, qrels)
    for ours, theirs in [
        ("nDCG@10", "ndcg_cut_10"),
        ("Recall@100", "recall_100"),
        ("MAP", "map"),
        ("MRR", "recip_rank"),
        ("R-Precision", "Rprec"),
        ("bpref", "bpref"),
        ("P@10", "P_10"),
    ]:
        assert means[ours] == pytest.approx(reference[theirs].mean(), abs=1e-9)
    assert {"R_cap@100", "MAP@100", "MRR@10", "Success@10", "F1@10", "gMAP"} <= set(means)


def test_trec_qrels_per_query_tsv(files, capsys):
    run, qrels, run_path, _, trec_qrels = files
    assert (
        main(
            [
                "evaluate",
                "--qrels",
                str(trec_qrels),
                "--run",
                str(run_path),
                "--metrics",
                "MAP,nDCG@5",
                "--per-query",
                "--format",
                "tsv",
                "--quiet",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "query_id\tmetric\tvalue"
    values = {(q, m): float(v) for q, m, v in (line.split("\t") for line in lines[1:])}
    reference = trec_eval(run, qrels)
    assert values[("q0", "MAP")] == pytest.approx(reference["map"]["q0"], abs=1e-12)
    assert {m for _, m in values} == {"MAP", "nDCG@5"}


@pytest.mark.parametrize(
    ("run_text", "message"),
    [
        ("q0 Q0 d1 1 1.0 t\nq0 Q0 d2 2 0.5\n", "line 2 has 5 fields"),
        ("q0 Q0 d1 1 1.0 t\nq0 Q0 d2 2 high t\n", "line 2: score 'high' is not a number"),
        ("q0 Q0 d1 1 1.0 t\nq0 Q0 d1 2 0.5 t\n", "more than once"),
        ("q0 Q0 d1 1 1.0 t extra\n", "has 7 fields"),
        ("", "empty"),
    ],
)
def test_bad_run_files_are_named_with_their_line(files, tmp_path, capsys, run_text, message):
    bad = tmp_path / "bad.trec"
    bad.write_text(run_text)
    assert main(["evaluate", "--qrels", str(files[3]), "--run", str(bad), "--quiet"]) == 1
    error = capsys.readouterr().err
    assert message in error
    if "line" in message:
        assert str(bad) in error


def test_a_run_that_is_missing_or_compressed_is_named(files, tmp_path, capsys):
    """The run is read in a thread from the command's start: its errors still reach the
    command's one-line error."""
    import gzip

    missing = tmp_path / "missing.trec"
    assert main(["evaluate", "--qrels", str(files[3]), "--run", str(missing), "--quiet"]) == 1
    assert f"{missing}: No such file or directory" in capsys.readouterr().err
    packed = tmp_path / "packed.trec"
    packed.write_bytes(gzip.compress(files[2].read_bytes()))
    assert main(["evaluate", "--qrels", str(files[3]), "--run", str(packed), "--quiet"]) == 1
    assert f"{packed} line 1: gzip-compressed" in capsys.readouterr().err


def test_bad_qrels_line_is_named(files, tmp_path, capsys):
    bad = tmp_path / "bad.tsv"
    bad.write_text("query-id\tcorpus-id\tscore\nq0\td1\t1\nq0\td2\tyes\n")
    assert main(["evaluate", "--qrels", str(bad), "--run", str(files[2]), "--quiet"]) == 1
    assert f"{bad}: line 3: grade 'yes' is not an integer" in capsys.readouterr().err


def test_unknown_metric_is_refused(files):
    with pytest.raises(SystemExit):
        main(["evaluate", "--qrels", str(files[3]), "--run", str(files[2]), "--metrics", "NDCG@10"])


@pytest.mark.parametrize("threads", ["0", "-1", "two"])
def test_threads_must_be_a_positive_count(files, capsys, threads):
    with pytest.raises(SystemExit):
        main(["evaluate", "--qrels", str(files[3]), "--run", str(files[2]), "--threads", threads])
    assert f"argument --threads: a positive integer, not '{threads}'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_threads_change_no_output(files, capsys, tmp_path, command):
    other = tmp_path / "other.trec"
    other.write_text("".join(reversed(files[2].read_text().splitlines(keepends=True))))
    run = str(files[2])
    runs = ["--runs", run, str(other)] if command == "compare" else ["--run", run]
    args = [command, "--qrels", str(files[3]), *runs, "--format", "tsv"]
    if command == "evaluate":
        args.append("--per-query")
    outputs = []
    for threads in ("1", "3"):
        assert main([*args, "--threads", threads, "--quiet"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") > 3


def test_check_config(capsys, tmp_path):
    config = tmp_path / "c.yaml"
    datasets = "datasets: {d: {source: builtin, name: minibeir}}\n"
    config.write_text(datasets + "models: {m: {kind: bm25}}\n")
    assert main(["check-config", str(config)]) == 0
    assert "k1: 0.9" in capsys.readouterr().out
    config.write_text(datasets + "models: {m: {kind: x}}\n")
    assert main(["check-config", str(config)]) == 1
    assert "unknown model kind 'x'" in capsys.readouterr().err


def test_check_config_names_a_dataset_folder_that_does_not_exist(capsys, tmp_path):
    """As the workflow refuses it before any job (docs/index.md's example)."""
    config = tmp_path / "c.yaml"
    config.write_text(
        "datasets: {mine: {source: local, path: /nonexistent/mine}}\nmodels: {m: {kind: bm25}}\n"
    )
    assert main(["check-config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sparsebench check-config: error: config.datasets.mine: ")
    assert "/nonexistent/mine does not exist" in err


def test_check_config_names_file_and_line_of_broken_yaml(tmp_path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text("datasets:\n  d: {source: builtin, name: minibeir\nmodels: {}\n")
    assert main(["check-config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sparsebench check-config: error: {config}:3: not valid YAML: ")
    assert len(err.strip().splitlines()) == 1


def test_a_full_disk_is_one_line_naming_the_file(tmp_path, monkeypatch, capsys):
    import errno
    import io

    class FullDisk(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    config = tmp_path / "c.yaml"
    config.write_text(
        "datasets: {d: {source: builtin, name: minibeir}}\nmodels: {b: {kind: bm25}}\n"
    )
    monkeypatch.setattr("sys.stdout", FullDisk())
    assert main(["check-config", str(config)]) == 1
    expected = "sparsebench check-config: error: standard output: No space left on device\n"
    assert capsys.readouterr().err == expected


def test_a_job_on_a_full_disk_fails_with_one_line_naming_the_output(tmp_path, capsys):
    import errno

    from sparsebench.core.fileio import atomic_path
    from sparsebench.workflow.logs import stage_logging

    out = tmp_path / "results" / "x.json"
    with (
        pytest.raises(SystemExit) as exited,
        stage_logging(tmp_path / "x.log", "x"),
        atomic_path(out),
    ):
        raise OSError(errno.ENOSPC, "No space left on device")
    assert exited.value.code == 1
    log = (tmp_path / "x.log").read_text()
    assert f"ERROR sparsebench.x: x failed: {out}: No space left on device\n" in log
    assert "Traceback" not in log + capsys.readouterr().err


def test_per_query_tsv_is_written_as_pandas_writes_it():
    """The per-query TSV's own writer gives pandas' to_csv bytes, ids that need quoting
    and missing values included."""
    import numpy as np
    import pandas as pd

    from sparsebench.evaluate.metrics import per_query_tsv

    table = pd.DataFrame(
        {"nDCG@10": [0.1, np.nan, 1 / 3, 0.0], 'a"b': [1.0, 2.5e-20, 7.0, 1e300]},
        index=pd.Index(["q1", 'q"2', "q\t3", "q\n4"], name="query_id"),
    )
    long = table.reset_index().melt(id_vars="query_id", var_name="metric", value_name="value")
    expected = long.to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.17g")
    assert per_query_tsv(table) == expected


@pytest.mark.parametrize("level", ["0", "-2", "high"])
def test_a_relevance_level_below_one_is_refused(files, capsys, level):
    with pytest.raises(SystemExit):
        main(
            [
                "evaluate",
                "--qrels",
                str(files[3]),
                "--run",
                str(files[2]),
                "--relevance-level",
                level,
            ]
        )
    error = capsys.readouterr().err
    assert (
        f"argument --relevance-level: a relevance level is a grade of 1 or more, not '{level}'"
        in error
    )


def test_names_with_several_parameters_are_read_whole(files, capsys):
    """A comma inside a name's parentheses is the name's own, not a separator: the values
    are the API's for the same names."""
    run, qrels, run_path, qrels_path, _ = files
    names = ["P(rel=2,unjudged=relevant)@10", "nDCG@10", "MAP(rel=2,judged_only=True)"]
    arguments = ["--qrels", str(qrels_path), "--run", str(run_path), "--quiet"]
    assert main(["evaluate", *arguments, "--metrics", ", ".join(names)]) == 0
    means = json.loads(capsys.readouterr().out)
    assert list(means) == names
    expected = evaluate_run(run, qrels, names).means
    assert means == pytest.approx({name: expected[name] for name in names}, abs=1e-12)
