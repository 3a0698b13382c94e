"""The docs site: its reference pages are what docs/generate_reference.py makes from the
code today, and it builds with `mkdocs build --strict` (broken links and pages missing
from the navigation fail), offline."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from support.browser import HeadlessBrowser, find_browser


def generator():
    spec = importlib.util.spec_from_file_location(
        "generate_reference", REPO / "docs" / "generate_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_made_pages_are_made_from_the_code():
    """Every page under docs/reference/, and docs/benchmarks.md, is what the generator
    makes today."""
    made = generator().pages()
    docs = REPO / "docs"
    listed = [p.relative_to(docs).as_posix() for p in (docs / "reference").glob("*.md")]
    assert sorted([*listed, "benchmarks.md"]) == sorted(made)
    for name, text in made.items():
        on_disk = (docs / name).read_text(encoding="utf-8")
        assert on_disk == text, f"docs/{name} is stale: run python docs/generate_reference.py"


def test_the_benchmarks_page_shows_the_headline_table_of_the_results():
    results = (REPO / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    table = results.split("<!-- headline:begin -->")[1].split("<!-- headline:end -->")[0]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    assert len(rows) > 10
    page = generator().pages()["benchmarks.md"]
    assert all(row in page for row in rows)


def test_every_registry_entry_has_its_reference_section():
    from sparsebench.data.sources.registry import SOURCES
    from sparsebench.evaluate.measures import MEASURES
    from sparsebench.feedback.methods import METHODS as FEEDBACK
    from sparsebench.kinds.registry import configurable_kinds
    from sparsebench.runs.fusion.registry import METHODS as FUSION

    pages = generator().pages()
    for page, names in [
        ("reference/model-kinds.md", configurable_kinds()),
        ("reference/sources.md", SOURCES),
        ("reference/fusion.md", FUSION),
        ("reference/feedback.md", FEEDBACK),
    ]:
        for name in names:
            assert f"## `{name}`" in pages[page], (page, name)
    for name in MEASURES:
        assert f"| `{name}" in pages["reference/measures.md"], name


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """The site, built once for the tests that read it: mkdocs's outcome and the folder."""
    folder = tmp_path_factory.mktemp("site")
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )
    return built, folder


def test_the_site_builds_strictly(site):
    built, folder = site
    assert built.returncode == 0, built.stderr[-3000:]
    assert (folder / "reference" / "measures" / "index.html").is_file()


def test_every_output_and_published_system_has_its_row():
    from sparsebench.evaluate.published import TABLES
    from sparsebench.evaluate.reproduction import load_expected
    from sparsebench.workflow.outputs import OUTPUTS

    pages = generator().pages()
    for output in OUTPUTS:
        assert f"| `{output.path}` |" in pages["reference/outputs.md"], output.path
    for name, table in TABLES.items():
        assert set(load_expected(name)["system"]) == set(table.systems), name
        for system in table.systems:
            assert f"### `{name}`: `{system}`" in pages["reference/reproduction.md"], (name, system)


# What a reference page shows in a browser, once Material's script has wrapped its tables:
# the title, the links of the navigation drawn, the rows of the tables whose first header
# is `first`, and what sticks out of the page sideways outside a table's scrolling wrapper.
SHOWN = """first => new Promise(resolve => {
    const until = Date.now() + 10000;
    (function poll() {
        const tables = [...document.querySelectorAll("article table")];
        const wrapped = tables.every(t => t.closest(".md-typeset__scrollwrap"));
        if (!(tables.length && wrapped) && Date.now() < until) return setTimeout(poll, 50);
        const width = document.documentElement.clientWidth;
        const outside = box =>
            box.width && box.height && (box.left < -0.5 || box.right > width + 0.5);
        const sticking = [...document.body.querySelectorAll("*")].filter(e => {
            if (e.closest(".md-typeset__scrollwrap")) return false;
            const contents = document.createRange();
            contents.selectNodeContents(e);
            return outside(e.getBoundingClientRect()) || outside(contents.getBoundingClientRect());
        });
        const main = tables.filter(t => t.tHead.rows[0].cells[0].textContent.trim() === first);
        resolve({
            title: document.title,
            wrapped,
            navigation: [...document.querySelectorAll(".md-sidebar--primary .md-nav__link")]
                .filter(link => link.offsetWidth > 0).map(link => link.textContent.trim()),
            active: [...document.querySelectorAll(".md-sidebar--primary .md-nav__link--active")]
                .map(link => link.textContent.trim()),
            rows: main.reduce((n, t) => n + t.tBodies[0].rows.length, 0),
            page_width: [document.documentElement.scrollWidth, width],
            sticking: sticking.map(e => e.tagName + "." + e.className),
        });
    })();
})"""


def test_a_browser_shows_the_reference_pages(site):
    """The measures and outputs pages as a reader sees them: their title, Material's
    navigation, a table row per registry entry, nothing wider than the page but the
    tables, which scroll."""
    from sparsebench.evaluate.measures import MEASURES
    from sparsebench.workflow.outputs import OUTPUTS

    executable = find_browser()
    if executable is None:
        pytest.skip(
            "no headless Chromium on PATH (e.g. apt-get install chromium-headless-shell); "
            "the site was built, not looked at"
        )
    built, folder = site
    assert built.returncode == 0, built.stderr[-3000:]
    pages = {
        "measures": ("Measures", "name", len(MEASURES)),
        "outputs": ("Outputs", "path", len(OUTPUTS)),
    }
    with HeadlessBrowser(executable) as browser:
        for page, (title, first, rows) in pages.items():
            browser.open((folder / "reference" / page / "index.html").as_uri())
            shown = browser.evaluate(f"({SHOWN})({json.dumps(first)})")
            assert shown["title"] == f"{title} - sparsebench", shown["title"]
            assert shown["wrapped"], page
            assert {"Measures", "Outputs"} <= set(shown["navigation"]), shown["navigation"]
            assert set(shown["active"]) == {title}, shown["active"]
            assert shown["rows"] == rows, (page, shown["rows"])
            assert shown["page_width"][0] <= shown["page_width"][1], (page, shown["page_width"])
            assert shown["sticking"] == [], (page, shown["sticking"][-3:])


def _undescribed(schema, where: str) -> list[str]:
    """The keys at and below a JSON schema node without a description, as dotted paths;
    a key given as `true` is described by the clause that owns it."""
    if not isinstance(schema, dict):
        return []
    found = []
    for key, spec in schema.get("properties", {}).items():
        if spec is True:
            continue
        if not spec.get("description"):
            found.append(f"{where}.{key}")
        found += _undescribed(spec, f"{where}.{key}")
    for branch in schema.get("oneOf", []) + schema.get("anyOf", []):
        found += _undescribed(branch, where)
    for key in ("items", "additionalProperties"):
        found += _undescribed(schema.get(key), f"{where}[]")
    for name, spec in schema.get("$defs", {}).items():
        found += _undescribed(spec, f"$defs.{name}")
    return found


def test_every_setting_and_argument_says_what_it_does():
    """Every key of the config schema (nested ones and the shared definitions included),
    of each model kind's and dataset source's schema, and every argument of each command
    has a description (help): no reference page has an empty cell for it."""
    import argparse

    from sparsebench.cli_arguments import build_parser
    from sparsebench.data.sources.registry import SOURCES
    from sparsebench.kinds.registry import KINDS
    from sparsebench.workflow.config import load_schema

    missing = _undescribed(load_schema(), "config")
    for name, kind in KINDS.items():
        missing += _undescribed(kind.schema, f"kinds.{name}")
    for name, source in SOURCES.items():
        missing += _undescribed(source.schema, f"sources.{name}")
    parsers = [("sparsebench", build_parser())]
    while parsers:
        command, parser = parsers.pop()
        for action in parser._actions:  # argparse keeps subcommands only there
            if isinstance(action, argparse._SubParsersAction):
                parsers += [(f"{command} {n}", sub) for n, sub in action.choices.items()]
            elif not isinstance(action, argparse._HelpAction) and not action.help:
                missing.append(f"{command} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, "no description (or help): " + ", ".join(missing)


# `from sparsebench.x import a, b` in a page's code (parenthesised lists included)
_IMPORT = re.compile(r"^\s*from (sparsebench[\w.]*) import \(?([\w\s,]+?)\)?\s*$", re.M)


def test_every_import_the_docs_show_works():
    """A reader copies these lines first: each module a page imports from exists and
    holds every name the line takes from it."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    found = 0
    for page in pages:
        for module_name, names in _IMPORT.findall(page.read_text(encoding="utf-8")):
            module = importlib.import_module(module_name)
            for name in filter(None, (n.strip() for n in names.split(","))):
                assert hasattr(module, name), f"{page.relative_to(REPO)}: {module_name}.{name}"
                found += 1
    assert found >= 3


def test_the_python_api_pages_metrics_example_gives_what_it_says():
    from sparsebench.api import evaluate_retrieval, evaluate_retrieval_per_query

    retrieved = {"q1": [("d3", 12.5), ("d7", 11.0)], "q2": [("d1", 3.2)]}
    qrels = {"q1": {"d3": 2, "d9": 1}, "q2": {"d4": 1}}
    page = (REPO / "docs" / "how-to" / "python-api.md").read_text(encoding="utf-8")
    assert '{"nDCG@1": 0.5, ..., "MAP": 0.25, "MRR": 0.5, ...}' in page
    means = evaluate_retrieval(retrieved, qrels, k_values=[1, 10])
    assert (means["nDCG@1"], means["MAP"], means["MRR"]) == (0.5, 0.25, 0.5)
    per_query = evaluate_retrieval_per_query(retrieved, qrels, metrics=["nDCG@10", "MAP"])
    assert set(per_query) == {"q1", "q2"} and set(per_query["q1"]) == {"nDCG@10", "MAP"}
