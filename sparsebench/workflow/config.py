"""Read and validate config.yaml: the schema with its defaults, checks the schema cannot
express, parameter sweeps expanded into variant models, relative paths resolved.

What each rule depends on is derived from the validated config by the plan
(sparsebench.workflow.plan); what a model kind or a dataset source accepts, by their
registries (sparsebench.kinds.registry, sparsebench.data.sources.registry).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from sparsebench.core.errors import ConfigError
from sparsebench.data.sources import registry as sources
from sparsebench.kinds.base import is_local_path
from sparsebench.kinds.fusion import check_fusions
from sparsebench.kinds.registry import KINDS, configurable_kinds, schema_clauses
from sparsebench.kinds.run import check_run_files
from sparsebench.search.settings import SearchSettings
from sparsebench.workflow.names import UniqueNames, name_problems
from sparsebench.workflow.yamlfile import parse_yaml, read_yaml

# Settings that change how fast results come, never a byte of them (the search's: those
# of SearchSettings): no rerun follows them, and the experiment's digest leaves them out.
SPEED_SETTINGS = {
    "retrieval": tuple(f.name for f in fields(SearchSettings) if f.name != "threads"),
    "download": ("retries", "timeout_s"),
}


def load_schema() -> dict[str, Any]:
    """The JSON schema of config.yaml, shipped inside the package, with each model kind's
    clause and each dataset source's from their registries."""
    text = resources.files("sparsebench").joinpath("schemas/config.schema.yaml").read_text()
    schema = parse_yaml(text, "sparsebench/schemas/config.schema.yaml")
    schema["$defs"]["model"]["allOf"] = schema_clauses()
    dataset = schema["$defs"]["dataset"]
    dataset["properties"]["source"]["enum"] = list(sources.SOURCES)
    dataset["allOf"] = sources.schema_clauses(dataset["properties"])
    return schema


def _with_defaults(validator_class: type) -> type:
    """A validator that also fills in the schema's defaults (as snakemake.utils.validate)."""
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if isinstance(subschema, dict) and "default" in subschema:
                    instance.setdefault(name, copy.deepcopy(subschema["default"]))
        yield from validate_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


def _format_error(error: jsonschema.ValidationError) -> str:
    where = (
        "config." + ".".join(str(p) for p in error.absolute_path)
        if error.absolute_path
        else "config"
    )
    return f"{where}: {error.message}"


def _source_problems(datasets: Any, problems: list[str]) -> list[str]:
    """The schema's problems, with those of a dataset entry that names no known source
    (every source's required keys, each a line) replaced by the one that matters."""
    if not isinstance(datasets, Mapping):
        return problems
    for name, entry in datasets.items():
        if not isinstance(entry, Mapping) or sources.named_source(entry.get("source")):
            continue
        where = f"config.datasets.{name}"
        problems = [p for p in problems if not p.startswith((f"{where}:", f"{where}."))]
        given = entry.get("source")
        problems.append(
            f"{where}.source: "
            + (f"unknown source {given!r}" if "source" in entry else "missing")
            + f"; the sources are: {', '.join(sources.SOURCES)}"
        )
    return problems


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Return a validated deep copy of `config` with every default filled in.

    Raises ConfigError listing every problem, each with the key path it concerns.
    """
    if not isinstance(config, Mapping):
        raise ConfigError("the configuration must be a mapping with 'datasets' and 'models'")
    resolved = copy.deepcopy(dict(config))
    sweeps = _take_sweeps(resolved)
    schema = load_schema()
    validator = _with_defaults(jsonschema.Draft202012Validator)(schema)
    problems = [_format_error(e) for e in sorted(validator.iter_errors(resolved), key=str)]
    problems = _source_problems(resolved.get("datasets"), problems)
    for name, model in (resolved.get("models") or {}).items():
        kind = model.get("kind") if isinstance(model, dict) else None
        if kind is not None and kind not in configurable_kinds():
            problems.append(
                f"config.models.{name}.kind: unknown model kind {kind!r}; "
                f"known kinds: {', '.join(configurable_kinds())}"
            )
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(dict.fromkeys(problems)))
    resolved["datasets"] = _expand_groups(resolved["datasets"])
    for name, dataset in resolved["datasets"].items():
        _resolve_dataset(name, dataset)
    problems = name_problems(resolved["datasets"], resolved["models"])
    problems += sources.dataset_problems(resolved["datasets"])
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))
    problems = [
        f"config.models.{name}: {problem}"
        for name, model in resolved["models"].items()
        for problem in KINDS[model["kind"]].problems(model)
    ]
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))
    _put_sweeps(resolved, sweeps)
    _check_metrics(resolved)
    _check_significance(resolved)
    from sparsebench.evaluate.published import check_expected_tables

    check_expected_tables(resolved["reproduction"]["expected"])
    check_fusions(
        resolved["models"], {n: KINDS[m["kind"]].run_rule for n, m in resolved["models"].items()}
    )
    _check_feedback_partitions(resolved)
    return resolved


def _check_feedback_partitions(config: Mapping[str, Any]) -> None:
    """Feedback reads the first retrieval over the whole corpus: one search job."""
    partitions = config["retrieval"]["partitions"]
    expanded = [n for n, m in config["models"].items() if m.get("feedback")]
    if partitions > 1 and expanded:
        raise ConfigError(
            f"config.models.{expanded[0]}.feedback: feedback expands a query from its first "
            f"retrieval over the whole corpus, which retrieval.partitions: {partitions} "
            "splits; use partitions: 1"
        )


def _take_sweeps(config: dict[str, Any]) -> dict[str, Any]:
    """Replace each model with grid or range values by its variants (plain models, then
    validated like any other); return what _put_sweeps needs to restore the order."""
    from sparsebench.tune.sweeps import expand_sweep

    models = config.get("models")
    if not isinstance(models, Mapping):
        return {}
    expanded = UniqueNames("models")
    sweeps: dict[str, Any] = {}
    metric = (config.get("evaluation") or {}).get("primary_metric")
    for name, entry in models.items():
        found = expand_sweep(name, entry, metric) if isinstance(entry, Mapping) else None
        if found is None:
            expanded.add(name, entry, f"the model {name}")
            continue
        sweep, variants = found
        clash = set(variants) & set(models)
        if clash:
            raise ConfigError(f"config.models: {sorted(clash)} clash with variants of {name}")
        sweeps[name] = sweep
        for variant, variant_entry in variants.items():
            expanded.add(variant, variant_entry, f"a variant of {name}")
    config["models"] = dict(expanded)
    return sweeps


def _put_sweeps(config: dict[str, Any], sweeps: Mapping[str, Any]) -> None:
    """Put each swept model back, as kind `tuned`, where it was, its variants after it."""
    from sparsebench.tune.sweeps import without_parameters

    if not sweeps:
        return
    variant_of = {v: name for name, sweep in sweeps.items() for v in sweep.variants}
    models: dict[str, Any] = {}
    for name, entry in config["models"].items():
        owner = variant_of.get(name)
        if owner is not None and owner not in models:
            sweep = sweeps[owner]
            if sweep.metric is None:
                sweep = replace(sweep, metric=config["evaluation"]["primary_metric"])
            base = without_parameters(entry, sweep.parameters)
            models[owner] = {"kind": "tuned", "base": base, "sweep": sweep.as_dict()}
        models[name] = {**entry, "variant_of": owner} if owner else entry
    config["models"] = models


def is_variant(model: Mapping[str, Any]) -> bool:
    """A point of a parameter sweep (a model that is run but not reported)."""
    return "variant_of" in model


def reported_models(config: Mapping[str, Any]) -> list[str]:
    """Models on the leaderboard and in the significance tests: all but sweep variants."""
    return [m for m, entry in config["models"].items() if not is_variant(entry)]


def experiment_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """The validated config without the settings that change speed only: what a result
    depends on, so what its provenance records and the experiment's digest covers."""
    settings = copy.deepcopy(dict(config))
    for section, keys in SPEED_SETTINGS.items():
        for key in keys:
            settings.get(section, {}).pop(key, None)
    for entry in settings.get("models", {}).values():
        for each in (entry, entry.get("base") or {}):
            kind = KINDS.get(each.get("kind"))
            for key in kind.speed_settings if kind else ():
                each.pop(key, None)
    return settings


def _check_metrics(config: dict[str, Any]) -> None:
    from sparsebench.evaluate.measures import parse_metric_name

    named = [("config.evaluation.primary_metric", config["evaluation"]["primary_metric"])]
    named += [
        (f"config.models.{name}.tune.metric", entry["sweep"]["metric"])
        for name, entry in config["models"].items()
        if entry["kind"] == "tuned"
    ]
    named += [
        (f"config.significance.metrics[{i}]", m)
        for i, m in enumerate(config["significance"]["metrics"])
    ]
    for where, name in named:
        try:
            parse_metric_name(name)
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None


def _check_significance(config: dict[str, Any]) -> None:
    significance = config["significance"]
    if significance["primary_test"] not in significance["tests"]:
        raise ConfigError(
            f"config.significance.primary_test: {significance['primary_test']!r} is not among "
            f"the tests run ({', '.join(significance['tests'])})"
        )
    models = reported_models(config)
    if significance["baseline"] is None:
        significance["baseline"] = models[0]  # the first model listed
    elif significance["baseline"] not in models:
        raise ConfigError(
            f"config.significance.baseline: {significance['baseline']!r} is not a model; "
            f"models: {', '.join(models)}"
        )
    for name in config["reproduction"]["models"]:
        if name not in models:
            raise ConfigError(f"config.reproduction.models: {name!r} is not a model")


def tuning_metrics(config: Mapping[str, Any]) -> list[str]:
    """The metrics parameter sweeps choose their points by."""
    tuned = [m["sweep"]["metric"] for m in config["models"].values() if m["kind"] == "tuned"]
    return list(dict.fromkeys(tuned))


def significance_metrics(config: Mapping[str, Any]) -> list[str]:
    """The primary metric, then the extra metrics named for significance testing."""
    names = [config["evaluation"]["primary_metric"], *config["significance"]["metrics"]]
    return list(dict.fromkeys(names))


def _resolve_dataset(name: str, dataset: dict[str, Any]) -> None:
    """Fill the defaults that depend on the source (BEIR name, split, self-hit policy)."""
    sources.source_of(dataset).fill_defaults(name, dataset)
    dataset.setdefault("split", "test")
    dataset.setdefault("ignore_identical_ids", False)


def _expand_groups(datasets: dict[str, Any]) -> dict[str, Any]:
    """Each entry becomes the datasets it stands for (cqadupstack: its 12 forums, each
    evaluated on its own and averaged into one leaderboard column, as BEIR reports it)."""
    expanded = UniqueNames("datasets")
    for name, entry in datasets.items():
        for each, each_entry, origin in sources.source_of(entry).datasets(name, entry):
            expanded.add(each, each_entry, origin)
    return dict(expanded)


def load_config_file(path: str | Path) -> dict[str, Any]:
    """Read and validate a YAML config file (for the library and command-line use);
    relative paths in it are relative to the file."""
    return config_from_files(read_yaml(path), [path])


def config_from_files(config: Mapping[str, Any], files: Sequence[str | Path]) -> dict[str, Any]:
    """Validate `config` (Snakemake's: the files merged, then --config), each dataset's and
    model's relative paths resolved against the folder of the last file that defines it,
    as a user reading that file expects, whatever folder Snakemake runs in. Each file is
    read again here to see which entries it defines, refusing a key written twice (which
    Snakemake's own reading lets pass, the last one winning)."""
    base_of: dict[str, Path] = {}
    tables_base = None  # the folder of the last file naming reproduction.expected
    for file in files:
        defined = read_yaml(file)
        if not isinstance(defined, Mapping):
            raise ConfigError(f"{file}: the configuration must be a mapping")
        for name in [*(defined.get("datasets") or {}), *(defined.get("models") or {})]:
            base_of[name] = Path(file).resolve().parent
        if (
            isinstance(defined.get("reproduction"), Mapping)
            and "expected" in defined["reproduction"]
        ):
            tables_base = Path(file).resolve().parent
    resolved = dict(config)
    for base in dict.fromkeys(base_of.values()):
        names = {name for name, where in base_of.items() if where == base}
        resolved = resolve_relative_paths(resolved, base, names=names)
    if tables_base is not None:
        resolved = _resolve_expected_tables(resolved, tables_base)
    return check_run_files(validate_config(resolved))  # the files the runs name, too


def _resolve_expected_tables(config: Mapping[str, Any], base: Path) -> dict[str, Any]:
    """reproduction.expected's own tables (not the built-in names) made absolute against
    the folder of the config file naming them."""
    from sparsebench.evaluate.published import BUILTIN

    section = config.get("reproduction")
    if not isinstance(section, Mapping) or "expected" not in section:
        return dict(config)
    expected = section["expected"]
    names = [expected] if isinstance(expected, str) else expected
    if not isinstance(names, list):
        return dict(config)
    tables = [n if n in BUILTIN else _resolved(n, base, hub=False) for n in names]
    return {
        **config,
        "reproduction": {**section, "expected": tables[0] if isinstance(expected, str) else tables},
    }


def _resolved(value: Any, base: Path, hub: bool) -> Any:
    """`value` made absolute against `base` if it is a relative local path; URLs, absolute
    and home paths are left alone, and so (when `hub`) are hub ids: values not written as
    a path (kinds.base.is_local_path) that name nothing under `base`."""
    if not isinstance(value, str) or not value or "://" in value:
        return value
    if value.startswith("~") or Path(value).is_absolute():
        return value
    candidate = base / value
    if hub and not is_local_path(value) and not candidate.exists():
        return value  # a hub id (miracl/miracl, naver/splade-v3), a repo:path
    return os.path.normpath(candidate)


def _path_keys(section: str, entry: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """(key, may be a hub id) of the entry's keys that hold paths."""
    if section == "datasets":
        source = sources.named_source(entry.get("source"))
        expansions = [("expansions.path", False)]  # every source's documents may take them
        return [(key, source.hub) for key in source.path_keys] + expansions if source else []
    kind = KINDS.get(entry.get("kind"))
    if kind is None:
        return []
    return [(k, False) for k in kind.path_keys] + [(k, True) for k in kind.path_or_hub_keys]


def resolve_relative_paths(config: Mapping[str, Any], base: Path, names=None) -> dict[str, Any]:
    """A copy of a raw config whose relative paths (datasets' files and folders, run
    files, model folders) are made absolute against `base` (the folder of the config file
    that names them), as a user reading the file expects, whatever folder Snakemake runs
    in. `names`: only these datasets and models (those a given file defines)."""
    resolved = copy.deepcopy(dict(config))
    for section in ("datasets", "models"):
        entries = resolved.get(section)
        if not isinstance(entries, Mapping):
            continue
        for name, entry in entries.items():
            if not isinstance(entry, dict) or (names is not None and name not in names):
                continue
            for key, hub in _path_keys(section, entry):
                *parents, last = key.split(".")
                holder = entry
                for parent in parents:
                    holder = holder.get(parent) if isinstance(holder, dict) else None
                if isinstance(holder, dict) and last in holder:
                    holder[last] = _resolved(holder[last], base, hub)
    return resolved
