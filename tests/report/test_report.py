"""The visual report's data, figures and tables: what each figure shows is the numbers
it is drawn from, nothing overlaps, series stay apart in black and white, and drawing
again gives the same files."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.patches import Rectangle
from support.samefiles import assert_same_bytes

from sparsebench.core.errors import DataError
from sparsebench.evaluate.measures import RECALL_LEVELS
from sparsebench.report import costs, data, figures, tables
from sparsebench.report.efficiency_figure import efficiency_chart
from sparsebench.report.style import layout_problems, new_figure, save_figure, wrap
from sparsebench.workflow.config import validate_config
from sparsebench.workflow.jobs import pipeline_jobs
from sparsebench.workflow.plan import Plan

RNG = np.random.default_rng(11)
LONG_MODELS = [
    "bm25",
    "bm25-classic-idf",
    "bm25-snowball-stemmer-k1-1.2",
    "splade-pp-ensembledistil",
    "opensearch-neural-sparse-doc-v2-distill",
    "trigrams",
]


def intervals_table(models, datasets, metric="nDCG@10"):
    rows = []
    for d, dataset in enumerate(datasets):
        for m, model in enumerate(models):
            mean = 0.3 + 0.05 * m + 0.02 * d
            rows.append(
                {
                    "dataset": dataset,
                    "metric": metric,
                    "model": model,
                    "mean": mean,
                    "ci_low": mean - 0.04,
                    "ci_high": mean + 0.05,
                    "n_queries": 100 + d,
                }
            )
    return pd.DataFrame(rows)


def check_layout(figure):
    assert layout_problems(figure) == []


# --- data -------------------------------------------------------------------------------


def test_precision_recall_curves_are_the_11_interpolated_precisions(tmp_path):
    files = {}
    expected = {}
    for model in ("a", "b"):
        values = np.sort(RNG.random(11))[::-1]
        means = {f"IPrec@{level:.1f}": v for level, v in zip(RECALL_LEVELS, values, strict=True)}
        files[model] = tmp_path / f"{model}.json"
        files[model].write_text(json.dumps({"nDCG@10": 0.5, **means}))
        expected[model] = values
    curves = data.precision_recall(files)
    assert list(curves.columns) == ["a", "b"] and list(curves.index) == list(RECALL_LEVELS)
    for model, values in expected.items():
        assert curves[model].tolist() == pytest.approx(values.tolist())
    (tmp_path / "c.json").write_text(json.dumps({"nDCG@10": 0.5, "IPrec@0.0": 1.0}))
    with pytest.raises(DataError, match=r"c.json has no IPrec@0.1, .* IPrec@1.0"):
        data.precision_recall({"c": tmp_path / "c.json"})
    with pytest.raises(DataError, match="no model"):
        data.precision_recall({})


def test_query_differences_are_model_minus_baseline_largest_gain_first():
    ids = [f"q{i:03d}" for i in range(200)]
    baseline = pd.Series(RNG.random(200).round(1), index=ids)
    model = pd.Series(RNG.random(200).round(1), index=ids).sample(frac=1, random_state=3)
    differences = data.query_differences(model, baseline, "m vs b")
    assert sorted(differences.index) == ids
    assert np.all(np.diff(differences.to_numpy()) <= 0)  # largest gain first
    for query, value in differences.items():
        assert value == pytest.approx(model[query] - baseline[query])
    tied = differences[differences == differences.iloc[0]]
    assert list(tied.index) == sorted(tied.index)  # equal differences in query id order
    with pytest.raises(DataError, match="different query sets"):
        data.query_differences(model.iloc[:-1], baseline, "m vs b")


def test_comparison_row_picks_one_test_of_one_pair():
    table = pd.DataFrame(
        {
            "dataset": ["d", "d", "e"],
            "metric": ["nDCG@10"] * 3,
            "model": ["m", "m", "m"],
            "baseline": ["b", "b", "b"],
            "test": ["t-test", "wilcoxon", "t-test"],
            "p_adjusted": [0.01, 0.02, 0.03],
        }
    )
    assert data.comparison_row(table, "m", "b", "d", "nDCG@10", "wilcoxon")["p_adjusted"] == 0.02
    assert data.comparison_row(table, "m", "x", "d", "nDCG@10", "t-test") is None


# --- costs ------------------------------------------------------------------------------


@pytest.fixture
def cost_config(tmp_path):
    run = tmp_path / "runs" / "{dataset}.trec"
    run.parent.mkdir()
    (tmp_path / "runs" / "a.trec").write_text("q1 Q0 d1 1 1.0 x\n")  # covers dataset a only
    return validate_config(
        {
            "datasets": {
                "a": {"source": "builtin", "name": "minibeir"},
                "b": {"source": "beir", "name": "scifact"},
            },
            "models": {
                "bm25": {"kind": "bm25"},
                "bm25-classic": {"kind": "bm25", "idf": "classic"},  # same documents as bm25
                "snowball": {"kind": "bm25", "analyzer": {"stemmer": "english"}},
                "external": {"kind": "run", "path": str(run)},
            },
        }
    )


def write_benchmarks(root, files):
    """A benchmark file for each path, wall time = its index + 1, memory = 10 x that."""
    for i, path in enumerate(files):
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
            f"{i + 1}\t0:00:0{i % 10}\t{10 * (i + 1)}\t1\t1\t1\t0\t0\t50\t{(i + 1) / 2}\n"
        )
    return [root / p for p in files]


def test_cost_table_names_every_job_and_sums_per_dataset(tmp_path, cost_config, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plan = Plan(cost_config)
    shards = {plan.corpus_of["a"]: 2, plan.corpus_of["b"]: 3}
    jobs = pipeline_jobs(plan, shards, {"a": False, "b": False})
    rules = [job.rule for job in jobs]
    assert rules.count("download_beir") == 1 and rules.count("prepare") == 2
    assert rules.count("prepare_corpus") == 2
    assert rules.count("encode_corpus_shard") == 2 * 2 + 2 * 3  # two encodings per corpus
    assert rules.count("import_run") == 1 and rules.count("retrieve") == 3 * 2
    assert rules.count("evaluate") == 3 * 2 + 1 and rules[-2:] == ["significance", "leaderboard"]
    records = [job.record() for job in jobs]
    write_benchmarks(tmp_path, [r["benchmark"] for r in records])
    table = costs.cost_table(records)
    assert len(table) == len(jobs)
    assert table["wall_s"].tolist() == list(range(1, len(jobs) + 1))
    shards = table[(table["rule"] == "encode_corpus_shard") & (table["dataset"] == "b")]
    assert set(shards["models"]) == {"bm25,bm25-classic", "snowball"}
    assert set(table.loc[table["rule"] == "download_beir", "dataset"]) == {"b"}
    written = tmp_path / "costs.tsv"
    costs.write_cost_table(table, written)
    pd.testing.assert_frame_equal(costs.read_cost_table(written), table, check_dtype=False)

    per_dataset = costs.dataset_costs(table, "b").set_index("label")
    shared = per_dataset.loc["encode_corpus_shard: bm25, bm25-classic (3 jobs)"]
    mine = shards[shards["models"] == "bm25,bm25-classic"]
    assert shared["wall_s"] == mine["wall_s"].sum() and shared["jobs"] == 3
    assert shared["peak_rss_mib"] == mine["peak_rss_mib"].max()
    assert "download_beir" in per_dataset.index and "import_run: external" not in per_dataset.index
    assert per_dataset["wall_s"].sum() == table[table["dataset"] == "b"]["wall_s"].sum()
    totals = costs.rule_costs(table).set_index("label")
    assert totals["wall_s"].sum() == table["wall_s"].sum()
    assert (
        totals.loc["evaluate (7 jobs)", "peak_rss_mib"]
        == table.loc[table["rule"] == "evaluate", "peak_rss_mib"].max()
    )
    assert list(totals.index)[0].startswith("download_beir")  # pipeline order


def test_a_sweep_counts_its_points_under_the_tuned_model(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = validate_config(
        {
            "datasets": {
                "cv": {"source": "builtin", "name": "minibeir"},
                "split": {"source": "builtin", "name": "minibeir"},
            },
            "models": {
                "bm25": {"kind": "bm25"},
                "t": {"kind": "bm25", "k1": {"grid": [0.5, 1.0, 1.5]}},
            },
        }
    )
    plan = Plan(config)
    (corpus,) = plan.corpora  # both datasets read one corpus
    jobs = pipeline_jobs(plan, {corpus: 1}, {"cv": False, "split": True})
    counts = pd.Series([job.rule for job in jobs]).value_counts()
    assert counts["prepare_corpus"] == 1 and counts["prepare"] == 2
    assert counts["encode_corpus_shard"] == 1 and counts["stack_shards"] == 1  # one encoding
    assert counts["term_weights"] == 1 + 3  # per model, on the one corpus
    assert counts["encode_queries"] == 3  # evaluated queries of both, training ones of split
    assert counts["retrieve"] == 2 * (1 + 3)
    assert counts["tune"] == 2 and counts["retrieve_tuning"] == counts["evaluate_tuning"] == 3
    assert counts["evaluate"] == 2 * 2 + 3  # bm25 and t on both, the points on cv only
    records = [job.record() for job in jobs]
    write_benchmarks(tmp_path, [r["benchmark"] for r in records])
    table = costs.cost_table(records)
    points = table[table["model"].str.startswith("t+")]
    assert len(points) > 0 and set(points["models"]) == {"t"}
    labels = costs.dataset_costs(table, "split")["label"].tolist()
    assert "retrieve: t (3 jobs)" in labels and "tune: t" in labels


def test_benchmarks_with_repeats_and_missing_values(tmp_path):
    path = tmp_path / "results" / "benchmarks" / "prepare" / "a.tsv"
    path.parent.mkdir(parents=True)
    path.write_text("s\tmax_rss\tcpu_time\n2.0\t100\t1.0\n4.0\tNA\t3.0\n")
    assert costs.read_benchmark(path) == {"wall_s": 3.0, "cpu_s": 2.0, "peak_rss_mib": 100.0}
    path.write_text("s\tmax_rss\nNA\tNA\n")
    measured = costs.read_benchmark(path)
    assert np.isnan(measured["wall_s"]) and np.isnan(measured["peak_rss_mib"])


def test_bad_benchmark_files_are_refused(tmp_path, cost_config):
    bad = tmp_path / "results" / "benchmarks" / "prepare" / "a.tsv"
    bad.parent.mkdir(parents=True)
    bad.write_text("seconds\tmemory\n1\t2\n")
    with pytest.raises(DataError, match="not a Snakemake benchmark file: no s, max_rss column"):
        costs.read_benchmark(bad)
    bad.write_text("s\tmax_rss\n")
    with pytest.raises(DataError, match="no measurement"):
        costs.read_benchmark(bad)
    other = tmp_path / "other.tsv"
    other.write_text("rule\tdataset\n")
    with pytest.raises(DataError, match="not a cost table: no benchmark, cpu_s"):
        costs.read_cost_table(other)


# --- figures ----------------------------------------------------------------------------


@pytest.mark.parametrize("n_datasets", [1, 18])
def test_leaderboard_bars_show_the_means_intervals_and_marks(n_datasets):
    datasets = [
        f"dataset-{i}" if i % 3 else f"cqadupstack-webmasters-{i}" for i in range(n_datasets)
    ]
    intervals = intervals_table(LONG_MODELS, datasets)
    marks = {(LONG_MODELS[2], datasets[0]): "▲", (LONG_MODELS[3], datasets[-1]): "▼"}
    figure = figures.leaderboard_chart(
        intervals, marks, LONG_MODELS, datasets, "nDCG@10", "a note " * 40
    )
    check_layout(figure)
    bars = [p for ax in figure.axes for p in ax.patches if isinstance(p, Rectangle)]
    assert sorted(round(b.get_height(), 9) for b in bars) == sorted(intervals["mean"].round(9))
    styles = {(tuple(b.get_facecolor()), b.get_hatch()) for b in bars}
    assert len(styles) == len(LONG_MODELS)  # one look per model
    caps = [
        segment
        for ax in figure.axes
        for c in ax.containers
        if isinstance(c, ErrorbarContainer)
        for segment in c.lines[2][0].get_segments()
    ]
    assert sorted(round(s[0][1], 9) for s in caps) == sorted(intervals["ci_low"].round(9))
    assert sorted(round(s[1][1], 9) for s in caps) == sorted(intervals["ci_high"].round(9))
    texts = [t.get_text() for ax in figure.axes for t in ax.texts]
    assert sorted(texts) == ["▲", "▼"]
    assert figure.get_figwidth() <= figures.MAX_WIDTH
    assert (len(figure.axes) == 1) == (n_datasets == 1)  # many datasets: rows of bars


@pytest.mark.parametrize("n_datasets", [1, 7])
def test_efficiency_points_are_each_models_score_against_its_costs(n_datasets):
    datasets = [f"dataset-{i}" for i in range(n_datasets)]
    points = pd.DataFrame(
        [
            {
                "model": model,
                "dataset": dataset,
                "score": 0.3 + 0.05 * m + 0.01 * d,
                "flops": 10.0 ** (m - 2),
                "latency_p50_ms": 0.5 * (m + 1),
            }
            for d, dataset in enumerate(datasets)
            for m, model in enumerate(LONG_MODELS)
        ]
    )
    figure = efficiency_chart(points, "nDCG@10", LONG_MODELS, datasets, "a note " * 30)
    check_layout(figure)
    visible = [ax for ax in figure.axes if ax.get_visible()]
    assert len(visible) == 2 * n_datasets
    first_flops, first_latency = (
        next(ax for ax in visible if ax.get_title() == datasets[0] and label in ax.get_xlabel())
        for label in ("FLOPS", "latency")
    )
    got = sorted((x, y) for line in first_flops.get_lines() for x, y in line.get_xydata())
    here = points[points["dataset"] == datasets[0]]
    assert got == sorted(zip(here["flops"], here["score"], strict=True))
    assert sorted(x for line in first_latency.get_lines() for x in line.get_xdata()) == sorted(
        here["latency_p50_ms"]
    )
    assert figure.get_figwidth() <= figures.MAX_WIDTH
    with pytest.raises(DataError, match="no \\(model x dataset\\)"):
        efficiency_chart(points.iloc[:0], "nDCG@10", LONG_MODELS, datasets, "")


def test_a_partial_runs_point_carries_a_dagger():
    points = pd.DataFrame(
        [
            {"model": m, "dataset": "d", "score": 0.5, "flops": f, "latency_p50_ms": 1.0}
            for m, f in (("a", 2.0), ("b", 4.0))
        ]
    )
    figure = efficiency_chart(points, "nDCG@10", ["a", "b"], ["d"], "", {("b", "d")})
    daggers = [t.xy for ax in figure.axes for t in ax.texts if t.get_text() == "†"]
    assert daggers == [(4.0, 0.5), (1.0, 0.5)]  # the FLOPS panel's point, the latency one's


@pytest.mark.parametrize(
    ("flops", "expected"),
    [
        ([3.0, 80.0], ["5", "10", "20", "50"]),  # one decade tick (10) within the view
        ([2.0, 6.0], ["2", "3", "4", "5", "6"]),  # within a decade: none
        ([1.0, 1e6], ["1", "10", "100", "1000", "10000", "100000", "1e+06"]),
    ],
)
def test_a_log_axis_always_has_labels_to_read_it_by(flops, expected):
    """An axis from 3 to 80 labelled 10 alone: nothing to read a point's cost by."""
    points = pd.DataFrame(
        [
            {"model": m, "dataset": "d", "score": 0.5, "flops": f, "latency_p50_ms": 1.0}
            for m, f in zip(["a", "b"], flops, strict=True)
        ]
    )
    figure = efficiency_chart(points, "nDCG@10", ["a", "b"], ["d"], "")
    figure.canvas.draw()
    ax = next(ax for ax in figure.axes if "FLOPS" in ax.get_xlabel())
    low, high = ax.get_xlim()
    labels = [
        (tick.get_position()[0], tick.get_text())
        for tick in ax.get_xticklabels(which="both")
        if tick.get_text() and low <= tick.get_position()[0] <= high
    ]
    assert [text for _, text in sorted(labels)] == expected


def test_a_leaderboard_without_intervals_of_the_metric_is_refused():
    intervals = intervals_table(["bm25"], ["adi"], metric="MAP")
    with pytest.raises(DataError, match="no scores with intervals of nDCG@10"):
        figures.leaderboard_chart(intervals, {}, ["bm25"], ["adi"], "nDCG@10", "")


def test_precision_recall_lines_are_apart_in_black_and_white():
    curves = pd.DataFrame(
        {m: np.linspace(0.9 - 0.1 * i, 0.05, 11) for i, m in enumerate(LONG_MODELS)},
        index=pd.Index(RECALL_LEVELS, name="recall"),
    )
    figure = figures.precision_recall_chart(curves, "trec-covid")
    check_layout(figure)
    lines = figure.axes[0].get_lines()
    assert [line.get_ydata().tolist() for line in lines] == [curves[m].tolist() for m in curves]
    looks = {(line.get_linestyle(), line.get_marker(), line.get_color()) for line in lines}
    assert len(looks) == len(LONG_MODELS)
    assert figure.axes[0].get_xlabel().startswith("Recall")


@pytest.mark.parametrize("n_queries", [7, 60, 3000])
def test_query_difference_bars_are_the_sorted_differences(n_queries):
    ids = [f"PLAIN-{i}" for i in range(n_queries)]
    differences = data.query_differences(
        pd.Series(RNG.random(n_queries), index=ids),
        pd.Series(RNG.random(n_queries), index=ids),
        "m vs b",
    )
    figure = figures.query_difference_chart(
        differences, LONG_MODELS[4], "bm25", "nfcorpus", "nDCG@10", "mean Δ +0.01, " * 8
    )
    check_layout(figure)
    ax = figure.axes[0]
    heights = {round(p.get_x() + p.get_width() / 2): p.get_height() for p in ax.patches}
    drawn = [heights.get(i, 0.0) for i in range(n_queries)]
    assert drawn == pytest.approx(differences.to_numpy())
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == (list(differences.index) if n_queries <= 60 else labels)
    assert ax.get_ylabel().startswith("Δ nDCG@10")
    with pytest.raises(DataError, match="no queries"):
        figures.query_difference_chart(differences.iloc[:0], "m", "b", "d", "nDCG@10", "")


def test_cost_chart_shows_time_and_memory_per_row():
    rows = pd.DataFrame(
        {
            "label": [
                f"encode_corpus_shard: {', '.join(LONG_MODELS[:3])} ({i} jobs)" for i in range(25)
            ],
            "wall_s": np.linspace(0.5, 4000, 25),
            "peak_rss_mib": np.r_[np.nan, np.linspace(100, 9000, 24)],
        }
    )
    figure = figures.cost_chart(rows, "Cost of each stage on msmarco")
    check_layout(figure)
    time_ax, memory_ax = figure.axes
    assert [p.get_width() for p in time_ax.patches] == pytest.approx(rows["wall_s"].tolist())
    assert "(s)" in time_ax.get_xlabel() and "(MiB)" in memory_ax.get_xlabel()
    annotations = [t.get_text() for t in memory_ax.texts]
    assert annotations[0] == "n/a" and annotations[-1] == "9,000 MiB"
    with pytest.raises(DataError, match="no benchmark records"):
        figures.cost_chart(rows.iloc[:0], "nothing")


def grid_surface(k1s, bs):
    points = [(k1, b) for k1 in k1s for b in bs]
    return pd.DataFrame(
        {
            "k1": [k1 for k1, _ in points],
            "b": [b for _, b in points],
            "mean_all_queries": [0.3 + 0.1 * k1 - 0.05 * b for k1, b in points],
        }
    )


@pytest.mark.parametrize("size", [(4, 4), (16, 11)])
def test_a_sweep_heat_map_shows_the_grid_and_frames_the_chosen_points(size):
    k1s = [round(0.5 + 0.1 * i, 1) for i in range(size[0])]
    bs = [round(0.1 * i, 1) for i in range(size[1])]
    surface = grid_surface(k1s, bs)
    choices = [
        {"fold": 0, "point": {"k1": k1s[-1], "b": bs[0]}},
        {"fold": 1, "point": {"k1": k1s[-1], "b": bs[0]}},
        {"fold": 2, "point": {"k1": k1s[0], "b": bs[-1]}},
    ]
    figure = figures.sweep_chart(
        surface, {"k1": k1s, "b": bs}, choices, "mean_all_queries", "nDCG@10", "t on d"
    )
    check_layout(figure)
    ax = figure.axes[0]
    image = ax.get_images()[0].get_array()
    assert image.shape == size  # rows k1, columns b
    assert image[-1, 0] == pytest.approx(0.3 + 0.1 * k1s[-1])
    frames = [
        p for p in ax.patches if isinstance(p, Rectangle) and p.get_edgecolor()[:3] == (0, 0, 0)
    ]
    assert sorted((round(p.get_x() + 0.5), round(p.get_y() + 0.5)) for p in frames) == sorted(
        [(0, size[0] - 1), (size[1] - 1, 0)]
    )
    assert "folds 0, 1" in figure.get_supxlabel().replace("\n", " ")


def test_a_one_parameter_sweep_is_a_line_with_its_choice():
    surface = pd.DataFrame({"top_k": [64, 128, 256], "mean_train_queries": [0.4, 0.5, 0.45]})
    figure = figures.sweep_chart(
        surface,
        {"top_k": [64, 128, 256]},
        [{"fold": None, "split": "train", "point": {"top_k": 128}}],
        "mean_train_queries",
        "nDCG@10",
        "splade on d",
    )
    check_layout(figure)
    ax = figure.axes[0]
    line, star = ax.get_lines()
    assert list(line.get_ydata()) == [0.4, 0.5, 0.45]
    assert list(star.get_xdata()) == [128] and list(star.get_ydata()) == [0.5]
    assert "training split" in ax.texts[0].get_text().replace("\n", " ")
    with pytest.raises(DataError, match="no mean_all_queries over a parameter grid"):
        figures.sweep_chart(surface, {"top_k": [64]}, [], "mean_all_queries", "nDCG@10", "x")


def test_the_layout_check_sees_overlaps_and_clipping():
    figure = new_figure(3, 2)
    figure.text(0.5, 0.5, "one label")
    figure.text(0.52, 0.5, "another label")
    figure.text(0.99, 0.5, "sticks out on the right")
    problems = layout_problems(figure)
    assert "'one label' overlaps 'another label'" in problems
    assert "'sticks out on the right' is outside the figure" in problems


def test_figures_are_byte_identical_when_drawn_again(tmp_path):
    intervals = intervals_table(LONG_MODELS[:3], ["a", "b"])
    outputs = []
    for attempt in range(2):
        figure = figures.leaderboard_chart(
            intervals, {}, LONG_MODELS[:3], ["a", "b"], "nDCG@10", ""
        )
        png, svg = tmp_path / f"{attempt}.png", tmp_path / f"{attempt}.svg"
        save_figure(figure, png, svg)
        outputs.append((png.read_bytes(), svg.read_bytes()))
    for first, again, name in zip(outputs[0], outputs[1], ("png", "svg"), strict=True):
        assert_same_bytes(again, first, name)
    assert outputs[0][0][:8] == b"\x89PNG\r\n\x1a\n" and b"<dc:date>" not in outputs[0][1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0.png", "0.svg", "1.png", "1.svg"]


def test_wrap_breaks_at_spaces_then_inside_long_names():
    assert wrap("encode_corpus_shard: bm25, bm25-classic-idf (3 jobs)", 44) == (
        "encode_corpus_shard: bm25, bm25-classic-idf\n(3 jobs)"
    )
    assert wrap("opensearch-neural-sparse-doc-v2", 12) == "opensearch-\nneural-\nsparse-doc-\nv2"
    assert wrap("short", 12) == "short"


# --- tables -----------------------------------------------------------------------------


def test_leaderboard_table_has_marks_intervals_and_the_best_in_bold():
    table = pd.DataFrame(
        {"adi": [0.4737, 0.4834], "cqadupstack": [0.30, 0.29], "average": [0.38, 0.39]},
        index=pd.Index(["bm25", "<b>splade</b>"], name="model"),
    )
    intervals = intervals_table(["bm25", "<b>splade</b>"], ["adi"])
    page = tables.leaderboard_html(
        table, intervals, {("<b>splade</b>", "adi"): "▲"}, "nDCG@10", ["▲: better & more"]
    )
    assert "<b>0.4834▲</b>" in page and "0.4737<br>" in page
    low, high = intervals.loc[0, ["ci_low", "ci_high"]]
    assert f"[{low:.4f}, {high:.4f}]" in page
    assert "<b>0.3000</b>" in page  # group columns have no interval
    assert "&lt;b&gt;splade&lt;/b&gt;" in page and "▲: better &amp; more" in page


def test_provenance_block_lists_checksums_versions_command_and_config():
    leaderboard = {
        "settings": {"models": {"bm25": {"kind": "bm25", "k1": 0.9}}, "datasets": {"adi": {}}},
        "settings_sha256": "c" * 64,
        "command": "snakemake --cores all <&>",
        "versions": {"python": "3.11.7", "snakemake": "9.27.1"},
        "datasets": {
            "adi": {
                "name": "adi",
                "split": "test",
                "source": {"kind": "folder", "sha256": {"corpus.jsonl": "a" * 64}},
                "files": {"corpus.parquet": "b" * 64},
            }
        },
        "model_provenance": {"bm25": {"settings_sha256": "d" * 64}},
        "model_settings": {"bm25": {"kind": "bm25", "k1": 0.9}},
    }
    significance = {**leaderboard, "tests": ["t-test"], "seed": 42, "resamples": 1000}
    page = tables.provenance_html(leaderboard, significance)
    for expected in (
        "snakemake --cores all &lt;&amp;&gt;",
        "adi › source › sha256 › corpus.jsonl",
        "a" * 64,
        "adi › files › corpus.parquet",
        "b" * 64,
        "bm25 › settings_sha256",
        "d" * 64,
        "9.27.1",
        "k1: 0.9",
        "seed",
    ):
        assert expected in page, expected
    with pytest.raises(DataError, match="the significance manifest has no versions, command"):
        tables.provenance_html(leaderboard, {"settings": {}})
