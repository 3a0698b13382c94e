"""The code digest that reruns a stage when the library code it runs changes."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from sparsebench.workflow import codehash


@pytest.fixture
def package_copy(tmp_path, monkeypatch):
    """A copy of the sparsebench sources that a test may edit."""
    copy = tmp_path / "sparsebench"
    shutil.copytree(codehash.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    cached = (codehash._tree, codehash._definitions, codehash.stage_code)
    cached += (codehash.sources_digest, codehash._remembered_digests)

    def clear():
        for function in cached:
            function.cache_clear()

    monkeypatch.setattr(codehash, "PACKAGE_DIR", copy)
    clear()
    yield copy, clear
    monkeypatch.undo()
    clear()


STAGES = {  # stage function -> its module
    "term_weights": "sparsebench.encode.stages",
    "encode_corpus_shard": "sparsebench.encode.stages",
    "retrieve_run": "sparsebench.retrieve.stages",
    "evaluate": "sparsebench.evaluate.stages",
    "significance": "sparsebench.evaluate.stages",
}


def modules(stage: str) -> set[str]:
    return set(codehash.stage_modules(stage, STAGES[stage]))


def digests() -> dict[str, str]:
    return {stage: codehash.stage_code_digest(stage, module) for stage, module in STAGES.items()}


def test_each_stage_reaches_its_own_modules_only():
    evaluate = modules("evaluate")
    assert {
        "sparsebench.evaluate.measures",
        "sparsebench.evaluate.metrics",
        "sparsebench.evaluate.ranking",
    } <= evaluate
    assert (
        not {
            "sparsebench.encode.weighting",
            "sparsebench.search.scipy_backend",
            "sparsebench.encode.encoders",
        }
        & evaluate
    )
    encode = modules("encode_corpus_shard")
    assert {
        "sparsebench.encode.encoders",
        "sparsebench.analysis.analyzer",
        "sparsebench.encode.sparse",
    } <= encode
    assert not {"sparsebench.evaluate.measures", "sparsebench.evaluate.metrics"} & encode
    assert "sparsebench.encode.weighting" in modules("term_weights")
    assert "sparsebench.search.scipy_backend" in modules("retrieve_run")


def test_editing_a_module_changes_the_digest_of_the_stages_that_use_it(package_copy):
    copy, clear = package_copy
    before = digests()
    with (copy / "encode" / "weighting.py").open("a") as module:
        module.write("# a comment is an edit too, as for Snakemake's code trigger\n")
    clear()
    after = digests()
    assert after["term_weights"] != before["term_weights"]
    assert {k: v for k, v in after.items() if k != "term_weights"} == {
        k: v for k, v in before.items() if k != "term_weights"
    }


def test_editing_one_stage_function_changes_only_its_digest(package_copy):
    copy, clear = package_copy
    before = digests()
    stages = copy / "evaluate" / "stages.py"
    text = stages.read_text()
    marker = "def evaluate(\n"
    assert marker in text
    stages.write_text(text.replace(marker, "def _helper():\n    return 1\n\n\n" + marker))
    clear()
    assert digests() == before  # a new function nobody calls changes nothing
    start = text.index(marker)
    body = text.index('"""', text.index('"""', start) + 3) + 3  # after its docstring
    stages.write_text(text[:body] + "\n    _unused = 0" + text[body:])
    clear()
    after = digests()
    assert after["evaluate"] != before["evaluate"]
    assert {k: after[k] for k in after if k != "evaluate"} == {
        k: before[k] for k in before if k != "evaluate"
    }


def test_an_unknown_stage_is_an_error():
    with pytest.raises(KeyError, match="no function 'encode_everything'"):
        codehash.stage_code_digest("encode_everything", "sparsebench.encode.stages")
    with pytest.raises(KeyError, match="'encode_everything' is defined in no stages module"):
        codehash.stage_code_digest("encode_everything")


def test_a_stage_is_found_in_its_subpackage():
    for stage, module in STAGES.items():
        assert codehash.stage_module(stage) == module
        assert codehash.stage_code_digest(stage) == codehash.stage_code_digest(stage, module)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder, and a way to forget what this process remembers."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("SPARSEBENCH_CACHE_DIR", str(folder))

    def forget():
        for function in (codehash._tree, codehash._definitions, codehash.stage_code):
            function.cache_clear()
        codehash._remembered_digests.cache_clear()

    forget()
    yield folder, forget
    forget()


def test_digests_are_remembered_under_the_digest_of_the_sources(cache):
    folder, forget = cache
    computed = {stage: codehash._computed_digest(stage, module) for stage, module in STAGES.items()}
    assert digests() == computed
    file = folder / "code-digests" / f"{codehash.sources_digest()}.json"
    remembered = json.loads(file.read_text())
    assert {key.split(":")[1]: value for key, value in remembered.items()} == computed
    forget()
    file.write_text(json.dumps({**remembered, "sparsebench.evaluate.stages:evaluate": "0" * 64}))
    assert codehash.stage_code_digest("evaluate", STAGES["evaluate"]) == "0" * 64  # read back


def test_an_edit_is_never_answered_from_the_cache(package_copy, cache):
    copy, clear = package_copy
    before = digests()
    key = codehash.sources_digest()
    metrics = copy / "evaluate" / "metrics.py"
    text = metrics.read_text()
    metrics.write_text(text + "\n")
    clear()
    assert codehash.sources_digest() != key
    assert digests()["evaluate"] != before["evaluate"]
    metrics.write_text(text)
    clear()
    assert codehash.sources_digest() == key and digests() == before


@pytest.mark.parametrize("damage", ["not json", "[1, 2]", '{"a:b": "short"}'])
def test_a_damaged_cache_file_is_computed_again(cache, damage):
    folder, forget = cache
    expected = codehash._computed_digest("evaluate", STAGES["evaluate"])
    file = folder / "code-digests" / f"{codehash.sources_digest()}.json"
    file.parent.mkdir(parents=True)
    file.write_text(damage)
    forget()
    assert codehash.stage_code_digest("evaluate", STAGES["evaluate"]) == expected
    assert json.loads(file.read_text()) == {"sparsebench.evaluate.stages:evaluate": expected}


def test_an_unwritable_cache_only_costs_time(cache):
    folder, _ = cache
    folder.write_text("a file where the cache folder should be")  # even root cannot write
    expected = codehash._computed_digest("evaluate", STAGES["evaluate"])
    assert codehash.stage_code_digest("evaluate", STAGES["evaluate"]) == expected
    assert folder.read_text().startswith("a file")


def test_only_the_newest_versions_stay(cache, monkeypatch):
    folder, forget = cache
    versions = folder / "code-digests"
    versions.mkdir(parents=True)
    for n in range(codehash.KEPT_DIGEST_FILES + 5):
        old = versions / f"{n:064x}.json"
        old.write_text("{}")
        os.utime(old, (n, n))
    codehash.stage_code_digest("evaluate", STAGES["evaluate"])
    kept = sorted(p.name for p in versions.glob("*.json"))
    assert len(kept) == codehash.KEPT_DIGEST_FILES
    assert f"{codehash.sources_digest()}.json" in kept and f"{0:064x}.json" not in kept
