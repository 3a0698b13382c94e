"""The visual report end to end: the default target builds it on real collections,
`snakemake --report` packages every figure into one self-contained HTML page, and a
headless browser shows each of them."""

from __future__ import annotations

import base64
import json
import re
import struct

import pytest
from conftest import REPO
from support.browser import HeadlessBrowser, find_browser
from support.samefiles import assert_same_bytes
from support.shared_runs import reported_experiment
from support.snakemake_runs import snakemake

pytestmark = pytest.mark.slow
CATEGORIES = [
    "1. Leaderboard",
    "2. Precision-recall",
    "3. Per-query differences",
    "4. Cost of each stage",
    "5. Provenance",
]


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    """adi and minibeir, two BM25 variants (support/shared_runs.py: REPORTED), run once
    for the session and packaged."""
    return reported_experiment(tmp_path_factory)


def expected_results() -> dict[str, str]:
    """Report path -> its category."""
    figures = {
        "results/report/leaderboard.html": CATEGORIES[0],
        "results/report/leaderboard.png": CATEGORIES[0],
        "results/report/efficiency.png": CATEGORIES[0],
        "results/report/costs.tsv": CATEGORIES[3],
        "results/report/costs.png": CATEGORIES[3],
        "results/report/provenance.html": CATEGORIES[4],
    }
    for dataset in ("adi", "minibeir"):
        figures[f"results/report/precision_recall/{dataset}.png"] = CATEGORIES[1]
        figures[f"results/report/query_differences/bm25-classic-idf/{dataset}.png"] = CATEGORIES[2]
        figures[f"results/report/costs/{dataset}.png"] = CATEGORIES[3]
    return figures


def embedded(page: str, name: str):
    """A JSON value the report page embeds as `var {name} = ...;`."""
    return json.loads(re.search(rf'<script id="{name}">\s*var {name} = (.*);\n', page).group(1))


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_report_packages_every_figure_with_its_caption(reported):
    workdir, page, _ = reported
    html = page.read_text()
    results = embedded(html, "results")
    assert set(results) == set(expected_results())
    categories = embedded(html, "categories")
    assert sorted(categories) == CATEGORIES
    for path, category in expected_results().items():
        assert path in str(categories[category]), path
        entry = results[path]
        content = base64.b64decode(entry["data_uri"].split("base64,", 1)[1])
        assert_same_bytes(content, (workdir / path).read_bytes(), path)  # embedded, not linked
        assert entry["caption"].strip(), path
        if path.endswith(".png"):
            assert (workdir / path).with_suffix(".svg").stat().st_size > 0
            width, height = png_size(content)
            assert 500 < width <= 2200 and 300 < height <= 2200, (path, width, height)
    captions = {path: results[path]["caption"] for path in results}
    assert "adi" in captions["results/report/precision_recall/adi.png"]
    assert (
        "bm25-classic-idf" in captions["results/report/query_differences/bm25-classic-idf/adi.png"]
    )
    # self-contained: no script, style or image is fetched from elsewhere
    assert not re.search(r"<(script|img|link)[^>]+(src|href)=\"?https?:", html)
    leaderboard = base64.b64decode(
        results["results/report/leaderboard.html"]["data_uri"].split(",", 1)[1]
    ).decode()
    assert "<table>" in leaderboard and "bm25-classic-idf" in leaderboard
    provenance = base64.b64decode(
        results["results/report/provenance.html"]["data_uri"].split(",", 1)[1]
    ).decode()
    assert "adi › files › corpus.parquet" in provenance and "snakemake" in provenance


def test_stage_costs_cover_every_pipeline_job(reported):
    workdir, _, _ = reported
    costs = (workdir / "results" / "report" / "costs.tsv").read_text().splitlines()
    rows = [dict(zip(costs[0].split("\t"), line.split("\t"), strict=True)) for line in costs[1:]]
    rules = [row["rule"] for row in rows]
    assert rules.count("prepare") == 2 and rules.count("retrieve") == 4
    assert rules.count("encode_corpus_shard") == 2  # one shard of one encoding per dataset
    assert {"significance", "leaderboard"} <= set(rules)
    assert not any(rule.startswith("report") for rule in rules)
    shards = [row for row in rows if row["rule"] == "encode_corpus_shard"]
    assert {row["models"] for row in shards} == {"bm25,bm25-classic-idf"}  # shared encoding
    assert all(float(row["wall_s"]) > 0 for row in rows)
    # Snakemake samples memory while a job runs: a short job gives NA (NaN here), or 0.00
    # when its one sample caught only the starting shell; never a negative value
    assert not any(float(row["peak_rss_mib"] or "nan") < 0 for row in rows)


def test_jobs_say_what_they_do_and_logs_show_progress(reported):
    workdir, _, output = reported
    assert re.search(r"Job \d+: retrieve: top-1000 for bm25-classic-idf on adi", output)
    assert re.search(r"Job \d+: visual_report: the figures and tables of results/report/", output)
    log = (workdir / "results" / "logs" / "retrieve" / "bm25" / "adi.log").read_text()
    assert re.search(r"retrieving: 100%.*35/35 \[.*query/s\]", log)


def test_a_browser_shows_every_figure(reported, tmp_path):
    executable = find_browser()
    if executable is None:
        pytest.skip(
            "no headless Chromium on PATH (e.g. apt-get install chromium-headless-shell); "
            "the report's HTML was checked without a browser"
        )
    workdir, page, _ = reported
    with HeadlessBrowser(executable) as browser:
        browser.open(page.as_uri())
        menu = browser.evaluate(
            """new Promise(resolve => {
                const until = Date.now() + 20000;
                (function poll() {
                    const text = document.body.innerText;
                    if (text.includes("5. Provenance") || Date.now() > until) resolve(text);
                    else setTimeout(poll, 50);
                })();
            })"""
        )
        assert all(category in menu for category in CATEGORIES), menu[:500]
        for path in expected_results():
            kind = {"png": "img", "html": "html"}.get(path.rsplit(".", 1)[1])
            if kind is None:
                continue  # a table to download
            shown = browser.evaluate(
                f"""new Promise(resolve => {{
                    const path = {json.dumps(path)}, uri = results[path].data_uri;
                    app.setView({{content: "{kind}", contentPath: uri, resultPath: path}});
                    const until = Date.now() + 10000;
                    (function poll() {{
                        const image = [...document.images].find(i => i.src === uri);
                        const frame = [...document.querySelectorAll("iframe")]
                            .find(f => f.src === uri);
                        if (image && image.complete && image.naturalWidth)
                            resolve([image.naturalWidth, image.naturalHeight]);
                        else if (frame) resolve("frame");
                        else if (Date.now() > until) resolve(null);
                        else setTimeout(poll, 50);
                    }})();
                }})"""
            )
            if kind == "img":
                assert tuple(shown) == png_size((workdir / path).read_bytes()), path
            else:
                assert shown == "frame", path
        browser.screenshot(tmp_path / "last.png")
        assert png_size((tmp_path / "last.png").read_bytes()) == (1400, 1000)


def test_the_report_of_another_experiment_is_refused(reported, tmp_path):
    """results/ holds the experiment run with its --configfile: packaging a report
    without it (the default experiment's settings) would mix the two, so it is refused,
    naming the run that made the results."""
    workdir, _, _ = reported
    result = snakemake(workdir, "--report", str(tmp_path / "mixed.html"), check=False)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "cannot package the report: the results in results are those of another" in output
    assert "repeat that run's --configfile" in output and "--configfile" in output
    assert not (tmp_path / "mixed.html").exists()


def test_the_front_page_counts_in_words(reported):
    """'1 model on 1 dataset', not '1 models on 1 datasets' (the page's template)."""
    import types

    import jinja2

    _, page, _ = reported
    assert "2 models on" in page.read_text(encoding="utf-8")
    template = jinja2.Template((REPO / "workflow" / "report" / "workflow.rst").read_text())
    config = {
        "models": {"bm25": {}},
        "datasets": {"adi": {}},
        "evaluation": {"primary_metric": "nDCG@10"},
        "significance": {
            "baseline": "bm25",
            "primary_test": "t-test",
            "correction": "holm",
            "alpha": 0.05,
        },
    }
    text = " ".join(template.render(snakemake=types.SimpleNamespace(config=config)).split())
    assert text.startswith("sparsebench: 1 model on 1 dataset, ranked by")
    # a tuned model's grid points are run, not reported: not counted as models
    config["models"] = {
        "bm25": {},
        "tuned": {"kind": "tuned"},
        "tuned+k1_0.9": {"variant_of": "tuned"},
        "tuned+k1_1.2": {"variant_of": "tuned"},
    }
    text = " ".join(template.render(snakemake=types.SimpleNamespace(config=config)).split())
    assert text.startswith("sparsebench: 2 models on 1 dataset") and "Models: bm25, tuned." in text
    sections = [line for line in text.split("- **")[1:]]
    assert [s.split(".")[0] for s in sections] == ["1", "2", "3", "4", "5", "6"]
