"""What an experiment's visual report holds (results/report/), where each of its files
lies, and which files it reads. One job writes it all (rule visual_report): its figures share
the start-up of one process, however many datasets and models the experiment has."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sparsebench.workflow.layout import EVAL, REPORT_FILES, TUNING, report_folder

# the experiment-wide tables the report reads
TABLES = {
    "leaderboard": "results/leaderboard.tsv",
    "intervals": "results/intervals.tsv",
    "significance": "results/significance.tsv",
    "efficiency": "results/efficiency.tsv",
    "metrics": "results/metrics.tsv",
    "leaderboard_manifest": "results/leaderboard.manifest.json",
    "significance_manifest": "results/significance.manifest.json",
}


@dataclass(frozen=True)
class ReportFile:
    """A file of the report: its kind (a key of REPORT_FILES), the dataset and model it is drawn
    for (empty if none), its path and, for a figure, the SVG copy beside the PNG."""

    kind: str
    path: str
    svg: str | None = None
    dataset: str = ""
    model: str = ""


@dataclass(frozen=True)
class ReportOutput:
    """A declared output of the report's job: a file, or a folder (`pattern` the figures'
    path in it); `kind` the kind of file it holds, None for an SVG copy, which the
    packaged report leaves out."""

    path: str
    kind: str | None = None
    pattern: str | None = None


@dataclass(frozen=True)
class ReportContents:
    """An experiment's report: `models` and `datasets` as the leaderboard lists them,
    `pairs` every evaluated (model, dataset), `metric` the primary metric,
    `significance` the config's section, `tuned` the swept pairs (a figure of each grid),
    `searched` whether any model is searched here (the efficiency figure)."""

    models: tuple[str, ...]
    datasets: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    metric: str
    significance: Mapping[str, Any]
    tuned: tuple[tuple[str, str], ...] = ()
    searched: bool = True

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> ReportContents:
        """From the record `as_settings` gives (a job's params)."""
        pairs = lambda key: tuple(tuple(p) for p in settings[key])  # noqa: E731
        return cls(
            tuple(settings["models"]),
            tuple(settings["datasets"]),
            pairs("pairs"),
            settings["metric"],
            dict(settings["significance"]),
            pairs("tuned"),
            bool(settings["searched"]),
        )

    def as_settings(self) -> dict[str, Any]:
        """Plain lists and dicts: a job's params, read back by `of`."""
        return {
            "models": list(self.models),
            "datasets": list(self.datasets),
            "pairs": [list(p) for p in self.pairs],
            "metric": self.metric,
            "significance": dict(self.significance),
            "tuned": [list(p) for p in self.tuned],
            "searched": self.searched,
        }

    @property
    def baseline(self) -> str:
        return self.significance["baseline"]

    def curve_models(self) -> dict[str, list[str]]:
        """Each dataset with evaluated models, and those models (their precision-recall
        curves), in the datasets' order."""
        return {
            dataset: models
            for dataset in self.datasets
            if (models := [m for m, d in self.pairs if d == dataset])
        }

    def differences(self) -> list[tuple[str, str]]:
        """The (model, dataset) pairs compared query by query with the baseline."""
        return [
            (m, d) for m, d in self.pairs if m != self.baseline and (self.baseline, d) in self.pairs
        ]

    def files(self) -> list[ReportFile]:
        """Every file of the report, in the order the report lists them."""
        files = [report_file("leaderboard_table"), report_file("leaderboard")]
        files += [report_file("precision_recall", dataset=d) for d in self.curve_models()]
        files += [
            report_file("query_differences", model=m, dataset=d) for m, d in self.differences()
        ]
        files += [report_file("efficiency")] if self.searched else []
        files += [report_file("costs_table"), report_file("costs")]
        files += [report_file("dataset_costs", dataset=d) for d in self.datasets]
        files += [report_file("provenance")]
        files += [report_file("sweep", model=m, dataset=d) for m, d in self.tuned]
        return files

    def paths(self) -> list[str]:
        """Every path the report writes (a figure's PNG and its SVG copy)."""
        return [p for f in self.files() for p in (f.path, f.svg) if p is not None]

    def outputs(self) -> list[ReportOutput]:
        """What the job declares: each file of a kind drawn once (a figure's SVG copy
        beside it, unmarked), and the folder of each kind drawn per dataset or pair, with
        the pattern of its figures in it (their wildcards name them in the report)."""
        declared, folders = [], set()
        for file in self.files():
            pattern, figure = REPORT_FILES[file.kind]
            folder = report_folder(pattern)
            if folder is None:
                declared.append(ReportOutput(file.path, file.kind))
                declared += [ReportOutput(file.svg)] if file.svg else []
            elif file.kind not in folders:
                folders.add(file.kind)
                inside = folder[1] + (".png" if figure else "")
                declared.append(ReportOutput(folder[0], file.kind, inside))
        return declared

    def inputs(self) -> dict[str, list[str]]:
        """The files the report reads, by what they are."""
        curves = self.curve_models()
        return {
            **{name: [path] for name, path in TABLES.items()},
            "metrics_files": [
                evaluated_file(m, d, "metrics.json") for d in curves for m in curves[d]
            ],
            "per_query": sorted(
                {
                    evaluated_file(model, d, "per_query.tsv")
                    for m, d in self.differences()
                    for model in (m, self.baseline)
                }
            ),
            "sweeps": [
                tuning_file(m, d, name)
                for m, d in self.tuned
                for name in ("surface.tsv", "selection.json")
            ],
        }


def tuning_file(model: str, dataset: str, name: str) -> str:
    """A file of a sweep's choice on a dataset (surface.tsv, selection.json)."""
    return f"{TUNING.format(model=model, dataset=dataset)}/{name}"


def evaluated_file(model: str, dataset: str, name: str) -> str:
    """A file of a model's evaluation on a dataset (metrics.json, per_query.tsv)."""
    return f"{EVAL['evaluation'].format(model=model, dataset=dataset)}/{name}"


def report_file(kind: str, **wildcards: str) -> ReportFile:
    """The report's file of `kind` (a key of REPORT_FILES) drawn for these wildcards."""
    pattern, figure = REPORT_FILES[kind]
    path = pattern.format(**wildcards)
    if figure:
        return ReportFile(kind, f"{path}.png", f"{path}.svg", **wildcards)
    return ReportFile(kind, path, None, **wildcards)
