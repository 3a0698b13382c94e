"""The registry of dataset sources: one entry per source, each giving the schema clause a
config is validated by, and the keys the corpora and the relative paths follow; the data
stages' code digests reach every reader, which the sources import only when asked."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sparsebench.core.errors import ConfigError
from sparsebench.data.sources.registry import SOURCES, schema_clauses, source_of
from sparsebench.workflow import codehash
from sparsebench.workflow.config import load_schema, validate_config

READERS = {
    "sparsebench.data.collection",
    "sparsebench.data.miracl",
    "sparsebench.data.mmarco",
    "sparsebench.data.irdatasets",
    "sparsebench.data.hub",
    "sparsebench.data.hubrepo",
}


def test_every_source_has_its_schema_clause():
    schema = load_schema()["$defs"]["dataset"]
    assert schema["properties"]["source"]["enum"] == list(SOURCES)
    assert schema["allOf"] == schema_clauses(schema["properties"])
    clauses = {c["if"]["properties"]["source"]["const"]: c["then"] for c in schema["allOf"]}
    assert list(clauses) == list(SOURCES)
    for name, then in clauses.items():
        assert then["additionalProperties"] is False, name
        assert then["properties"]["source"] is True, name
        assert set(then.get("required", ())) <= set(then["properties"]), name


@pytest.mark.parametrize("name", list(SOURCES))
def test_a_source_declares_only_keys_its_schema_takes(name):
    source = SOURCES[name]
    taken = set(source.schema["properties"]) | {"language"}  # hub sources: language
    assert set(source.path_keys) <= taken, name
    assert set(source.document_keys) <= taken, name
    assert source.description and source.name == name


def test_an_unknown_source_names_the_known_ones():
    with pytest.raises(
        ConfigError, match=r"unknown dataset source 'trec'; known sources: builtin, "
    ):
        source_of({"source": "trec"})


def test_the_data_stages_digest_every_source_and_reader():
    """The sources import their readers inside functions; the digests follow them."""
    modules = {f"sparsebench.data.sources.{m}" for m in ("registry", "base")}
    modules |= {type(s).__module__ for s in SOURCES.values()}
    for stage in ("prepare", "prepare_corpus"):
        reached = set(codehash.stage_modules(stage, "sparsebench.data.stages"))
        assert modules | READERS <= reached, stage


def test_only_the_data_stages_reach_the_sources():
    """The leaderboard names a dataset's row of the published tables without the sources:
    editing a reader reruns the data stages, not the evaluation."""
    for module, function in [
        ("sparsebench.evaluate.stages", "leaderboard"),
        ("sparsebench.evaluate.stages", "evaluate"),
        ("sparsebench.encode.stages", "encode_corpus_shard"),
        ("sparsebench.retrieve.stages", "retrieve_run"),
    ]:
        reached = codehash.stage_modules(function, module)
        assert not [m for m in reached if m.startswith("sparsebench.data.sources")], function


def test_reading_a_config_imports_no_reader():
    code = (
        "import sys\n"
        "from sparsebench.workflow.config import validate_config\n"
        "validate_config({'datasets': {'d': {'source': 'local', 'path': '.'}},"
        " 'models': {'m': {'kind': 'bm25'}}})\n"
        "print(sorted(m for m in sys.modules if m in ("
        "'sparsebench.data.collection', 'sparsebench.data.miracl', 'sparsebench.data.mmarco',"
        " 'sparsebench.data.irdatasets', 'sparsebench.data.hub', 'huggingface_hub', 'datasets')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ({"name": "minibeir"}, "missing"),
        ({"source": "bier", "name": "scifact"}, "unknown source 'bier'"),
    ],
)
def test_a_dataset_without_a_known_source_is_one_clear_line(entry, said):
    """Not every source's required keys, one line each: the source is what is wrong."""
    config = {"datasets": {"d": entry}, "models": {"b": {"kind": "bm25"}}}
    with pytest.raises(ConfigError) as raised:
        validate_config(config)
    lines = str(raised.value).splitlines()[1:]
    assert lines == [f"  config.datasets.d.source: {said}; the sources are: {', '.join(SOURCES)}"]
