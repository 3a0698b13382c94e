"""Every tutorial of the docs site, followed as a reader follows it: each file it shows
written, each command it shows run, in order, in a folder laid out as the reader's, and
every output it shows found in the file it names (support/tutorials.py)."""

from __future__ import annotations

import pytest
import yaml
from conftest import REPO, SHARED
from support.tutorials import check_shown, follow, reader_environment, reader_folder, steps

TUTORIALS = REPO / "docs" / "tutorials"


def page(name: str):
    return TUTORIALS / f"{name}.md"


def test_every_tutorial_is_in_the_site_and_followed_here():
    """A new tutorial page is listed in the site's navigation and has its test below."""
    nav = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    listed = next(item["Tutorials"] for item in nav if "Tutorials" in item)
    shown = sorted(next(iter(entry.values())) for entry in listed)
    assert shown == sorted(f"tutorials/{p.name}" for p in TUTORIALS.glob("*.md"))
    followed = {"beir-bm25", "bm25-vs-splade", "fusion", "own-vectors-and-runs", "miracl"}
    followed |= {"slurm"}  # tests/workflow/test_slurm.py, on the cluster it starts
    assert {p.stem for p in TUTORIALS.glob("*.md")} == followed


@pytest.mark.parametrize("name", sorted(p.stem for p in TUTORIALS.glob("*.md")))
def test_every_block_of_a_tutorial_is_run_or_checked(name):
    """A block that is neither a file, a command nor an output shown is refused (it would
    be a command no test runs), and every page has at least one command."""
    kinds = [step.kind for step in steps(page(name))]
    assert "run" in kinds


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    """The reader's clone, with ../shared beside it, shared by the tutorials that build
    on each other."""
    return reader_folder(tmp_path_factory.mktemp("reader"), REPO, SHARED)


@pytest.mark.slow
def test_beir_bm25_against_the_published_table(tmp_path):
    """The tutorial, and the README's picture of its leaderboard (each row a prefix of
    the leaderboard's row: the README leaves out the last columns)."""
    clone = reader_folder(tmp_path, REPO, SHARED)
    follow(page("beir-bm25"), clone, reader_environment())
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    picture = readme.split("<!-- leaderboard:begin")[1].split("-->", 1)[1]
    picture = picture.split("<!-- leaderboard:end -->")[0]
    rows = [row.rstrip(" |") + " ..." for row in picture.splitlines() if row.startswith("| ")]
    check_shown("\n".join(rows), (clone / "results" / "leaderboard.md").read_text(), "README.md")


@pytest.mark.slow
def test_bm25_against_splade_then_their_fusion(reader):
    follow(page("bm25-vs-splade"), reader, reader_environment())
    follow(page("fusion"), reader, reader_environment())


@pytest.mark.slow
def test_your_own_encoder_vectors_and_runs(tmp_path):
    clone = reader_folder(tmp_path, REPO, SHARED)
    follow(page("own-vectors-and-runs"), clone, reader_environment())


@pytest.mark.slow
def test_miracl_in_18_languages(tmp_path):
    """On a stand-in for the hub's two MIRACL repositories (support/miracl_standin.py)."""
    from support.hubserver import HubServer, hub_env
    from support.miracl_standin import build_miracl_hub

    root = build_miracl_hub(tmp_path / "hub")
    clone = reader_folder(tmp_path / "reader", REPO, SHARED)
    with HubServer(root) as server:
        online = hub_env(server, tmp_path / "cache", base=reader_environment())
        for offline in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
            online.pop(offline, None)
        follow(page("miracl"), clone, online)
