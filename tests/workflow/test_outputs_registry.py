"""The registry of results/ (sparsebench.workflow.outputs, made into
docs/reference/outputs.md) held against a real run: every file the run wrote is one
entry's and was written by one of its rules, every table has the entry's columns and
every JSON record its keys (a column a writer adds fails here), and every entry, column
or key the run lacks names the configuration that makes it."""

from __future__ import annotations

import base64
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from support.shared_runs import REPORTED, reported_experiment

from sparsebench.evaluate.efficiency import ENCODING_COLUMNS, SUMMARY_COLUMNS, encoding_summary
from sparsebench.retrieve.costs import read_cost, summary
from sparsebench.workflow.layout import RULES
from sparsebench.workflow.outputs import OUTPUTS, RULE_WHEN, WILDCARDS, Field, Output

pytestmark = pytest.mark.slow

# The default target on adi and the built-in minibeir (the run the report's tests read):
# two models (the baseline and one compared with it) that share their document encoding,
# so that every job of a default run is there.
CONFIG = REPORTED
# what the run's names stand for in a column or key pattern; other braces match any name
NAMES = {"dataset": list(CONFIG["datasets"]), "model": list(CONFIG["models"])}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return reported_experiment(tmp_path_factory)[0]


@pytest.fixture(scope="module")
def written(workdir) -> list[str]:
    """Every file under the run's results/, by its path there."""
    results = workdir / "results"
    return sorted(p.relative_to(results).as_posix() for p in results.rglob("*") if p.is_file())


def pattern(text: str, wildcard: Callable[[str], str]) -> re.Pattern:
    """A path or field pattern as a regular expression, `wildcard` that of a {name}."""
    parts = PLACEHOLDER.split(text)
    return re.compile("".join(wildcard(p) if i % 2 else re.escape(p) for i, p in enumerate(parts)))


def path_wildcard(name: str) -> str:
    """A wildcard of a path: one folder or file name (shards and partitions: a number)."""
    return r"\d+" if name in ("shard", "partition") else "[^/]+"


PATHS = [(pattern(o.path, path_wildcard), o) for o in OUTPUTS]


def entries_of(name: str) -> list[Output]:
    return [o for path, o in PATHS if path.fullmatch(name)]


def entry_of(name: str) -> Output:
    (output,) = entries_of(name)
    return output


def expanded(fields: tuple[Field, ...]) -> list[tuple[re.Pattern, Field]]:
    """Each field's names in this run: a pattern of datasets or models once per name,
    other patterns as expressions that match any name."""
    out = []
    for field in fields:
        wildcards = PLACEHOLDER.findall(field.name)
        if not all(w in NAMES for w in wildcards):
            out.append((pattern(field.name, lambda _: ".+"), field))
            continue
        for values in itertools.product(*(NAMES[w] for w in wildcards)):
            name = field.name.format_map(dict(zip(wildcards, values, strict=True)))
            out.append((re.compile(re.escape(name)), field))
    return out


def fields_of(path: Path) -> list[str]:
    """The columns of a TSV or Parquet file, the fields of a run's first line, the keys
    of a JSON record."""
    if path.suffix == ".tsv":
        return path.read_text(encoding="utf-8").split("\n", 1)[0].split("\t")
    if path.suffix == ".parquet":
        return pq.read_schema(path).names
    if path.suffix == ".json":
        return list(json.loads(path.read_text(encoding="utf-8")))
    raise AssertionError(f"{path}: no fields to read")


def test_every_file_of_the_run_is_one_entrys(written):
    assert "leaderboard.tsv" in written and len(written) > 50
    for name in written:
        assert len(entries_of(name)) == 1, (name, [o.path for o in entries_of(name)])


def test_every_entry_the_run_lacks_names_the_configuration_that_makes_it(written):
    produced = {entry_of(name) for name in written}
    assert [o.path for o in OUTPUTS if not o.when and o not in produced] == []


def test_every_file_has_its_entrys_columns_or_keys(workdir, written):
    checked = 0
    for name in written:
        output = entry_of(name)
        if not output.fields:
            continue
        path = workdir / "results" / name
        if path.suffix == ".trec":  # no header: the fields of a line
            line = path.read_text(encoding="utf-8").split("\n", 1)[0]
            assert len(line.split()) == len(output.fields), name
            continue
        documented = expanded(output.fields)
        places = []
        for column in fields_of(path):
            matches = [i for i, (field, _) in enumerate(documented) if field.fullmatch(column)]
            assert len(matches) == 1, f"{name}: {column!r} matches {len(matches)} fields"
            places.append(matches[0])
        for i, (field, documentation) in enumerate(documented):
            assert documentation.when or i in places, f"{name}: no {field.pattern!r}"
        if output.field_kind == "columns":
            assert places == sorted(places), f"{name}: columns out of the documented order"
        checked += 1
    assert checked >= 15


def test_every_file_is_written_by_a_rule_of_its_entry(workdir, written):
    """Snakemake's record of each output (and of its job's log) names the rule of the
    job, a folder's record its files'; a benchmark file's path does."""
    records, results = workdir / ".snakemake" / "metadata", workdir / "results"
    recorded = set()
    for record in (p for p in records.rglob("*") if p.is_file()):
        parts = record.relative_to(records).parts
        path = base64.urlsafe_b64decode("".join(p.removeprefix("@") for p in parts)).decode()
        job = json.loads(record.read_text())
        for name in (path, *job["log"]):
            folder = workdir / name
            files = sorted(folder.rglob("*")) if folder.is_dir() else [folder]
            for file in (f.relative_to(results).as_posix() for f in files if f.is_file()):
                recorded.add(file)
                assert job["rule"] in entry_of(file).rules, (file, job)
    benchmarks = {name for name in written if name.startswith("benchmarks/")}
    assert set(written) - benchmarks == recorded


def test_the_registry_names_the_workflows_rules_and_wildcards():
    """Every rule writes an entry besides its log, the rules only some configurations run
    are rules, and the docs say what each wildcard of a path stands for."""
    writers = {rule for o in OUTPUTS if o.area != "logs" for rule in o.rules}
    assert writers == set(RULES)
    assert set(RULE_WHEN) <= set(RULES)
    names = [o.path for o in OUTPUTS] + [f.name for o in OUTPUTS for f in o.fields]
    assert {w for name in names for w in PLACEHOLDER.findall(name)} == set(WILDCARDS)


def test_the_efficiency_columns_are_what_the_cost_summaries_give(workdir):
    """efficiency.tsv keeps the columns its constant lists: a key the summaries add
    without it would be left out of the table, so it fails here."""
    results = workdir / "results"
    record = read_cost(next((results / "costs").rglob("*.json")))
    assert tuple(summary(record)) == SUMMARY_COLUMNS
    shards = list((results / "encode").rglob("shards/*.cost.json"))
    assert tuple(encoding_summary(shards)) == ENCODING_COLUMNS
