"""The paper-ready LaTeX table: letters, bold, escaping, and the compare command's."""

from __future__ import annotations

import io

import pandas as pd
from support.run_files import hit_runs

from sparsebench.cli import main
from sparsebench.evaluate import latex


def significance_rows(rows: list[tuple]) -> pd.DataFrame:
    return pd.DataFrame(
        rows, columns=["dataset", "metric", "model", "baseline", "test", "significant", "delta"]
    )


def test_letters_are_the_models_a_score_beats_and_the_best_is_bold():
    scores = pd.DataFrame(
        {"sci_fact": [0.6651, 0.6904, 0.6904], "nf": [0.3250, 0.3100, float("nan")]},
        index=["bm25", "splade_v3", "fusion"],
    )
    tests = significance_rows(
        [
            ("sci_fact", "nDCG@10", "splade_v3", "bm25", "t-test", True, 0.025),
            ("sci_fact", "nDCG@10", "fusion", "bm25", "t-test", True, 0.025),
            ("nf", "nDCG@10", "splade_v3", "bm25", "t-test", True, -0.015),  # bm25 wins
            ("nf", "nDCG@10", "fusion", "bm25", "t-test", False, 0.5),  # not significant
            ("nf", "nDCG@10", "fusion", "bm25", "wilcoxon", True, 0.5),  # another test
        ]
    )
    beats = latex.beaten(tests, "t-test", "dataset", "nDCG@10")
    assert beats == {("splade_v3", "sci_fact"): {"bm25"}, ("fusion", "sci_fact"): {"bm25"},
                     ("bm25", "nf"): {"splade_v3"}}  # fmt: skip
    text = latex.latex_table(scores, beats, "A caption", ["made by a test"])
    lines = text.splitlines()
    assert lines[0] == "% made by a test"
    assert r"\# & Model & sci\_fact & nf \\" in lines
    assert r"a & bm25 & 0.6651 & \textbf{0.3250}$^{b}$ \\" in lines
    assert r"b & splade\_v3 & \textbf{0.6904}$^{a}$ & 0.3100 \\" in lines
    assert r"c & fusion & \textbf{0.6904}$^{a}$ & -- \\" in lines  # ties are both bold
    assert lines.count(r"\toprule") == lines.count(r"\bottomrule") == 1
    assert latex.escape("a&b_c%{}") == r"a\&b\_c\%\{\}"
    assert latex.letter(0) == "a" and latex.letter(27) == "B" and latex.letter(60) == "61"


def test_compare_prints_the_table_its_tests_give(tmp_path, capsys):
    qrels, runs = hit_runs(tmp_path, {"first": 1, "second": 3, "third": 1})
    common = ["compare", "--qrels", str(qrels), "--runs", *runs, "--metrics", "MRR,P@1"]
    common += ["--resamples", "200", "--all-pairs", "--quiet"]
    assert main([*common, "--format", "tsv"]) == 0
    tests = pd.read_csv(io.StringIO(capsys.readouterr().out), sep="\t")
    assert main([*common, "--latex"]) == 0
    text = capsys.readouterr().out
    assert r"\caption{" in text and "t-test with Holm-Bonferroni correction" in text
    rows = {
        line.split(" & ")[1]: line
        for line in text.splitlines()
        if line[:4] in ("a & ", "b & ", "c & ")
    }
    significant = tests[(tests["test"] == "t-test") & tests["significant"]]
    assert len(significant) == 4  # second loses to first and third on both metrics
    for row in significant.itertuples():
        assert (row.baseline if row.delta > 0 else row.model) == "second.trec"
    # first (a) and third (c) beat second (b) on both metrics, and are bold
    assert rows["first.trec"].count("$^{b}$") == 2 and rows["third.trec"].count("$^{b}$") == 2
    loser = rows["second.trec"]
    assert "$^" not in loser and r"\textbf" not in loser
