"""`sparsebench evaluate` and `compare` on Cranfield's judgments (../shared/data/cranfield,
read in place): run ids that do not match the qrels are named in a warning (or refused
with --strict), and runs and datasets get names from their paths."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import shared_path

from sparsebench.cli import main


@pytest.fixture(scope="module")
def qrels() -> Path:
    return shared_path("data", "cranfield", "qrels", "test.tsv")


def write_run(path: Path, qrels: Path, seed: int, spell=str, extra: int = 0) -> Path:
    """A run of every judged query: its judged documents and 30 random ones, shuffled;
    `spell` writes a query id; `extra` unjudged queries are added."""
    judged = pd.read_csv(qrels, sep="\t", dtype=str)
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    groups = list(judged.groupby("query-id", sort=False)["corpus-id"])
    groups += [(f"unjudged-{i}", []) for i in range(extra)]
    for query_id, docs in groups:
        ranked = list(dict.fromkeys([*docs, *(str(rng.randint(1, 1400)) for _ in range(30))]))
        rng.shuffle(ranked)
        lines += [
            f"{spell(query_id)} Q0 {doc} {rank} {100 - rank} test"
            for rank, doc in enumerate(ranked[:20], 1)
        ]
    path.write_text("\n".join(lines) + "\n")
    return path


def padded(query_id: str) -> str:
    """Cranfield's ids 1..99 written with leading zeros, as some tools write them."""
    return f"{int(query_id):03d}"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sparsebench.cli", *args], capture_output=True, text=True
    )


def test_run_ids_that_miss_the_qrels_are_named_in_a_warning_quiet_does_not_hide(tmp_path, qrels):
    run = write_run(tmp_path / "padded.trec", qrels, seed=1, spell=padded)
    exact = write_run(tmp_path / "exact.trec", qrels, seed=1)
    common = ["evaluate", "--qrels", str(qrels), "--metrics", "nDCG@10", "--quiet"]
    result = cli(*common, "--run", str(run))
    assert result.returncode == 0
    warning = result.stderr
    assert warning.startswith("WARNING")
    assert "99 of the 225 queries of the qrels are missing from the run (e.g. '1', '2'" in warning
    assert "99 of the 225 queries of the run are not in the qrels (e.g. '001', '002'" in warning
    assert "the missing queries score 0" in warning
    assert "run '001' vs qrels '1': leading zeros" in warning
    # the warning explains the lower score: 99 queries count 0
    partial = json.loads(result.stdout)["nDCG@10"]
    complete = cli(*common, "--run", str(exact))
    assert complete.returncode == 0 and complete.stderr == ""
    assert partial < json.loads(complete.stdout)["nDCG@10"]


def test_strict_refuses_a_run_that_misses_judged_queries(tmp_path, qrels, capsys):
    run = write_run(tmp_path / "padded.trec", qrels, seed=1, spell=padded)
    status = main(["evaluate", "--qrels", str(qrels), "--run", str(run), "--strict", "--quiet"])
    captured = capsys.readouterr()
    assert status == 1 and captured.out == ""
    assert "error: run" in captured.err and "99 of the 225 queries of the qrels" in captured.err
    assert "(--strict)" in captured.err


def test_strict_accepts_a_run_with_unjudged_queries_too(tmp_path, qrels, capsys):
    run = write_run(tmp_path / "more.trec", qrels, seed=1, extra=3)
    status = main(["evaluate", "--qrels", str(qrels), "--run", str(run), "--strict", "--quiet"])
    captured = capsys.readouterr()
    assert status == 0 and "nDCG@10" in json.loads(captured.out)
    assert "WARNING" not in captured.err


def test_help_documents_strict_and_the_exit_status(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--strict" in text and "exit with status 1" in text
    assert "exit status: 0 done; 1 an error in the input (or --strict refused)" in text


def test_compare_names_runs_of_one_file_name_by_their_folders(tmp_path, qrels, capsys):
    first = write_run(tmp_path / "a" / "cranfield.trec", qrels, seed=1)
    second = write_run(tmp_path / "b" / "cranfield.trec", qrels, seed=2)
    args = ["compare", "--qrels", str(qrels), "--runs", str(first), str(second)]
    assert main([*args, "--resamples", "100", "--quiet"]) == 0
    report = capsys.readouterr().out
    assert "## cranfield: nDCG@10" in report  # the dataset, not the qrels file (test)
    assert "| b | a |" in report
    assert f"- run a: {first}" in report
    assert main([*args, "--dataset", "Cranfield 1400", "--resamples", "100", "--quiet"]) == 0
    assert "## Cranfield 1400: nDCG@10" in capsys.readouterr().out


def test_compare_warns_about_each_run_that_misses_judged_queries(tmp_path, qrels, capsys):
    runs = [
        write_run(tmp_path / "exact.trec", qrels, seed=1),
        write_run(tmp_path / "padded.trec", qrels, seed=1, spell=padded),
    ]
    args = ["compare", "--qrels", str(qrels), "--runs", *map(str, runs), "--resamples", "100"]
    result = cli(*args, "--quiet")
    assert result.returncode == 0
    assert result.stderr.count("WARNING") == 1
    assert "run padded.trec" in result.stderr and "'001' vs qrels '1'" in result.stderr
    assert main([*args, "--strict", "--quiet"]) == 1


@pytest.mark.parametrize(
    ("paths", "names"),
    [
        (["x/bm25.trec", "y/splade.trec"], ["bm25.trec", "splade.trec"]),
        (["a/cranfield.trec", "b/cranfield.trec"], ["a", "b"]),
        (["r1/bm25/c.trec", "r2/bm25/c.trec"], ["r1", "r2"]),
        (["x/a.trec", "y/a.trec", "b.trec"], ["x/a.trec", "y/a.trec", "b.trec"]),
    ],
)
def test_run_names_are_the_shortest_ends_of_their_paths(tmp_path, monkeypatch, paths, names):
    from sparsebench.cli import run_names

    monkeypatch.chdir(tmp_path)
    assert run_names(paths) == names


def test_dataset_name_of_a_qrels_file():
    from sparsebench.cli import dataset_name

    assert dataset_name("/data/cranfield/qrels/test.tsv") == "cranfield"
    assert dataset_name("results/data/scifact/qrels.tsv") == "scifact"
    assert dataset_name("/tmp/robust04.qrels") == "robust04"


def test_the_command_starts_without_the_heavy_libraries():
    """`sparsebench --help` and argument errors come back at once: the command's module
    imports neither pandas, pyarrow, scipy nor torch (each command imports what it uses)."""
    import subprocess
    import sys

    code = (
        "import sys, sparsebench.cli; "
        "print(sorted(m for m in ('pandas', 'pyarrow', 'scipy', 'torch') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
