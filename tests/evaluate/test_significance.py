"""Significance tests against scipy and an independent Monte Carlo implementation,
the correction, the report tables and the `compare` / `check-reproduction` commands."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from support.run_files import hit_runs
from support.samefiles import assert_same_bytes

from sparsebench.cli import main
from sparsebench.core.errors import DataError
from sparsebench.evaluate.comparisons import SignificanceSettings, markers, significance_table
from sparsebench.evaluate.reproduction import (
    check,
    load_expected,
    markdown,
    measured_from_leaderboard,
)
from sparsebench.evaluate.significance import adjust_p_values, align, paired_tests

SHARED = Path(__file__).resolve().parents[3] / "shared"
RNG = np.random.default_rng(7)
BASE = RNG.beta(2, 3, size=120)
MODEL = np.clip(BASE + RNG.normal(0.03, 0.1, size=120), 0, 1)


def by_test(results):
    return {r.test: r for r in results}


def test_parametric_and_rank_tests_equal_scipy():
    results = by_test(paired_tests(MODEL, BASE, seed=1))
    t = stats.ttest_rel(MODEL, BASE)
    assert results["t-test"].p == pytest.approx(t.pvalue, rel=1e-12)
    assert results["t-test"].statistic == pytest.approx(t.statistic, rel=1e-12)
    w = stats.wilcoxon(MODEL, BASE)
    assert results["wilcoxon"].p == pytest.approx(w.pvalue, rel=1e-12)
    wins, losses = int((MODEL > BASE).sum()), int((MODEL < BASE).sum())
    assert results["sign"].p == pytest.approx(
        stats.binomtest(wins, wins + losses).pvalue, rel=1e-12
    )
    assert (results["sign"].wins, results["sign"].losses) == (wins, losses)
    assert results["t-test"].delta == pytest.approx((MODEL - BASE).mean())


def independent_randomization_p(a, b, resamples, seed):
    rng = np.random.default_rng(seed)
    d = a - b
    observed = abs(d.mean())
    hits = sum(
        abs((d * rng.choice([-1, 1], size=len(d))).mean()) >= observed - 1e-12
        for _ in range(resamples)
    )
    return (hits + 1) / (resamples + 1)


def independent_bootstrap_p(a, b, resamples, seed):
    rng = np.random.default_rng(seed)
    d = a - b
    centred = d - d.mean()
    hits = sum(
        abs(rng.choice(centred, size=len(d)).mean()) >= abs(d.mean()) - 1e-12
        for _ in range(resamples)
    )
    return (hits + 1) / (resamples + 1)


@pytest.mark.parametrize("shift", [0.0, 0.02, 0.04])
def test_monte_carlo_tests_agree_with_an_independent_implementation(shift):
    model = np.clip(BASE + RNG.normal(shift, 0.1, size=120), 0, 1)
    resamples = 4000
    ours = by_test(paired_tests(model, BASE, resamples=resamples, seed=3))
    for test, reference in (
        ("randomization", independent_randomization_p),
        ("bootstrap", independent_bootstrap_p),
    ):
        expected = reference(model, BASE, resamples, seed=99)
        # both are Monte Carlo estimates of the same p: allow 4 standard errors of each
        error = 4 * np.sqrt(2 * expected * (1 - expected) / resamples) + 2 / resamples
        assert abs(ours[test].p - expected) <= error, (test, ours[test].p, expected)
    # and they agree with the t-test's answer on such well-behaved data
    assert abs(ours["randomization"].p - ours["t-test"].p) < 0.03


def test_seeded_results_are_stable():
    first = paired_tests(MODEL, BASE, seed=5)
    assert first == paired_tests(MODEL, BASE, seed=5)
    assert first != paired_tests(MODEL, BASE, seed=6)


def test_identical_runs_are_never_significant():
    for result in paired_tests(BASE, BASE.copy(), seed=0):
        assert result.p == 1.0 and result.delta == 0.0
        assert (result.wins, result.ties, result.losses) == (0, 120, 0)


def test_a_shift_of_a_tenth_is_significant_everywhere():
    for result in paired_tests(BASE + 0.1, BASE, seed=0):
        assert result.p < 0.001, result.test
        assert result.delta == pytest.approx(0.1)
        assert result.ci_low == pytest.approx(0.1) and result.ci_high == pytest.approx(0.1)


def test_holm_and_bonferroni():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm: sorted 0.005*4, 0.01*3, 0.03*2, 0.04*1 with running maximum
    np.testing.assert_allclose(adjust_p_values(p, "holm"), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(adjust_p_values(p, "bonferroni"), [0.04, 0.16, 0.12, 0.02])
    np.testing.assert_allclose(adjust_p_values(p, "none"), p)
    assert adjust_p_values([0.9, 0.8], "holm").max() <= 1.0


def test_different_query_sets_and_tiny_sets_are_refused():
    a = pd.Series([0.1, 0.2, 0.3], index=["q1", "q2", "q3"])
    b = pd.Series([0.1, 0.2, 0.3], index=["q1", "q2", "q4"])
    with pytest.raises(DataError, match="different query sets"):
        align(a, b, "x vs y")
    with pytest.raises(DataError, match="at least 2"):
        align(a[:1], a[:1], "x vs y")


def frames(values):
    return {
        key: pd.DataFrame({"nDCG@10": v}, index=[f"q{i}" for i in range(len(v))])
        for key, v in values.items()
    }


def test_table_markers_and_correction_family():
    values = frames(
        {
            ("bm25", "d"): BASE,
            ("better", "d"): BASE + 0.1,
            ("worse", "d"): BASE - 0.1,
            ("same", "d"): BASE,
        }
    )
    settings = SignificanceSettings(baseline="bm25", metrics=("nDCG@10",), resamples=500)
    table = significance_table(values, ["bm25", "better", "worse", "same"], ["d"], settings)
    assert len(table) == 3 * 5
    t_tests = table[table["test"] == "t-test"].set_index("model")
    np.testing.assert_allclose(t_tests["p_adjusted"], adjust_p_values(t_tests["p"], "holm"))
    assert markers(table, "nDCG@10", "t-test") == {("better", "d"): "▲", ("worse", "d"): "▼"}


def test_compare_command(tmp_path, capsys):
    qrels, runs = hit_runs(tmp_path, {"a": 1, "b": 3})
    assert (
        main(
            [
                "compare",
                "--qrels",
                str(qrels),
                "--runs",
                *runs,
                "--metrics",
                "MRR",
                "--format",
                "tsv",
                "--resamples",
                "500",
                "--quiet",
            ]
        )
        == 0
    )
    table = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out), sep="\t")
    assert set(table["test"]) == {"t-test", "wilcoxon", "sign", "bootstrap", "randomization"}
    assert (table["model"] == "b.trec").all() and (table["baseline"] == "a.trec").all()
    assert table["significant"].all() and (table["delta"] < 0).all()


def test_reproduction_check(tmp_path, capsys):
    expected = load_expected("beir")
    scifact = expected[(expected["dataset"] == "scifact") & (expected["system"] == "bm25-flat")]
    scifact = scifact[scifact["metric"] == "nDCG@10"]  # the figure the leaderboard holds
    assert scifact["value"].tolist() == [0.6789]
    board = pd.DataFrame(
        {"scifact": [0.6786, 0.6750, 0.60], "average": [0, 0, 0]},
        index=pd.Index(["a", "b", "c"], name="model"),
    )
    result = check(
        measured_from_leaderboard(board, "nDCG@10"),
        expected,
        {"a": "bm25-flat", "b": "bm25-flat", "c": "bm25-flat"},
        {"scifact": "scifact"},
    )
    assert list(result["status"]) == ["OK", "OKISH", "FAIL"]
    assert set(result["source"]) == set(scifact["source"])
    path = tmp_path / "leaderboard.tsv"
    board.assign(**{"sig:scifact": ""}).to_csv(path, sep="\t")
    assert main(["check-reproduction", "--leaderboard", str(path), "--model", "a=bm25-flat"]) == 0
    assert main(["check-reproduction", "--leaderboard", str(path), "--model", "c=bm25-flat"]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_reproduction_check_holds_every_published_metric(tmp_path, capsys):
    """A long metrics file is checked on every metric with a published figure (nDCG@10
    and Recall@100 here), forum by forum for cqadupstack; a figure of another metric or
    an unmapped model is not compared."""
    expected = load_expected(["beir"])
    published = expected.set_index(["dataset", "system", "metric"])["value"]
    rows = []
    for dataset in ("scifact", "cqadupstack-android"):
        for metric in ("nDCG@10", "Recall@100"):
            value = published[(dataset, "bm25-flat", metric)]
            rows.append(("bm25", dataset, metric, value + 0.0003))
        rows.append(("bm25", dataset, "MRR@10", 0.5))
        rows.append(("other", dataset, "nDCG@10", 0.1))
    measured = pd.DataFrame(rows, columns=["model", "dataset", "metric", "value"])
    result = check(measured, expected, {"bm25": "bm25-flat"}, {d: d for d in measured["dataset"]})
    assert len(result) == 4 and set(result["status"]) == {"OK"}
    assert set(result["metric"]) == {"nDCG@10", "Recall@100"}
    path = tmp_path / "metrics.tsv"
    measured.to_csv(path, sep="\t", index=False)
    wrong = measured.assign(value=measured["value"] - 0.01)
    wrong.to_csv(tmp_path / "wrong.tsv", sep="\t", index=False)
    command = ["check-reproduction", "--model", "bm25=bm25-flat", "--leaderboard"]
    assert main([*command, str(path)]) == 0
    assert "cqadupstack-android | Recall@100" in capsys.readouterr().out
    assert main([*command, str(tmp_path / "wrong.tsv")]) == 1
    with pytest.raises(DataError, match="no system 'nonesuch'"):
        check(measured, expected, {"bm25": "nonesuch"}, {})
    twice = tmp_path / "twice.tsv"
    twice.write_text(
        "dataset\tsystem\tmetric\tvalue\tsource\nx\ts\tMAP\t0.1\ta\nx\ts\tMAP\t0.2\tb\n"
    )
    with pytest.raises(DataError, match="more than once"):
        load_expected(str(twice))
    wide = tmp_path / "wide.tsv"  # rows datasets, columns systems: not a table here
    wide.write_text("# metric: nDCG@10\ndataset\tbm25-flat\nscifact\t0.6789\n")
    with pytest.raises(DataError, match="no column system, metric, value"):
        load_expected(str(wide))


def test_a_run_made_with_another_analyzer_is_not_comparable(tmp_path):
    """MIRACL's published BM25 figures name the Lucene analyzer that made them: a run
    with another analyzer is 'not comparable (analyzer)', never FAIL; the same analyzer
    is checked as usual."""
    from sparsebench.evaluate.reproduction import run_conditions
    from sparsebench.workflow.config import validate_config
    from sparsebench.workflow.plan import Plan

    expected = load_expected(["miracl"])
    published = expected.set_index(["dataset", "system", "metric"])
    assert published.loc[("miracl-sw", "bm25", "nDCG@10"), "analyzer"] == "WhitespaceAnalyzer"
    assert published.loc[("miracl-de", "bm25", "nDCG@10"), "analyzer"] == "GermanAnalyzer"
    config = validate_config(
        {
            "datasets": {
                "sw": {"source": "local", "path": str(tmp_path / "sw"), "language": "sw"},
                "pl": {"source": "local", "path": str(tmp_path / "pl"), "language": "pl"},
            },
            "models": {
                "bm25": {"kind": "bm25"},
                "snowball": {"kind": "bm25", "analyzer": {"stemmer": "porter"}},
            },
        }
    )
    analyzers = run_conditions(Plan(config).searched_pairs, ["bm25", "snowball"])["analyzer"]
    assert analyzers[("bm25", "sw")] == "WhitespaceAnalyzer"
    assert analyzers[("snowball", "sw")].startswith("composed (tokenizer standard")
    assert analyzers[("bm25", "pl")].startswith("composed")  # Morfologik is not ported
    value = published.loc[("miracl-sw", "bm25", "nDCG@10"), "value"]
    measured = pd.DataFrame(
        [("bm25", "sw", "nDCG@10", value), ("snowball", "sw", "nDCG@10", value - 0.05)],
        columns=["model", "dataset", "metric", "value"],
    )
    models = {"bm25": "bm25", "snowball": "bm25"}
    result = check(measured, expected, models, {"sw": "miracl-sw"}, analyzers=analyzers)
    assert list(result["status"]) == ["OK", "not comparable (analyzer)"]
    text = markdown(result, 0.0005, 0.005)
    assert "1 not comparable (analyzer)" in text
    assert "(published: WhitespaceAnalyzer)" in text


def test_a_float_run_against_integer_impact_figures_is_not_comparable():
    """The 2CR SPLADE figures were scored by Anserini's impact search over integer
    impacts: a float run is 'not comparable (float weights)', a quantised one is checked."""
    from sparsebench.evaluate.reproduction import run_conditions
    from sparsebench.workflow.config import validate_config
    from sparsebench.workflow.plan import Plan

    expected = load_expected(["beir"])
    published = expected.set_index(["dataset", "system", "metric"])
    assert published.loc[("scifact", "splade-pp-ed", "nDCG@10"), "scoring"] == "integer impacts"
    assert published.loc[("scifact", "bm25-flat", "nDCG@10"), "scoring"] == ""
    model = str(SHARED / "models" / "splade-tiny")
    config = validate_config(
        {
            "datasets": {"scifact": {"source": "local", "path": "."}},
            "models": {
                "float": {"kind": "splade", "model": model},
                "impacts": {"kind": "splade", "model": model, "quantization": {}},
                "bm25": {"kind": "bm25"},
            },
        }
    )
    conditions = run_conditions(Plan(config).searched_pairs, ["float", "impacts", "bm25"])
    assert conditions["scoring"] == {
        ("float", "scifact"): "float weights",
        ("impacts", "scifact"): "integer impacts",
    }
    value = published.loc[("scifact", "splade-pp-ed", "nDCG@10"), "value"]
    measured = pd.DataFrame(
        [("float", "scifact", "nDCG@10", value), ("impacts", "scifact", "nDCG@10", value)],
        columns=["model", "dataset", "metric", "value"],
    )
    models = {"float": "splade-pp-ed", "impacts": "splade-pp-ed"}
    result = check(
        measured, expected, models, {"scifact": "scifact"}, scorings=conditions["scoring"]
    )
    assert list(result["status"]) == ["not comparable (float weights)", "OK"]
    text = markdown(result, 0.0005, 0.005)
    assert "float weights (published: integer impacts)" in text


def test_report_files_are_byte_identical_on_rerun(tmp_path):
    from sparsebench.evaluate import stages
    from sparsebench.workflow.config import experiment_settings, validate_config

    config = validate_config(
        {
            "datasets": {"d": {"source": "builtin", "name": "minibeir"}},
            "models": {"bm25": {"kind": "bm25"}, "other": {"kind": "bm25"}},
            "significance": {"resamples": 300},
        }
    )
    files = []
    for model, values in (("bm25", BASE), ("other", MODEL)):
        path = tmp_path / model / "d" / "per_query.tsv"
        path.parent.mkdir(parents=True)
        pd.DataFrame(
            {
                "query_id": [f"q{i}" for i in range(len(values))],
                "metric": "nDCG@10",
                "value": values,
            }
        ).to_csv(path, sep="\t", index=False)
        files.append(str(path))
    outputs = []
    for attempt in range(2):
        tsv, md = tmp_path / f"s{attempt}.tsv", tmp_path / f"s{attempt}.md"
        intervals = tmp_path / f"i{attempt}.tsv"
        stages.significance(
            [("bm25", "d"), ("other", "d")],
            ["bm25", "other"],
            ["d"],
            files,
            {**config["significance"], "metrics": ["nDCG@10"]},
            experiment_settings(config),
            tsv,
            md,
            out_intervals=intervals,
        )
        outputs.append((tsv.read_bytes(), md.read_bytes(), intervals.read_bytes()))
    for first, again, name in zip(outputs[0], outputs[1], ("tsv", "md", "intervals"), strict=True):
        assert_same_bytes(again, first, name)
    assert b"| other | bm25 |" in outputs[0][1]
    table = pd.read_csv(tmp_path / "i0.tsv", sep="\t")
    assert list(table["model"]) == ["bm25", "other"]
    assert table["mean"].tolist() == pytest.approx([BASE.mean(), MODEL.mean()])


def test_score_intervals_are_seeded_bootstrap_intervals_of_the_mean():
    from sparsebench.evaluate.comparisons import score_intervals
    from sparsebench.evaluate.significance import mean_interval

    settings = SignificanceSettings(metrics=("nDCG@10", "gMAP"), resamples=2000, seed=3)
    frames = {
        (model, "d"): pd.DataFrame(
            {"nDCG@10": values, "gMAP": np.log(np.maximum(values, 1e-5))},
            index=[f"q{i}" for i in range(len(values))],
        )
        for model, values in (("bm25", BASE), ("other", MODEL))
    }
    table = score_intervals(frames, ["bm25", "other"], ["d"], settings)
    assert list(table[["metric", "model"]].itertuples(index=False, name=None)) == [
        ("nDCG@10", "bm25"),
        ("nDCG@10", "other"),
        ("gMAP", "bm25"),
        ("gMAP", "other"),
    ]
    row = table.iloc[0]
    assert row["mean"] == pytest.approx(BASE.mean()) and row["n_queries"] == len(BASE)
    assert row["ci_low"] < row["mean"] < row["ci_high"]
    # about the normal interval: mean +- 1.96 standard errors
    half = 1.96 * BASE.std(ddof=1) / np.sqrt(len(BASE))
    assert row["ci_high"] - row["ci_low"] == pytest.approx(2 * half, rel=0.1)
    # the geometric mean's interval is the exponential of the log-mean's interval
    gmap = table.iloc[2]
    assert gmap["mean"] == pytest.approx(np.exp(np.log(np.maximum(BASE, 1e-5)).mean()))
    assert gmap["ci_low"] < gmap["mean"] < gmap["ci_high"]
    # seeded per cell: the same table on rerun, and another model moves nothing
    assert score_intervals(frames, ["bm25", "other"], ["d"], settings).equals(table)
    alone = score_intervals({("bm25", "d"): frames[("bm25", "d")]}, ["bm25"], ["d"], settings)
    assert alone.iloc[0].equals(table.iloc[0])
    # constant values have an interval of width zero
    assert mean_interval(np.full(9, 0.5), 500, np.random.default_rng(0)) == (0.5, 0.5)
    with pytest.raises(DataError, match="at least one value"):
        mean_interval(np.array([]), 500, np.random.default_rng(0))


def test_a_significance_table_is_read_back_and_other_files_are_refused(tmp_path):
    from sparsebench.evaluate.comparisons import read_significance

    settings = SignificanceSettings(resamples=200)
    frames = {(m, "d"): pd.DataFrame({"nDCG@10": v}) for m, v in (("bm25", BASE), ("x", MODEL))}
    table = significance_table(frames, ["bm25", "x"], ["d"], settings)
    path = tmp_path / "significance.tsv"
    table.to_csv(path, sep="\t", index=False)
    back = read_significance(path)
    assert back["significant"].tolist() == table["significant"].tolist()
    assert back["significant"].dtype == bool
    (tmp_path / "other.tsv").write_text("dataset\tmodel\n")
    with pytest.raises(DataError, match="not a significance table: no baseline"):
        read_significance(tmp_path / "other.tsv")


def test_a_subsampled_dataset_is_not_comparable_and_a_regraded_one_says_so(tmp_path):
    """Published figures are measured on the whole corpus: a subsample's differ by
    design, so its row says so instead of FAIL (and the check passes)."""
    from sparsebench.core.fileio import write_json
    from sparsebench.evaluate import stages
    from sparsebench.evaluate.published import NOT_COMPARABLE
    from sparsebench.workflow.config import experiment_settings, validate_config
    from sparsebench.workflow.plan import Plan

    config = validate_config(
        {
            "datasets": {
                "scifact": {"source": "beir"},
                "scifact-small": {
                    "source": "beir",
                    "name": "scifact",
                    "subsample": {"documents": 9},
                },
            },
            "models": {"bm25": {"kind": "bm25"}},
            "reproduction": {
                "models": {"bm25": "bm25-flat"},
                "datasets": {"scifact-small": "scifact"},
            },
        }
    )
    datasets, pairs = ["scifact", "scifact-small"], [("bm25", "scifact"), ("bm25", "scifact-small")]
    files = {"metrics": [], "infos": [], "corpora": []}
    for dataset, value, sample in (("scifact", 0.6789, None), ("scifact-small", 0.9, 1)):
        folder = tmp_path / dataset
        write_json(folder / "metrics.json", {"nDCG@10": value})
        source = "beir"
        if sample:  # and its judgments regraded, as an ir_datasets source records it
            source = {"name": "ir_datasets", "grades": {"regraded": {"1": 4, "-1": 0}}}
        write_json(
            folder / "dataset.json",
            {"name": dataset, "split": "test", "source": source, "files": {}},
        )
        corpus = {"name": dataset, "files": {}}
        if sample:
            corpus["subsample"] = {"documents": 9, "of": 5183, "judged": 9, "seed": 0}
        write_json(folder / "corpus.json", corpus)
        for key, name in (("metrics", "metrics"), ("infos", "dataset"), ("corpora", "corpus")):
            files[key].append(str(folder / f"{name}.json"))
    outputs = {
        name: str(tmp_path / "out" / file)
        for name, file in (
            ("table", "leaderboard.tsv"),
            ("long", "metrics.tsv"),
            ("markdown", "leaderboard.md"),
            ("latex", "leaderboard.tex"),
            ("manifest", "leaderboard.manifest.json"),
            ("reproduction", "reproduction.tsv"),
            ("efficiency", "efficiency.tsv"),
        )
    }
    stages.leaderboard(
        pairs,
        ["bm25"],
        datasets,
        files["metrics"],
        files["infos"],
        files["corpora"],
        experiment_settings(config),
        Plan(config).searched_pairs,
        outputs,
        started="now",
    )
    checked = pd.read_csv(outputs["reproduction"], sep="\t").set_index("dataset")["status"]
    assert checked.to_dict() == {"scifact": "OK", "scifact-small": NOT_COMPARABLE}
    text = (tmp_path / "out" / "leaderboard.md").read_text()
    assert (
        f"| scifact-small | nDCG@10 | 0.6789 (bm25-flat) | 0.9000 | +0.2211 | {NOT_COMPARABLE} |"
        in text
    )
    assert "1 OK, 0 OKISH, 0 FAIL, 1 not comparable (subsampled)" in text
    assert "REGRADED: scifact-small: judgments read as gains (1 -> 4, -1 -> 0)" in text
    assert "REGRADED: scifact:" not in text
