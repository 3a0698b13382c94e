"""The docs site: its reference pages are what docs/generate_reference.py makes from the
code today, and it builds with `mkdocs build --strict` (broken links and pages missing
from the navigation fail), offline."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

from conftest import REPO


def generator():
    spec = importlib.util.spec_from_file_location(
        "generate_reference", REPO / "docs" / "generate_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_pages_are_made_from_the_code():
    made = generator().pages()
    folder = REPO / "docs" / "reference"
    assert sorted(p.name for p in folder.glob("*.md")) == sorted(made)
    for name, text in made.items():
        on_disk = (folder / name).read_text(encoding="utf-8")
        assert on_disk == text, (
            f"docs/reference/{name} is stale: run python docs/generate_reference.py"
        )


def test_every_registry_entry_has_its_reference_section():
    from sparsebench.data.sources.registry import SOURCES
    from sparsebench.evaluate.measures import MEASURES
    from sparsebench.feedback.methods import METHODS as FEEDBACK
    from sparsebench.kinds.registry import configurable_kinds
    from sparsebench.runs.fusion.registry import METHODS as FUSION

    pages = generator().pages()
    for page, names in [
        ("model-kinds.md", configurable_kinds()),
        ("sources.md", SOURCES),
        ("fusion.md", FUSION),
        ("feedback.md", FEEDBACK),
    ]:
        for name in names:
            assert f"## `{name}`" in pages[page], (page, name)
    for name in MEASURES:
        assert f"| `{name}" in pages["measures.md"], name


def test_the_site_builds_strictly(tmp_path):
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / "site" / "reference" / "measures" / "index.html").is_file()
