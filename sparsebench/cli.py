"""The `sparsebench` command: evaluate run files and check configs without Snakemake."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sparsebench.cli_arguments import build_parser
from sparsebench.core.errors import DataError, SparsebenchError, describe_os_error
from sparsebench.evaluate.measures import default_metric_names

if TYPE_CHECKING:
    from sparsebench.evaluate.coverage import QueryOverlap

log = logging.getLogger("sparsebench.cli")


def _mapping(items: Sequence[str], what: str) -> dict[str, str]:
    pairs = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise SparsebenchError(f"{what} must look like NAME=OTHER, not {item!r}")
        pairs[key] = value
    return pairs


def _check_queries(overlap: QueryOverlap, what: str, query_set: str, strict: bool) -> None:
    """Warn (or with strict refuse) when queries of the qrels are missing from the run."""
    if overlap.partial:
        if strict:
            raise DataError(f"{what}: {overlap.describe(None)} (--strict)")
        log.warning("%s: %s", what, overlap.describe(query_set))
    elif overlap.unjudged:
        log.info("%s: %s", what, overlap.describe(query_set))


def run_names(paths: Sequence[str]) -> list[str]:
    """A name per run file: its file name where that is unique, else the shortest end of
    its path that no other run's path ends with, leaving out the trailing parts every run
    shares (a/x.trec, b/x.trec: a, b; x/a.trec, y/a.trec, b.trec: x/a.trec, y/a.trec,
    b.trec)."""
    parts = [Path(p).resolve().parts for p in paths]
    for path, these in zip(paths, parts, strict=True):
        if parts.count(these) > 1:
            raise SparsebenchError(f"the run {path} is given twice")
    shared = 0
    while all(len(p) > shared + 1 for p in parts) and len({p[-1 - shared] for p in parts}) == 1:
        shared += 1
    parts = [p[: len(p) - shared] for p in parts]
    names = []
    for these in parts:
        length = 1
        while any(o != these and o[-length:] == these[-length:] for o in parts):
            length += 1
        names.append("/".join(these[-length:]).lstrip("/"))
    return names


def dataset_name(qrels: str) -> str:
    """The dataset a qrels file belongs to: the folder holding qrels/ (name/qrels/test.tsv),
    the folder of a prepared dataset's qrels.tsv, or else the file's name."""
    path = Path(qrels).resolve()
    if path.parent.name == "qrels" and path.parent.parent.name:
        return path.parent.parent.name
    if path.stem in ("qrels", "qrels.tuning", "test", "dev", "train") and path.parent.name:
        return path.parent.name
    return path.stem


def _compare(args: argparse.Namespace) -> str:
    from sparsebench.data.qrels import read_qrels
    from sparsebench.evaluate import comparisons, latex
    from sparsebench.evaluate.metrics import evaluate_run_file

    if len(args.runs) < 2:
        raise SparsebenchError("compare needs at least two runs")
    names = args.names or run_names(args.runs)
    if len(names) != len(args.runs) or len(set(names)) != len(names):
        raise SparsebenchError("give one distinct name per run (--names)")
    baseline = args.baseline or names[0]
    _reuse_freed_memory()
    qrels = read_qrels(args.qrels)
    dataset = args.dataset or dataset_name(args.qrels)
    values = {}
    for name, path in zip(names, args.runs, strict=True):
        result = evaluate_run_file(
            path,
            qrels,
            args.metrics,
            relevance_level=args.relevance_level,
            query_set=args.query_set,
            threads=args.threads,
        )
        _check_queries(result.overlap, f"run {name} ({path})", args.query_set, args.strict)
        values[(name, dataset)] = result.evaluation.per_query
    tests = list(dict.fromkeys(args.tests + [args.primary_test]))
    settings = comparisons.SignificanceSettings(
        baseline=baseline,
        all_pairs=args.all_pairs,
        metrics=tuple(args.metrics),
        tests=tuple(tests),
        primary_test=args.primary_test,
        alpha=args.alpha,
        correction=args.correction,
        resamples=args.resamples,
        seed=args.seed,
    )
    table = comparisons.significance_table(values, names, [dataset], settings)
    if args.format == "tsv" and not args.latex:
        return table.to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.10g")
    lines = [
        f"qrels: {args.qrels}",
        *[f"run {n}: {p}" for n, p in zip(names, args.runs, strict=True)],
        f"command: sparsebench {' '.join(sys.argv[1:])}",
    ]
    if args.latex:
        return latex.runs_latex(values, table, names, dataset, settings, lines)
    return comparisons.markdown_report(values, table, names, [dataset], settings, lines)


def _check_reproduction(args: argparse.Namespace) -> tuple[str, int]:
    import pandas as pd

    from sparsebench.evaluate import published, reproduction

    table = pd.read_csv(args.leaderboard, sep="\t", dtype={"model": str, "dataset": str})
    if {"model", "dataset", "metric", "value"} <= set(table.columns):
        measured = table
    else:
        measured = reproduction.measured_from_leaderboard(table.set_index("model"), args.metric)
    expected = reproduction.load_expected(args.expected or list(published.BUILTIN))
    datasets = {d: d for d in measured["dataset"].unique()}
    datasets.update(_mapping(args.dataset, "--dataset"))
    result = reproduction.check(
        measured, expected, _mapping(args.model, "--model"), datasets, args.ok, args.okish
    )
    text = reproduction.markdown(result, args.ok, args.okish)
    failed = int((result["status"] == "FAIL").sum())
    return text, 1 if failed else 0


def _reuse_freed_memory() -> None:
    """Arrow's buffers from the C library's allocator, which keeps freed memory for the
    next allocations: a run read a block at a time frees and allocates alike blocks,
    which mimalloc (Arrow's default) hands back to the system and then faults in again,
    in system time (benchmarks/RESULTS.md, "Measurements behind the code")."""
    import pyarrow as pa

    pa.set_memory_pool(pa.system_memory_pool())


RUN_READ_AHEAD = 32  # run blocks read ahead of the evaluation (about 1 MB each in Arrow)


def _evaluate(args: argparse.Namespace) -> str:
    from sparsebench.core.threads import ReadAhead
    from sparsebench.runs.stream import run_batches

    _reuse_freed_memory()
    names = args.metrics or default_metric_names(args.cutoffs)
    # the run is read from here on, while pandas and the evaluation are imported and the
    # qrels read, rather than after them
    # (benchmarks/RESULTS.md, "Measurements behind the code")
    with ReadAhead(run_batches(args.run), RUN_READ_AHEAD) as batches:
        from sparsebench.data.qrels import read_qrels
        from sparsebench.evaluate.metrics import evaluate_run_file

        read = evaluate_run_file(
            args.run,
            read_qrels(args.qrels),
            names,
            relevance_level=args.relevance_level,
            query_set=args.query_set,
            threads=args.threads,
            batches=batches,
        )
    _check_queries(read.overlap, f"run {args.run}", args.query_set, args.strict)
    result = read.evaluation
    if args.per_query:
        from sparsebench.evaluate.metrics import per_query_tsv

        table = result.per_query
        if args.format == "json":
            return json.dumps(table.to_dict(orient="index"), indent=2)
        return per_query_tsv(table)
    if args.format == "json":
        return json.dumps(result.means, indent=2)
    return "".join(f"{name}\t{value!r}\n" for name, value in result.means.items())


def _dataset_stats(args: argparse.Namespace) -> str:
    from sparsebench.data.collection import FolderSource, ZipSource
    from sparsebench.data.stats import collection_stats, stats_markdown

    rows = {}
    for folder in args.folders:
        path = Path(folder)
        source = (
            ZipSource(path, args.split) if path.suffix == ".zip" else FolderSource(path, args.split)
        )
        rows[path.name] = collection_stats(source)
    return json.dumps(rows, indent=2) if args.format == "json" else stats_markdown(rows)


def _check_config(args: argparse.Namespace) -> str:
    """The config resolved, after the checks the workflow makes before any job (a dataset
    folder without its split, with the hub offline a model the cache lacks, ...)."""
    import yaml

    from sparsebench.core.errors import ConfigError
    from sparsebench.workflow.config import load_config_file
    from sparsebench.workflow.plan import Plan
    from sparsebench.workflow.preflight import preflight_problems, refusal

    config = load_config_file(args.config)
    problems = preflight_problems(Plan(config))
    if problems:
        raise ConfigError(refusal(problems).removeprefix("Error: "))
    return yaml.safe_dump(config, sort_keys=False)


def _compile(args: argparse.Namespace) -> str:
    from sparsebench.core.jit import cache_folders
    from sparsebench.warmup import warm

    timings = warm(args.languages, args.jobs or os.cpu_count() or 1)
    steps = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in timings)
    folders = sorted({str(folder.parent) for folder in cache_folders()})
    return f"compiled code in numba's cache ({steps}), under {', '.join(folders)}"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    quiet = getattr(args, "quiet", False)
    logging.basicConfig(
        level=logging.WARNING if quiet else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    status = 0
    try:
        if args.command == "evaluate":
            output = _evaluate(args)
        elif args.command == "compare":
            output = _compare(args)
        elif args.command == "datasets":
            output = _dataset_stats(args)
        elif args.command == "check-reproduction":
            output, status = _check_reproduction(args)
        elif args.command == "compile":
            output = _compile(args)
        else:
            output = _check_config(args)
    except SparsebenchError as exc:
        print(f"sparsebench {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"sparsebench {args.command}: error: {describe_os_error(exc)}", file=sys.stderr)
        return 1
    try:
        sys.stdout.write(output if output.endswith("\n") else output + "\n")
        sys.stdout.flush()
    except OSError as exc:  # stdout redirected to a full disk
        where = f"standard output: {describe_os_error(exc)}"
        print(f"sparsebench {args.command}: error: {where}", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
