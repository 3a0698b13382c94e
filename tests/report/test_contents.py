"""What the visual report holds (sparsebench.report.contents): one file per figure and
dataset or pair, listed by hand for a small experiment."""

from __future__ import annotations

from sparsebench.report.contents import ReportContents

SIGNIFICANCE = {"baseline": "bm25", "primary_test": "t-test"}
PAIRS = (
    ("bm25", "web"),
    ("splade", "web"),
    ("bm25", "local"),
    ("splade", "local"),
    ("mix", "local"),
    ("splade", "solo"),
)


def contents(**changes) -> ReportContents:
    """bm25 and splade on web; bm25, splade and a tuned fusion on local; only splade on
    solo (no baseline there)."""
    settings = {
        "models": ("bm25", "splade", "mix"),
        "datasets": ("web", "local", "solo", "empty"),
        "pairs": PAIRS,
        "metric": "nDCG@10",
        "significance": SIGNIFICANCE,
        "tuned": (("mix", "local"),),
        "searched": True,
        **changes,
    }
    return ReportContents(**settings)


def test_every_file_of_a_small_experiment():
    report = "results/report"
    figures = [
        "leaderboard",
        "precision_recall/web",
        "precision_recall/local",
        "precision_recall/solo",  # no dataset without evaluated models ("empty")
        "query_differences/splade/web",
        "query_differences/splade/local",
        "query_differences/mix/local",  # none on solo: its baseline is not evaluated there
        "efficiency",
        "costs",
        "costs/web",
        "costs/local",
        "costs/solo",
        "costs/empty",
        "sweeps/mix/local",
    ]
    expected = {f"{report}/{name}.{suffix}" for name in figures for suffix in ("png", "svg")}
    expected |= {
        f"{report}/{name}" for name in ("leaderboard.html", "costs.tsv", "provenance.html")
    }
    paths = contents().paths()
    assert len(paths) == len(set(paths)) == len(expected)
    assert set(paths) == expected


def test_without_a_searched_model_there_is_no_efficiency_figure():
    assert not any("efficiency" in p for p in contents(searched=False).paths())


def test_it_reads_the_evaluations_its_figures_draw():
    inputs = contents().inputs()
    assert inputs["metrics_files"] == [f"results/eval/{m}/{d}/metrics.json" for m, d in PAIRS]
    assert inputs["per_query"] == sorted(
        f"results/eval/{m}/{d}/per_query.tsv"
        for m, d in (("bm25", "web"), ("splade", "web"), ("bm25", "local"))
        + (("splade", "local"), ("mix", "local"))
    )
    assert inputs["sweeps"] == [
        "results/tuning/mix/local/surface.tsv",
        "results/tuning/mix/local/selection.json",
    ]


def test_a_jobs_params_give_the_same_contents_back():
    original = contents()
    assert ReportContents.of(original.as_settings()) == original


def test_figures_drawn_per_dataset_or_pair_are_declared_as_folders():
    """A folder per kind drawn per dataset or pair (whose pattern names each figure in
    the packaged report), a file for the others, an SVG copy declared unmarked."""
    declared = [(o.path, o.kind, o.pattern) for o in contents().outputs()]
    report = "results/report"
    assert declared == [
        (f"{report}/leaderboard.html", "leaderboard_table", None),
        (f"{report}/leaderboard.png", "leaderboard", None),
        (f"{report}/leaderboard.svg", None, None),
        (f"{report}/precision_recall", "precision_recall", "{dataset}.png"),
        (f"{report}/query_differences", "query_differences", "{model}/{dataset}.png"),
        (f"{report}/efficiency.png", "efficiency", None),
        (f"{report}/efficiency.svg", None, None),
        (f"{report}/costs.tsv", "costs_table", None),
        (f"{report}/costs.png", "costs", None),
        (f"{report}/costs.svg", None, None),
        (f"{report}/costs", "dataset_costs", "{dataset}.png"),
        (f"{report}/provenance.html", "provenance", None),
        (f"{report}/sweeps", "sweep", "{model}/{dataset}.png"),
    ]
    only_baseline = contents(pairs=(("bm25", "web"),), tuned=())
    assert not any(o.kind in ("query_differences", "sweep") for o in only_baseline.outputs())
