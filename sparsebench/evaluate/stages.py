"""The evaluation stages (rules in workflow/rules/evaluate.smk): metrics per run,
significance tests across runs, the leaderboard.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pandas as pd

from sparsebench.data.qrels import read_qrels
from sparsebench.evaluate import comparisons, reproduction
from sparsebench.evaluate import leaderboard as board
from sparsebench.evaluate.comparisons import SignificanceSettings, markers, read_significance
from sparsebench.evaluate.metrics import default_metric_names, evaluate_run
from sparsebench.fileio import atomic_path, read_json, write_json, write_text
from sparsebench.progress import progress
from sparsebench.retrieve.runfile import misordered_queries, read_run
from sparsebench.tune import sweeps
from sparsebench.workflow import provenance
from sparsebench.workflow.config import significance_metrics
from sparsebench.workflow.layout import files_by_pair
from sparsebench.workflow.params import model_fingerprint, stable_hash

log = logging.getLogger(__name__)


def evaluate(
    run_path: str | Path,
    qrels_path: str | Path,
    settings: dict[str, Any],
    out_metrics: str | Path,
    out_per_query: str | Path,
) -> dict[str, float]:
    """Per-query values (long TSV) and means (JSON, keys like "nDCG@10") of a run."""
    names = settings.get("metrics") or default_metric_names(settings["cutoffs"])
    with progress(2 + len(names), "evaluating", unit="step") as bar:
        run = read_run(run_path)
        bar.update()  # then ranking and judging, then one step per measure
        unsorted = misordered_queries(run)
        if unsorted:
            log.warning(
                "%d queries of %s are not sorted by score (e.g. %s); metrics follow the "
                "scores, as trec_eval does, not the file order",
                len(unsorted),
                run_path,
                unsorted[0],
            )
        result = evaluate_run(
            run,
            read_qrels(qrels_path),
            names,
            relevance_level=settings["relevance_level"],
            query_set=settings["query_set"],
            step=bar.update,
        )
    long = result.per_query.reset_index().melt(
        id_vars="query_id", var_name="metric", value_name="value"
    )
    with atomic_path(out_per_query) as tmp:
        long.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.17g")
    write_json(out_metrics, result.means)
    log.info(
        "evaluated %d queries (%d in the run): %s",
        result.n_evaluated,
        result.n_in_run,
        ", ".join(f"{m}={v:.4f}" for m, v in result.means.items()),
    )
    return result.means


def evaluation_manifest(
    out_path: str | Path,
    model: str,
    dataset: str,
    model_settings: dict,
    eval_settings: dict,
    dataset_json: str | Path,
    run_path: str | Path,
    metrics_path: str | Path,
    started: str,
) -> None:
    metrics = read_json(metrics_path)
    per_query = pd.read_csv(
        Path(metrics_path).with_name("per_query.tsv"), sep="\t", dtype={"query_id": str}
    )
    content = provenance.manifest(
        stage="evaluate",
        settings={
            "model": model,
            "dataset": dataset,
            "model_settings": model_settings,
            "evaluation": eval_settings,
        },
        inputs={"run": run_path},
        started=started,
        extra={
            "model_sha256": stable_hash(model_fingerprint(model_settings)),
            "model": provenance.model_provenance(model_settings),
            "dataset": provenance.dataset_provenance(dataset_json),
            "n_queries": int(per_query["query_id"].nunique()),
            "metrics": metrics,
        },
    )
    provenance.write_manifest(out_path, content)


def significance_settings(config: dict[str, Any]):

    section = config["significance"]
    return SignificanceSettings(
        baseline=section["baseline"],
        all_pairs=section["all_pairs"],
        metrics=tuple(significance_metrics(config)),
        tests=tuple(section["tests"]),
        primary_test=section["primary_test"],
        alpha=section["alpha"],
        correction=section["correction"],
        resamples=section["resamples"],
        seed=section["seed"],
    )


def significance(
    models: list[str],
    datasets: list[str],
    per_query_files: list[str],
    config: dict[str, Any],
    out_tsv: str | Path,
    out_md: str | Path,
    out_manifest: str | Path | None = None,
    started: str | None = None,
    out_intervals: str | Path | None = None,
) -> pd.DataFrame:
    """significance.tsv (long) and significance.md from every pair's per-query values, and
    each model's scores with their 95% bootstrap intervals (intervals.tsv)."""

    settings = significance_settings(config)
    files = files_by_pair(models, datasets, per_query_files)
    values = {
        pair: comparisons.read_per_query(path, settings.metrics) for pair, path in files.items()
    }
    if len(models) < 2:
        log.warning("one model only: nothing to compare")
        table = pd.DataFrame(columns=comparisons.COLUMNS)
    else:
        table = comparisons.significance_table(values, models, datasets, settings)
    with atomic_path(out_tsv) as tmp:
        table.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.10g")
    if out_intervals is not None:
        intervals = comparisons.score_intervals(values, models, datasets, settings)
        with atomic_path(out_intervals) as tmp:
            intervals.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.10g")
    lines = [
        f"config sha256: {stable_hash(config)}",
        f"tests: {', '.join(settings.tests)}; correction: {settings.correction}; "
        f"alpha: {settings.alpha}; resamples: {settings.resamples}; seed: {settings.seed}",
        f"command: `{provenance.command_line()}`",
        "versions: " + ", ".join(f"{k} {v}" for k, v in provenance.package_versions().items()),
    ]
    write_text(
        out_md, comparisons.markdown_report(values, table, models, datasets, settings, lines)
    )
    if out_manifest is not None:
        provenance.write_manifest(
            out_manifest,
            provenance.manifest(
                stage="significance",
                settings=config,
                inputs={f"{m}/{d}": p for (m, d), p in files.items()},
                started=started or provenance.now(),
                extra={
                    "tests": list(settings.tests),
                    "correction": settings.correction,
                    "alpha": settings.alpha,
                    "resamples": settings.resamples,
                    "seed": settings.seed,
                    "models": {m: provenance.model_provenance(config["models"][m]) for m in models},
                },
            ),
        )
    log.info(
        "%d comparisons, %d significant",
        len(table),
        int(table["significant"].sum()) if len(table) else 0,
    )
    return table


def reference_row(name: str, entry: dict[str, Any]) -> str:
    """The row of the published tables a dataset entry corresponds to: the BEIR name
    (cqadupstack forum by forum), miracl-<language> for MIRACL dev, the ir_datasets id."""
    source = entry["source"]
    if source == "beir":
        return "-".join(p for p in (entry.get("name", name), entry.get("subset")) if p)
    if source == "miracl" and entry.get("split") == "dev":
        return f"miracl-{entry['language']}"
    if source == "ir_datasets":
        return entry["id"]
    return name


def reproduction_targets(config: dict[str, Any]) -> dict[str, str]:
    """Dataset -> row name of the expected figures (reference_row unless mapped)."""
    mapped = config["reproduction"]["datasets"]
    return {
        name: mapped.get(name, reference_row(name, entry))
        for name, entry in config["datasets"].items()
    }


def leaderboard(
    models: list[str],
    datasets: list[str],
    metric: str,
    metrics_files: list[str],
    dataset_infos: list[str],
    config: dict[str, Any],
    outputs: dict[str, str],
    started: str,
    significance_tsv: str | Path | None = None,
    selections: list[str] | None = None,
) -> pd.DataFrame:
    """leaderboard.tsv (+ .md, long metrics.tsv, reproduction.tsv and a manifest);
    `selections`: the selection.json of every tuned (model x dataset) pair."""

    files = files_by_pair(models, datasets, metrics_files)
    long = board.collect_metrics([(m, d, p) for (m, d), p in files.items()])
    marks = {}
    if significance_tsv is not None:
        table = read_significance(significance_tsv)
        marks = markers(table, metric, config["significance"]["primary_test"])
    model_hashes = {m: stable_hash(model_fingerprint(config["models"][m])) for m in models}
    model_records = {m: provenance.model_provenance(config["models"][m]) for m in models}
    content = provenance.manifest(
        stage="leaderboard",
        settings=config,
        inputs={f"{m}/{d}": p for (m, d), p in files.items()},
        started=started,
        extra={
            "primary_metric": metric,
            "datasets": {
                d: provenance.dataset_provenance(i)
                for d, i in zip(datasets, dataset_infos, strict=True)
            },
            "models": model_hashes,
            "model_provenance": model_records,
            "model_settings": {m: config["models"][m] for m in models},
        },
    )
    groups = {d: e["group"] for d, e in config["datasets"].items() if e.get("group")}
    section = config["reproduction"]
    checks = reproduction.check(
        long,
        reproduction.load_expected(section["expected"]),
        section["models"],
        reproduction_targets(config),
        section["ok"],
        section["okish"],
    )
    with atomic_path(outputs["reproduction"]) as tmp:
        checks.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.6f")
    notes = board.significance_note(config["significance"], bool(marks))
    subsampled = {
        d: read_json(i).get("subsample") for d, i in zip(datasets, dataset_infos, strict=True)
    }
    for dataset, sample in subsampled.items():
        if sample:
            notes += (
                f"\n\nSUBSAMPLE: {dataset} ran on {sample['documents']:,} of {sample['of']:,} "
                f"documents (every judged document kept, seed {sample['seed']}); its "
                "scores are not comparable with full-corpus figures."
            )
    chosen_by: dict[str, dict[str, str]] = {}
    for path in selections or []:
        selection = read_json(path)
        chosen_by.setdefault(selection["model"], {})[selection["dataset"]] = selection["chosen_by"]
    tuned = {
        m: sweeps.describe(config["models"][m]["sweep"], chosen_by.get(m))
        for m in models
        if config["models"][m]["kind"] == "tuned"
    }
    for model, how in tuned.items():
        notes += (
            f"\n\nTUNED: {model}: {how}. With cross-validation each query is scored by "
            f"the point chosen on the other folds (results/tuning/{model}/<dataset>/)."
        )
    extra_sections = [reproduction.markdown(checks, section["ok"], section["okish"])]
    table = board.write_leaderboard(
        long,
        metric,
        models,
        datasets,
        outputs["table"],
        outputs["long"],
        outputs["markdown"],
        board.provenance_summary(content),
        marks=marks,
        notes=notes,
        sections=extra_sections,
        groups=groups,
        tuned=tuned,
    )
    provenance.write_manifest(outputs["manifest"], content)
    log.info("leaderboard (%s):\n%s", metric, table.to_string(float_format="%.4f"))
    return table
