"""The evaluation stages (rules in workflow/rules/evaluate.smk): metrics per run,
significance tests across runs, the leaderboard.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pandas as pd

from sparsebench.core import provenance
from sparsebench.core.errors import DataError
from sparsebench.core.fileio import atomic_path, read_json, write_json, write_text
from sparsebench.core.hashing import stable_hash
from sparsebench.core.progress import progress
from sparsebench.data.grades import regrading_of
from sparsebench.data.qrels import read_qrels
from sparsebench.evaluate import comparisons, coverage, efficiency, latex, reproduction
from sparsebench.evaluate import leaderboard as board
from sparsebench.evaluate.comparisons import SignificanceSettings, markers, read_significance
from sparsebench.evaluate.coverage import MANIFEST_KEY, Coverage
from sparsebench.evaluate.metrics import default_metric_names, evaluate_run_file, per_query_tsv
from sparsebench.tune import sweeps

log = logging.getLogger(__name__)


def evaluate(
    run_path: str | Path,
    qrels_path: str | Path,
    settings: dict[str, Any],
    out_metrics: str | Path,
    out_per_query: str | Path,
) -> Coverage:
    """Per-query values (long TSV) and means (JSON, keys like "nDCG@10") of a run; returns
    how many of the judged queries the run covers (a warning says so when not all)."""
    names = settings.get("metrics") or default_metric_names(settings["cutoffs"])
    with progress(1 + len(names), "evaluating", unit="step") as bar:
        read = evaluate_run_file(
            run_path,
            read_qrels(qrels_path),
            names,
            relevance_level=settings["relevance_level"],
            query_set=settings["query_set"],
            step=bar.update,
        )
    result, overlap = read.evaluation, read.overlap
    if read.misordered:
        log.warning(
            "%d queries of %s are not sorted by score (e.g. %s); metrics follow the "
            "scores, as trec_eval does, not the file order",
            len(read.misordered),
            run_path,
            read.misordered[0],
        )
    write_text(out_per_query, per_query_tsv(result.per_query))
    write_json(out_metrics, result.means)
    if overlap.partial:
        log.warning(
            "%s: PARTIAL RUN, results for %s: %s",
            run_path,
            Coverage.of(overlap).describe(),
            overlap.describe(settings["query_set"]),
        )
    log.info(
        "evaluated %d queries (%d in the run): %s",
        result.n_evaluated,
        result.n_in_run,
        ", ".join(f"{m}={v:.4f}" for m, v in result.means.items()),
    )
    return Coverage.of(overlap)


def evaluation_manifest(
    out_path: str | Path,
    model: str,
    dataset: str,
    model_settings: dict[str, Any],
    fingerprint: dict[str, Any],
    eval_settings: dict[str, Any],
    dataset_json: str | Path,
    corpus_json: str | Path,
    run_path: str | Path,
    metrics_path: str | Path,
    per_query_path: str | Path,
    started: str,
    run_coverage: Coverage | None = None,
) -> None:
    """What produced a pair's metrics: the model's settings and checksums, the dataset's
    and its corpus's, the run's, the evaluation settings and versions, and how many of the
    judged queries the run covers (`run_coverage`, from evaluate)."""
    from sparsebench.kinds.registry import kind_of

    metrics = read_json(metrics_path)
    per_query = pd.read_csv(
        per_query_path, sep="\t", dtype={"query_id": str}, keep_default_na=False
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
            "model_sha256": stable_hash(fingerprint),
            "model": provenance.model_provenance(
                kind_of(model_settings).model_sources(model_settings), fingerprint
            ),
            "dataset": provenance.dataset_provenance(dataset_json, corpus_json),
            "n_queries": int(per_query["query_id"].nunique()),
            "metrics": metrics,
            **({MANIFEST_KEY: run_coverage.as_dict()} if run_coverage else {}),
        },
    )
    provenance.write_manifest(out_path, content)


def significance_settings(settings: dict[str, Any]) -> SignificanceSettings:
    """The significance section of the config, its metrics the primary metric first
    (workflow.config.significance_metrics)."""
    return SignificanceSettings(
        baseline=settings["baseline"],
        all_pairs=settings["all_pairs"],
        metrics=tuple(settings["metrics"]),
        tests=tuple(settings["tests"]),
        primary_test=settings["primary_test"],
        alpha=settings["alpha"],
        correction=settings["correction"],
        resamples=settings["resamples"],
        seed=settings["seed"],
    )


def _by_pair(
    pairs: list[tuple[str, str]], files: list[str], what: str
) -> dict[tuple[str, str], str]:
    """(model, dataset) -> file, from the pairs and files a rule lists in the same order."""
    if len(pairs) != len(files):
        raise DataError(f"{len(files)} {what} files for {len(pairs)} (model, dataset) pairs")
    return {(m, d): f for (m, d), f in zip(pairs, files, strict=True)}


def _model_records(experiment: dict[str, Any], models: list[str]) -> dict[str, Any]:
    from sparsebench.kinds.registry import kind_of

    records = {}
    for m in models:
        entry = experiment["models"][m]
        kind = kind_of(entry)
        records[m] = provenance.model_provenance(kind.model_sources(entry), kind.fingerprint(entry))
    return records


def significance(
    pairs: list[tuple[str, str]],
    models: list[str],
    datasets: list[str],
    per_query_files: list[str],
    settings: dict[str, Any],
    experiment: dict[str, Any],
    out_tsv: str | Path,
    out_md: str | Path,
    out_manifest: str | Path | None = None,
    started: str | None = None,
    out_intervals: str | Path | None = None,
    manifests: list[str] | None = None,
) -> pd.DataFrame:
    """significance.tsv (long) and significance.md from every pair's per-query values, and
    each model's scores with their 95% bootstrap intervals (intervals.tsv). `settings`:
    the significance section with its metrics; `experiment`: the settings the results
    come from (workflow.config.experiment_settings), for the provenance; `manifests`:
    every pair's evaluation manifest (in the order of `pairs`), whose query counts mark
    the runs that miss queries."""
    tests = significance_settings(settings)
    files = _by_pair(pairs, per_query_files, "per-query")
    values = {pair: comparisons.read_per_query(path, tests.metrics) for pair, path in files.items()}
    if len(models) < 2:
        log.warning("one model only: nothing to compare")
        table = pd.DataFrame(columns=comparisons.COLUMNS)
    else:
        table = comparisons.significance_table(values, models, datasets, tests)
    with atomic_path(out_tsv) as tmp:
        table.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.10g")
    if out_intervals is not None:
        intervals = comparisons.score_intervals(values, models, datasets, tests)
        with atomic_path(out_intervals) as tmp:
            intervals.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.10g")
    lines = [
        f"experiment sha256: {stable_hash(experiment)}",
        f"tests: {', '.join(tests.tests)}; correction: {tests.correction}; "
        f"alpha: {tests.alpha}; resamples: {tests.resamples}; seed: {tests.seed}",
        f"command: `{provenance.command_line()}`",
        "versions: " + ", ".join(f"{k} {v}" for k, v in provenance.package_versions().items()),
    ]
    partial = coverage.partial_pairs(pairs, manifests, experiment) if manifests is not None else {}
    query_set = experiment["evaluation"]["query_set"]
    partial_notes = dict(zip(partial, coverage.notes(partial, query_set), strict=True))
    report = comparisons.markdown_report(
        values, table, models, datasets, tests, lines, partial_notes
    )
    write_text(out_md, report)
    if out_manifest is not None:
        provenance.write_manifest(
            out_manifest,
            provenance.manifest(
                stage="significance",
                settings=experiment,
                inputs={f"{m}/{d}": p for (m, d), p in files.items()},
                started=started or provenance.now(),
                extra={
                    "tests": list(tests.tests),
                    "correction": tests.correction,
                    "alpha": tests.alpha,
                    "resamples": tests.resamples,
                    "seed": tests.seed,
                    "models": _model_records(experiment, models),
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
    pairs: list[tuple[str, str]],
    models: list[str],
    datasets: list[str],
    metrics_files: list[str],
    dataset_infos: list[str],
    corpus_infos: list[str],
    experiment: dict[str, Any],
    searched: list[dict[str, Any]],
    outputs: dict[str, str],
    started: str,
    significance_tsv: str | Path | None = None,
    selections: list[str] | None = None,
    manifests: list[str] | None = None,
    cost_sources: dict[str, dict[str, Any]] | None = None,
) -> pd.DataFrame:
    """leaderboard.tsv (+ .md, .tex, metrics.tsv, reproduction.tsv, efficiency.tsv, a
    manifest); `experiment`: the settings (workflow.config.experiment_settings);
    `searched`: how each pair searched here made its run, for the reproduction check
    (reproduction.run_conditions; the workflow's plan computes it);
    `selections`: every tuned pair's selection.json; `manifests`: every pair's evaluation
    manifest (in the order of `pairs`: they mark the runs that miss queries);
    `cost_sources`: see evaluate.efficiency.efficiency_table."""
    from sparsebench.kinds.registry import kind_of

    metric = experiment["evaluation"]["primary_metric"]
    files = _by_pair(pairs, metrics_files, "metrics")
    long = board.collect_metrics([(m, d, p) for (m, d), p in files.items()])
    marks = {}
    tests = None
    if significance_tsv is not None:
        tests = read_significance(significance_tsv)
        marks = markers(tests, metric, experiment["significance"]["primary_test"])
    entries = {m: experiment["models"][m] for m in models}
    content = provenance.manifest(
        stage="leaderboard",
        settings=experiment,
        inputs={f"{m}/{d}": p for (m, d), p in files.items()},
        started=started,
        extra={
            "primary_metric": metric,
            "datasets": {
                d: provenance.dataset_provenance(i, c)
                for d, i, c in zip(datasets, dataset_infos, corpus_infos, strict=True)
            },
            "models": {m: stable_hash(kind_of(e).fingerprint(e)) for m, e in entries.items()},
            "model_provenance": _model_records(experiment, models),
            "model_settings": entries,
        },
    )
    groups = {d: e["group"] for d, e in experiment["datasets"].items() if e.get("group")}
    subsampled = {
        d: read_json(c).get("subsample") for d, c in zip(datasets, corpus_infos, strict=True)
    }
    section = experiment["reproduction"]
    checks = reproduction.check(
        long,
        reproduction.load_expected(section["expected"]),
        section["models"],
        reproduction_targets(experiment),
        section["ok"],
        section["okish"],
        subsampled=[d for d, sample in subsampled.items() if sample],
        **{
            f"{condition}s": labels
            for condition, labels in reproduction.run_conditions(
                searched, section["models"]
            ).items()
        },
    )
    with atomic_path(outputs["reproduction"]) as tmp:
        checks.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.6f")
    notes = board.significance_note(experiment["significance"], bool(marks), len(models))
    judged = board.judged_table(long, models, datasets, groups)
    for line in board.low_judged_notes(judged, experiment["significance"]["baseline"], metric):
        log.warning(line)
        notes += f"\n\n{line}"
    partial = coverage.partial_pairs(pairs, manifests, experiment) if manifests is not None else {}
    for line in coverage.notes(partial, experiment["evaluation"]["query_set"]):
        notes += f"\n\n{line}"
    for dataset, sample in subsampled.items():
        if sample:
            notes += (
                f"\n\nSUBSAMPLE: {dataset} ran on {sample['documents']:,} of {sample['of']:,} "
                f"documents (every judged document kept, seed {sample['seed']}); its "
                "scores are not comparable with full-corpus figures."
            )
    for dataset, info in zip(datasets, dataset_infos, strict=True):
        regraded = regrading_of(read_json(info))
        if regraded:
            codes = ", ".join(f"{code} -> {gain}" for code, gain in regraded.items())
            notes += (
                f"\n\nREGRADED: {dataset}: judgments read as gains ({codes}); see its dataset.json."
            )
    chosen_by: dict[str, dict[str, str]] = {}
    for path in selections or []:
        selection = read_json(path)
        chosen_by.setdefault(selection["model"], {})[selection["dataset"]] = selection["chosen_by"]
    tuned = {
        m: sweeps.describe(entries[m]["sweep"], chosen_by.get(m))
        for m in models
        if kind_of(entries[m]).run_rule == "tune"
    }
    for model, how in tuned.items():
        notes += (
            f"\n\nTUNED: {model}: {how}. With cross-validation each query is scored by "
            f"the point chosen on the other folds (results/tuning/{model}/<dataset>/)."
        )
    costs = efficiency.efficiency_table(cost_sources or {}, selections or [])
    efficiency.write_efficiency(costs, outputs["efficiency"])
    extra_sections = [
        reproduction.markdown(checks, section["ok"], section["okish"]),
        efficiency.markdown(costs),
    ]
    partial_cells = {k: c.describe() for k, c in coverage.by_column(partial, groups).items()}
    summary = board.provenance_summary(content)
    table = board.write_leaderboard(
        long,
        metric,
        models,
        datasets,
        outputs["table"],
        outputs["long"],
        outputs["markdown"],
        summary,
        marks=marks,
        notes=notes,
        sections=extra_sections,
        groups=groups,
        tuned=tuned,
        partial=partial_cells,
        costs=efficiency.leaderboard_columns(costs, models, datasets, groups),
    )
    write_text(
        outputs["latex"],
        latex.leaderboard_latex(
            table, tests, metric, experiment["significance"], tuned, summary, partial=partial_cells
        ),
    )
    provenance.write_manifest(outputs["manifest"], content)
    log.info("leaderboard (%s):\n%s", metric, table.to_string(float_format="%.4f"))
    return table
