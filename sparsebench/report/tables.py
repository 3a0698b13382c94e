"""HTML pages of the report: the leaderboard as a table, and the provenance block.

Each page is one self-contained file (inline style, no script), so the Snakemake report
can embed it as it is."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import yaml

from sparsebench.core.errors import DataError

_STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 14px; margin: 1.5em;
       color: #111; }
table { border-collapse: collapse; margin: 0.5em 0 1.2em; }
th, td { border: 1px solid #bbb; padding: 0.3em 0.6em; vertical-align: top; }
th { background: #eee; text-align: left; }
td.number { text-align: right; white-space: nowrap; }
.interval { color: #444; font-size: 85%; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; }
table.keys td { word-break: break-all; }
table.keys th { font-weight: normal; white-space: nowrap; }
p.note { max-width: 60em; }
"""


def page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
        f"<body>\n<h1>{html.escape(title)}</h1>\n{body}</body>\n</html>\n"
    )


def leaderboard_html(
    table: pd.DataFrame,
    intervals: pd.DataFrame,
    marks: Mapping[tuple[str, str], str],
    metric: str,
    notes: Sequence[str],
) -> str:
    """The leaderboard (rows: models, columns: datasets, groups and the average) with each
    cell's significance mark and 95% interval; the best value of each column in bold.
    intervals: columns dataset, metric, model, ci_low, ci_high."""
    values = table.apply(pd.to_numeric, errors="coerce")
    cells = intervals[intervals["metric"] == metric].set_index(["model", "dataset"])
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in ["model", *values.columns])
    rows = []
    for model, row in values.iterrows():
        out = [f"<th>{html.escape(str(model))}</th>"]
        for column, value in row.items():
            if pd.isna(value):
                out.append('<td class="number">–</td>')
                continue
            text = f"{value:.4f}{marks.get((model, column), '')}"
            if value == values[column].max():
                text = f"<b>{text}</b>"
            if (model, column) in cells.index:
                low, high = cells.loc[(model, column), ["ci_low", "ci_high"]]
                text += f'<br><span class="interval">[{low:.4f}, {high:.4f}]</span>'
            out.append(f'<td class="number">{text}</td>')
        rows.append("<tr>" + "".join(out) + "</tr>")
    body = f"<table>\n<tr>{head}</tr>\n" + "\n".join(rows) + "\n</table>\n"
    body += "".join(f'<p class="note">{html.escape(note)}</p>\n' for note in notes)
    return page(f"Leaderboard: {metric}", body)


def _leaves(value: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """(key path, value) of every leaf of nested mappings (lists of plain values are one
    leaf)."""
    if isinstance(value, Mapping) and value:
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, str(k)))]
    if isinstance(value, list | tuple) and any(isinstance(v, Mapping) for v in value):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, str(i)))]
    return [(path, value)]


def _text(value: Any) -> str:
    if value is None or value == {} or value == []:
        return "–"
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return str(value)


def _key_table(value: Mapping[str, Any]) -> str:
    """Nested mappings as one table of "a › b › c" keys and their values."""
    rows = "".join(
        f"<tr><th>{html.escape(' › '.join(keys))}</th>"
        f"<td><code>{html.escape(_text(leaf))}</code></td></tr>"
        for keys, leaf in _leaves(value)
    )
    return f'<table class="keys">{rows}</table>'


def provenance_html(leaderboard: Mapping[str, Any], significance: Mapping[str, Any]) -> str:
    """What produced the results: the command, software versions, dataset and model
    checksums, the significance settings and the whole configuration, from the
    leaderboard's and the significance report's manifests."""
    for name, manifest in (("leaderboard", leaderboard), ("significance", significance)):
        missing = [k for k in ("settings", "versions", "command") if k not in manifest]
        if missing:
            raise DataError(f"the {name} manifest has no {', '.join(missing)}")
    run = {
        "command": leaderboard["command"],
        "host": leaderboard.get("host"),
        "started": leaderboard.get("started"),
        "finished": leaderboard.get("finished"),
        "configuration sha256": leaderboard.get("settings_sha256"),
        "primary metric": leaderboard.get("primary_metric"),
    }
    tests = {k: significance.get(k) for k in ("tests", "correction", "alpha", "resamples", "seed")}
    models = {
        name: {
            "settings": json.dumps(leaderboard.get("model_settings", {}).get(name), sort_keys=True),
            **record,
        }
        for name, record in leaderboard.get("model_provenance", {}).items()
    }
    sections = [
        ("Run", run),
        ("Software", leaderboard["versions"]),
        ("Datasets (sha256 of the source and of the prepared files)", leaderboard.get("datasets")),
        ("Models (settings sha256, sha256 of model files or hub revision)", models),
        ("Significance tests", tests),
    ]
    body = "".join(f"<h2>{html.escape(t)}</h2>\n{_key_table(v or {})}\n" for t, v in sections)
    config = yaml.safe_dump(leaderboard["settings"], sort_keys=False, allow_unicode=True)
    body += f"<h2>Configuration</h2>\n<pre>{html.escape(config)}</pre>\n"
    return page("Provenance", body)
