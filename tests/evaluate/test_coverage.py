"""A run that covers only some of the evaluated queries is never reported silently: the
evaluate job warns, its manifest records the counts, and the leaderboard and the
significance report mark it, saying how many queries of how many."""

from __future__ import annotations

import logging

import pandas as pd
import pytest
import yaml
from conftest import TINY_DOCS, TINY_QRELS, TINY_QUERIES, write_collection

from sparsebench.evaluate import stages
from sparsebench.evaluate.coverage import Coverage

SETTINGS = {"cutoffs": [10], "metrics": ["nDCG@10"], "query_set": "complete", "relevance_level": 1}


def _run(path, queries):
    """A run of the tiny collection with each query's judged documents first."""
    lines = []
    for q in queries:
        docs = [d for qid, d, _ in TINY_QRELS if qid == q] + ["d7"]
        lines += [f"{q} Q0 {d} {r + 1} {10 - r} ext\n" for r, d in enumerate(docs)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines))
    return path


def test_evaluate_warns_of_a_partial_run_and_counts_its_queries(tmp_path, caplog):
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("".join(f"{q}\t{d}\t{g}\n" for q, d, g in TINY_QRELS))
    run = _run(tmp_path / "run.trec", ["q1"])
    with caplog.at_level(logging.WARNING):
        covered = stages.evaluate(run, qrels, SETTINGS, tmp_path / "m.json", tmp_path / "pq.tsv")
    assert covered == Coverage(in_run=1, judged=4) and covered.partial
    assert "PARTIAL RUN, results for 1 of 4 queries" in caplog.text
    assert "3 of the 4 queries of the qrels are missing from the run" in caplog.text


@pytest.mark.slow
def test_the_workflow_marks_a_partial_run_everywhere(tmp_path):
    """As `sparsebench evaluate` does, and visible under `snakemake --quiet`: the job's
    stderr and log say it, the leaderboard cell and row and the significance report too."""
    from support.snakemake_runs import snakemake

    experiment = tmp_path / "exp"
    write_collection(experiment / "col", TINY_DOCS, TINY_QUERIES, TINY_QRELS)
    _run(experiment / "full" / "col.trec", ["q1", "q2", "q3", "q4"])
    _run(experiment / "part" / "col.trec", ["q1"])
    configfile = experiment / "c.yaml"
    configfile.write_text(
        yaml.safe_dump(
            {
                "datasets": {"col": {"source": "local", "path": "col"}},
                "models": {
                    "full": {"kind": "run", "path": "full/{dataset}.trec"},
                    "part": {"kind": "run", "path": "part/{dataset}.trec"},
                },
                "significance": {"baseline": "full", "resamples": 100, "tests": ["t-test"]},
            }
        )
    )
    work = tmp_path / "work"
    html = "results/report/leaderboard.html"
    targets = ["results/leaderboard.md", "results/significance.md", html, "--quiet"]
    result = snakemake(work, *targets, configfile=configfile)
    assert "PARTIAL RUN, results for 1 of 4 queries" in result.stderr
    log = (work / "results/logs/evaluate/part/col.log").read_text()
    assert "PARTIAL RUN, results for 1 of 4 queries" in log
    assert "PARTIAL" not in (work / "results/logs/evaluate/full/col.log").read_text()
    board = (work / "results/leaderboard.md").read_text()
    assert "| part | 0.2376 (partial: 1 of 4 queries) | 0.2376 (counts a partial run) |" in board
    assert "PARTIAL: part on col: the run has results for 1 of 4 queries evaluated" in board
    table = pd.read_csv(work / "results/leaderboard.tsv", sep="\t", index_col="model")
    assert table.loc["part", "partial"] == "col: 1 of 4 queries"
    assert pd.isna(table.loc["full", "partial"])
    report = (work / "results/significance.md").read_text()
    assert "PARTIAL: part on col" in report and "| part (PARTIAL run) | full |" in report
    tex = (work / "results/leaderboard.tex").read_text()  # the table for a paper too
    assert r"b & part & 0.2376$^{\dagger}$ & 0.2376$^{\dagger}$ \\" in tex
    assert r"a & full & \textbf{" in tex and r"$^{\dagger}$Partial run" in tex
    assert "part on col, 1 of 4 queries" in tex
    page = (work / html).read_text()  # the visual report's table (and its bars)
    assert "0.2376†" in page and "† Partial run, results for only some queries: part on col" in page


def test_only_runs_made_elsewhere_or_averaged_over_their_own_queries_are_marked(tmp_path):
    """A query that a model run here retrieves nothing for is its own result (0 under the
    query set 'complete'); an imported run missing it, or any run averaged only over the
    queries it has ('run'), is not comparable."""
    from sparsebench.core.fileio import write_json
    from sparsebench.evaluate.coverage import partial_pairs

    manifest = tmp_path / "m.json"
    write_json(manifest, {"queries": {"in_run": 34, "judged": 35}})
    pairs = [("bm25", "adi"), ("ext", "adi")]
    models = {"bm25": {"kind": "bm25"}, "ext": {"kind": "run", "path": "r/{dataset}.trec"}}
    for query_set, marked in (("complete", [("ext", "adi")]), ("run", pairs)):
        experiment = {"models": models, "evaluation": {"query_set": query_set}}
        found = partial_pairs(pairs, [manifest, manifest], experiment)
        assert sorted(found) == sorted(marked)
        assert found[("ext", "adi")].describe() == "34 of 35 queries"
