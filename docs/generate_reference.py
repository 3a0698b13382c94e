"""Write the docs site's pages that are made, not written: the reference pages
(docs/reference/) from the code (the config schema, the model kinds, measures, fusion and
feedback methods, dataset sources, encoders, languages, the files under results/ and the
published figures, each read from its registry), and the benchmarks page from the
headline table of benchmarks/RESULTS.md, so that none can drift from its source.

    python docs/generate_reference.py          # rewrite the pages
    python docs/generate_reference.py --check  # exit 1 when a page is stale

tests/test_docs.py runs the check.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from sparsebench.workflow.outputs import Output

DOCS = Path(__file__).parent
RESULTS = DOCS.parent / "benchmarks" / "RESULTS.md"
HEADLINE = ("<!-- headline:begin -->", "<!-- headline:end -->")
NOTE = "<!-- made by docs/generate_reference.py from the code: do not edit -->"


def _cell(value: Any) -> str:
    """A table cell: one line, pipes escaped, angle brackets shown (_html_safe)."""
    return _html_safe(" ".join(str(value).split()).replace("|", "\\|"))


@functools.cache
def _shared_definitions() -> dict[str, Any]:
    """The schema's definitions with keys of their own that the kinds share by reference
    (the analyzer), each given its own section of the model-kinds page."""
    from sparsebench.workflow.config import load_schema

    return {
        name: spec
        for name, spec in load_schema()["$defs"].items()
        if name not in ("model", "dataset") and "properties" in spec
    }


def _type(spec: Mapping[str, Any]) -> str:
    if "enum" in spec:
        return " \\| ".join(f"`{v}`" for v in spec["enum"])
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](model-kinds.md#{name})" if name in _shared_definitions() else name
    kind = spec.get("type")
    if isinstance(kind, list):
        return " \\| ".join(kind)
    if kind is None and "oneOf" in spec:
        return " or ".join(_type(s) for s in spec["oneOf"])
    return str(kind or "")


def _properties(properties: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Table rows (key, type, default, description) of a schema's properties, nested
    objects flattened as key.sub."""
    rows = []
    for key, spec in properties.items():
        name = f"{prefix}{key}"
        default = f"`{spec['default']}`" if "default" in spec else ""
        about = _cell(spec.get("description", ""))
        rows.append(f"| `{name}` | {_type(spec)} | {_cell(default)} | {about} |")
        if spec.get("type") == "object" and "properties" in spec:
            rows += _properties(spec["properties"], f"{name}.")
    return rows


def _table(rows: list[str]) -> list[str]:
    return ["| key | type | default | description |", "|---|---|---|---|", *rows]


def _first_paragraph(text: str | None) -> str:
    return _cell((text or "").strip().split("\n\n")[0])


def configuration() -> str:
    from sparsebench.workflow.config import load_schema

    schema = load_schema()
    lines = [
        "# Configuration",
        "",
        "Every key of a config file, from the schema (sparsebench/schemas/config.schema.yaml);",
        "a model's keys are its kind's ([model kinds](model-kinds.md)), a dataset's its",
        "source's ([dataset sources](sources.md)) beside those every dataset takes.",
        "",
    ]
    for section, spec in schema["properties"].items():
        if section in ("datasets", "models"):
            continue
        about = _first_paragraph(spec.get("description"))
        lines += [f"## `{section}`", "", *([about, ""] if about else [])]
        lines += _table(_properties(spec.get("properties", {}))) + [""]
    dataset = schema["$defs"]["dataset"]
    lines += ["## Every dataset", ""] + _table(_properties(dataset["properties"])) + [""]
    return "\n".join(lines)


def model_kinds() -> str:
    from sparsebench.kinds.registry import KINDS

    lines = ["# Model kinds", "", "One section per `kind:` (sparsebench/kinds/registry.py).", ""]
    for name, kind in KINDS.items():
        if not kind.configurable:
            continue
        lines += [f"## `{name}`", "", _cell(kind.description), ""]
        lines += _table(_properties(kind.schema.get("properties", {}))) + [""]
    return "\n".join(lines + _shared_settings())


def _shared_settings() -> list[str]:
    """The settings several kinds share by reference (a type linked like `analyzer`
    above), each with its own keys."""
    lines = ["## Shared settings", ""]
    for name, spec in _shared_definitions().items():
        about = [_cell(spec["description"]), ""] if "description" in spec else []
        lines += [f"### `{name}`", "", *about]
        lines += _table(_properties(spec["properties"])) + [""]
    return lines


def measures() -> str:
    from sparsebench.evaluate.measures import MEASURES

    forms = {"cutoff": "{}@k", "recall level": "{}@x", "none": "{}", "optional cutoff": "{}[@k]"}
    lines = [
        "# Measures",
        "",
        "Every measure (sparsebench/evaluate/measures.py), as trec_eval computes it. A",
        "measure of relevance also takes `(rel=r)`, `(judged_only=True)` (or a prime:",
        "`nDCG'@10`) and `(unjudged=relevant)`.",
        "",
        "| name | formula | source |",
        "|---|---|---|",
    ]
    for measure in MEASURES.values():
        name = forms[measure.parameter].format(measure.name)
        lines.append(f"| `{name}` | {_cell(measure.formula)} | {_cell(measure.source)} |")
    return "\n".join(lines) + "\n"


def _defining_module(entry: object) -> Any:
    """The module that defines a registry entry (its docstring is the entry's)."""
    return next(
        module
        for name, module in sorted(sys.modules.items())
        if name.startswith("sparsebench.")
        and any(v is entry for v in vars(module).values())
        and not name.endswith("registry")
    )


def fusion_methods() -> str:
    from sparsebench.runs.fusion import fuse
    from sparsebench.runs.fusion.registry import METHODS

    lines = ["# Fusion methods", "", "`method:` of a `kind: fusion` model.", ""]
    lines += [(fuse.__doc__ or "").strip(), ""]
    for name, method in METHODS.items():
        module = _defining_module(method)
        lines += [f"## `{name}`", "", (module.__doc__ or "").strip(), ""]
        lines += [f"Reads normalised scores: {method.norm}; weighted: {method.weighted}.", ""]
    return "\n".join(lines)


def feedback_methods() -> str:
    from sparsebench.feedback.methods import METHODS, methods_table

    lines = ["# Feedback methods", "", "`feedback: {method: ...}` of a lexical model.", ""]
    lines += [methods_table(), ""]
    for name, method in METHODS.items():
        doc = importlib.import_module(method.module).__doc__ or ""
        lines += [f"## `{name}`", "", doc.strip(), ""]
    return "\n".join(lines)


def sources() -> str:
    from sparsebench.data.sources.registry import SOURCES

    lines = ["# Dataset sources", "", "`source:` of a dataset (sparsebench/data/sources/).", ""]
    for name, source in SOURCES.items():
        lines += [f"## `{name}`", "", _cell(source.description), ""]
        lines += _table(_properties(source.schema.get("properties", {}))) + [""]
    return "\n".join(lines)


def encoders() -> str:
    from sparsebench.encode.encoders import ENCODERS

    lines = [
        "# Encoders",
        "",
        "The encoding kinds a model kind's encoding settings name",
        "(sparsebench/encode/encoders.py).",
        "",
        "| encoding | module | what it does |",
        "|---|---|---|",
    ]
    for name, module in ENCODERS.items():
        doc = _first_paragraph(importlib.import_module(module).__doc__)
        lines.append(f"| `{name}` | `{module}` | {doc} |")
    return "\n".join(lines) + "\n"


def languages() -> str:
    from sparsebench.analysis.languages import markdown_table

    return "\n".join(
        [
            "# Languages and analyzers",
            "",
            "The BM25 analyzer of each language, as Anserini 1.7.1 picks it "
            "(sparsebench/analysis/languages.py).",
            "",
            markdown_table(),
            "",
        ]
    )


def _subcommands(
    parser: argparse.ArgumentParser, path: str
) -> list[tuple[str, argparse.ArgumentParser]]:
    """(command line, parser) of a parser and all its subcommands, depth first."""
    found = [(path, parser)]
    for action in parser._actions:  # argparse keeps subcommands only there
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _subcommands(sub, f"{path} {name}")
    return found


# defaults the machine sets (the cores): their help says what they are
MACHINE_DEFAULTS = {"threads"}


def _argument_rows(parser: argparse.ArgumentParser) -> list[str]:
    """A table row per argument: its flags (or name), choices, default and help."""
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        flags = ", ".join(f"`{f}`" for f in action.option_strings) or f"`{action.dest}`"
        choices = ", ".join(f"`{c}`" for c in action.choices or ())
        default = action.default
        if default in (None, False, argparse.SUPPRESS) or action.dest in MACHINE_DEFAULTS:
            default = ""
        default = f"`{default}`" if default != "" else ""
        required = " (required)" if action.required and action.option_strings else ""
        rows.append(f"| {flags}{required} | {choices} | {default} | {_cell(action.help or '')} |")
    return rows


def command_line() -> str:
    from sparsebench.cli_arguments import build_parser

    lines = ["# Command line", "", "Every command of `sparsebench`, from its parser.", ""]
    for path, parser in _subcommands(build_parser(), "sparsebench"):
        rows = _argument_rows(parser)
        lines += [f"## `{path}`", "", _cell(parser.description or ""), ""]
        if rows:
            lines += ["| argument | choices | default | what |", "|---|---|---|---|", *rows, ""]
    return "\n".join(lines)


def _fields(output: Output) -> str:
    """An output's columns or keys, each with the configuration that adds it, if any."""
    return ", ".join(
        f"`{field.name}`" + (f" (only with {field.when})" if field.when else "")
        for field in output.fields
    )


def outputs() -> str:
    from sparsebench.workflow.outputs import AREAS, OUTPUTS, WILDCARDS

    lines = [
        "# Outputs",
        "",
        "Every file the workflow writes under `results/` (sparsebench/workflow/outputs.py,",
        "which a test holds against the files of a real run), with the rules that write it.",
        "A file, column or key marked *only with* is made by that configuration alone. The",
        "braces of a path, a column or a key stand for:",
        "",
        "| wildcard | what |",
        "|---|---|",
        *(f"| `{{{name}}}` | {_cell(about)} |" for name, about in WILDCARDS.items()),
        "",
    ]
    for area, title in AREAS.items():
        entries = [o for o in OUTPUTS if o.area == area]
        lines += [f"## {title}", "", "| path | written by | what | only with |"]
        lines.append("|---|---|---|---|")
        for o in entries:
            rules = ", ".join(f"`{rule}`" for rule in o.rules)
            lines.append(f"| `{o.path}` | {rules} | {_cell(o.about)} | {_cell(o.when)} |")
        described = [o for o in entries if o.fields]
        if described:
            lines += ["", "Columns of the tables, in order, and keys of the JSON records:", ""]
            lines += [f"- `{o.path}`, {o.field_kind}: {_fields(o)}" for o in described]
        lines.append("")
    return "\n".join(_html_safe(line) for line in lines)


def _html_safe(line: str) -> str:
    """Angle brackets outside code spans as entities: `miracl-<language>` is text to
    show, not an HTML tag to hide."""
    parts = line.split("`")
    return "`".join(p if i % 2 else p.replace("<", "&lt;") for i, p in enumerate(parts))


def _published(rows: pd.DataFrame) -> list[str]:
    """One system's published figures: a row per dataset, a column per metric, what
    made the figures (analyzer, scoring) and where they were read."""
    metrics = list(dict.fromkeys(rows["metric"]))
    lines = [
        f"| dataset | {' | '.join(metrics)} | made with | source |",
        "|---|" + "---:|" * len(metrics) + "---|---|",
    ]
    for dataset, figures in rows.groupby("dataset", sort=False):
        values = dict(zip(figures["metric"], figures["value"], strict=True))
        made = dict.fromkeys(v for c in ("analyzer", "scoring") for v in figures[c] if v)
        sources: dict[str, list[str]] = {}
        for metric, where in zip(figures["metric"], figures["source"], strict=True):
            sources.setdefault(where, []).append(metric)
        source = "; ".join(
            where if len(sources) == 1 else f"{', '.join(of)}: {where}"
            for where, of in sources.items()
        )
        cells = [values.get(metric, "") for metric in metrics]
        lines.append(
            f"| `{dataset}` | {' | '.join(cells)} | {_cell('; '.join(made))} | {_cell(source)} |"
        )
    return lines


def reproduction() -> str:
    import io

    import pandas as pd

    from sparsebench.evaluate import published, reproduction
    from sparsebench.evaluate.stages import reference_row
    from sparsebench.workflow.config import load_schema

    section = load_schema()["properties"]["reproduction"]
    example = next(iter(published.TABLES))
    system = next(iter(published.TABLES[example].systems))
    lines = [
        "# Published figures",
        "",
        *(_cell(p) + "\n" for p in (reproduction.__doc__ or "").strip().split("\n\n")),
        "Every row of the built-in tables (sparsebench/resources/reference/), system by",
        "system, with the file each figure was read from; the tables' comments say more.",
        "",
        "## Holding an experiment against them",
        "",
        "Map a model of the config to a system (`reproduction.models`).",
        _first_paragraph(reference_row.__doc__),
        "`reproduction.datasets` maps any other dataset. The leaderboard stage then writes",
        "`results/reproduction.tsv` (see [outputs](outputs.md)) and a table in",
        "`results/leaderboard.md`:",
        "",
        "```yaml",
        "reproduction:",
        f"  expected: [{example}]",
        f"  models: {{mymodel: {system}}}",
        "```",
        "",
        "or, for the metrics of any finished run,",
        "[`sparsebench check-reproduction`](cli.md#sparsebench-check-reproduction):",
        "",
        "```bash",
        "sparsebench check-reproduction --leaderboard results/metrics.tsv "
        f"--expected {example} --model mymodel={system}",
        "```",
        "",
        *_table(_properties(section["properties"], "reproduction.")),
        "",
    ]
    for name, table in published.TABLES.items():
        text = published.builtin_text(name)
        rows = pd.read_csv(
            io.StringIO(text), sep="\t", comment="#", dtype=str, keep_default_na=False
        )
        lines += [f"## `{name}`", "", _cell(table.about), "", "| system | what it is |"]
        lines += ["|---|---|", *(f"| `{s}` | {_cell(a)} |" for s, a in table.systems.items()), ""]
        for system, about in table.systems.items():
            lines += [f"### `{name}`: `{system}`", "", _cell(about), ""]
            lines += [*_published(rows[rows["system"] == system]), ""]
    return "\n".join(_html_safe(line) for line in lines)


def benchmarks() -> str:
    text = RESULTS.read_text(encoding="utf-8")
    begin, end = HEADLINE
    if begin not in text or end not in text:
        raise SystemExit(f"{RESULTS} has no {begin} ... {end} section")
    table = text.split(begin, 1)[1].split(end, 1)[0].strip()
    return "\n".join(
        [
            "# Benchmarks",
            "",
            "Speed and memory, each measured by a script in `benchmarks/` against a reference",
            "implementation run beside it (ratios from the same run, on the machine named).",
            "This table is the head of `benchmarks/RESULTS.md`, which keeps every",
            "measurement as it was made, with its command and the reasons behind it.",
            "",
            table,
        ]
    )


# each made page, by its path under docs/
PAGES: dict[str, Callable[[], str]] = {
    "reference/cli.md": command_line,
    "reference/configuration.md": configuration,
    "reference/model-kinds.md": model_kinds,
    "reference/measures.md": measures,
    "reference/fusion.md": fusion_methods,
    "reference/feedback.md": feedback_methods,
    "reference/sources.md": sources,
    "reference/encoders.md": encoders,
    "reference/languages.md": languages,
    "reference/outputs.md": outputs,
    "reference/reproduction.md": reproduction,
    "benchmarks.md": benchmarks,
}


def pages() -> dict[str, str]:
    """Each made page's text, by its path under docs/."""
    return {name: f"{NOTE}\n\n{make().rstrip()}\n" for name, make in PAGES.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a page is stale")
    args = parser.parse_args()
    stale = []
    for name, text in pages().items():
        path = DOCS / name
        path.parent.mkdir(exist_ok=True)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"stale pages: {', '.join(stale)}; run python docs/generate_reference.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
