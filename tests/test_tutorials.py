"""Every tutorial of the docs site is in its navigation and followed by a test, as a reader
follows it (support/tutorials.py; the tests that run them: tests/workflow/test_tutorial_*.py
and, on a cluster, tests/workflow/test_slurm.py), and shows no block that is not run."""

from __future__ import annotations

import pytest
import yaml
from conftest import REPO
from support.tutorials import steps

TUTORIALS = REPO / "docs" / "tutorials"


def page(name: str):
    return TUTORIALS / f"{name}.md"


def test_every_tutorial_is_in_the_site_and_followed_here():
    """A new tutorial page is listed in the site's navigation and a test follows it."""
    nav = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    listed = next(item["Tutorials"] for item in nav if "Tutorials" in item)
    shown = sorted(next(iter(entry.values())) for entry in listed)
    assert shown == sorted(f"tutorials/{p.name}" for p in TUTORIALS.glob("*.md"))
    tests = "\n".join(
        p.read_text(encoding="utf-8")
        for p in [
            *(REPO / "tests" / "workflow").glob("test_tutorial_*.py"),
            REPO / "tests" / "workflow" / "test_slurm.py",
        ]
    )
    for tutorial in TUTORIALS.glob("*.md"):
        assert f'"{tutorial.name}"' in tests, f"{tutorial.name} has no test that follows it"


@pytest.mark.parametrize("name", sorted(p.stem for p in TUTORIALS.glob("*.md")))
def test_every_block_of_a_tutorial_is_run_or_checked(name):
    """A block that is neither a file, a command nor an output shown is refused (it would
    be a command no test runs), and every page has at least one command."""
    kinds = [step.kind for step in steps(page(name))]
    assert "run" in kinds
