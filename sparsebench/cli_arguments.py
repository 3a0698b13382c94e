"""The `sparsebench` command's arguments: every subcommand, its options and their checks
(sparsebench.cli runs them)."""

from __future__ import annotations

import argparse
import os
import re

from sparsebench.evaluate.levels import check_relevance_level
from sparsebench.evaluate.measures import DEFAULT_CUTOFFS, parse_metric_name
from sparsebench.evaluate.procedures import CORRECTIONS, TESTS
from sparsebench.warmup import LANGUAGES as COMPILED_LANGUAGES

DESCRIPTION = "The `sparsebench` command: evaluate run files and check configs without Snakemake."
STRICT_HELP = (
    "exit with status 1, printing no scores, when queries of the qrels are missing from a "
    "run (a partial run, or ids written differently such as '001' vs '1'); without it a "
    "warning names them and they score 0 (or are left out with --query-set run)"
)
EXIT_STATUS = "exit status: 0 done; 1 an error in the input (or --strict refused); 2 bad usage"
# the help of the arguments `evaluate` and `compare` share
QRELS_HELP = "BEIR TSV (query-id corpus-id score, header optional) or TREC qrels"
QUERY_SET_HELP = (
    "complete: every qrels query counts, missing ones score 0 (trec_eval -c; default); "
    "run: only queries in both"
)
RELEVANCE_LEVEL_HELP = "minimum grade that counts as relevant (trec_eval -l)"


# a comma or space between names, not one inside a name's parameters: P(rel=2,judged_only=True)@10
_NAME_SEPARATOR = re.compile(r"[,\s]+(?![^()]*\))")


def _metric_list(text: str) -> list[str]:
    names = [n for n in _NAME_SEPARATOR.split(text.strip()) if n]
    for name in names:
        try:
            parse_metric_name(name)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def _relevance_level(text: str) -> int:
    try:
        level = int(text)
        check_relevance_level(level)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a relevance level is a grade of 1 or more, not {text!r}"
        ) from None
    return level


def _cutoff_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"cutoffs must be integers: {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("cutoffs must be positive integers")
    return values


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a positive integer, not {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sparsebench", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)

    evaluate = commands.add_parser(
        "evaluate",
        help="score a TREC run against qrels (values equal trec_eval's)",
        description="Score a TREC run file against qrels; values equal trec_eval's. A "
        "warning (shown even with --quiet) names the queries of the qrels missing from the run "
        "and the queries of the run without judgments.",
        epilog=EXIT_STATUS,
    )
    evaluate.add_argument("--qrels", required=True, help=QRELS_HELP)
    evaluate.add_argument("--run", required=True, help="TREC run file: qid Q0 docid rank score tag")
    evaluate.add_argument(
        "--metrics",
        type=_metric_list,
        default=None,
        help="comma-separated names, e.g. nDCG@10,Recall@100,MAP "
        "(default: every measure at the cutoffs)",
    )
    evaluate.add_argument(
        "--cutoffs",
        type=_cutoff_list,
        default=list(DEFAULT_CUTOFFS),
        help="cutoffs of the default metric set (default: 1,3,5,10,20,100,1000)",
    )
    evaluate.add_argument("--per-query", action="store_true", help="print per-query values")
    evaluate.add_argument(
        "--format",
        choices=("json", "tsv"),
        default="json",
        help="json: each metric's mean (with --per-query, each query's values); tsv: a "
        "metric and its mean a line (with --per-query, query_id, metric, value lines)",
    )
    evaluate.add_argument(
        "--query-set", choices=("complete", "run"), default="complete", help=QUERY_SET_HELP
    )
    evaluate.add_argument(
        "--relevance-level", type=_relevance_level, default=1, help=RELEVANCE_LEVEL_HELP
    )
    evaluate.add_argument("--strict", action="store_true", help=STRICT_HELP)
    _add_threads(evaluate)
    evaluate.add_argument(
        "--quiet", action="store_true", help="log only warnings and errors to stderr"
    )

    compare = commands.add_parser(
        "compare",
        help="significance tests between TREC runs (any tool's) on the same qrels",
        description="Evaluate several runs and test each against the baseline (the first run "
        "unless --baseline), as the workflow's significance report does.",
        epilog=EXIT_STATUS,
    )
    compare.add_argument("--qrels", required=True, help=QRELS_HELP)
    compare.add_argument("--runs", nargs="+", required=True, help="two or more TREC run files")
    compare.add_argument(
        "--names",
        nargs="+",
        help="a name per run (default: the file names, or where two runs share a file name "
        "the shortest end of their paths that tells them apart: a/x.trec b/x.trec are a, b)",
    )
    compare.add_argument(
        "--dataset",
        help="the dataset's name in the report (default: the folder that holds qrels/, as in "
        "cranfield/qrels/test.tsv, or the folder of a qrels.tsv, or the qrels file's name)",
    )
    compare.add_argument("--baseline", help="name of the baseline run (default: the first)")
    compare.add_argument("--all-pairs", action="store_true", help="test every pair of runs")
    compare.add_argument(
        "--metrics",
        type=_metric_list,
        default=["nDCG@10"],
        help="the metrics tested, comma-separated, e.g. nDCG@10,MAP",
    )
    compare.add_argument(
        "--tests",
        nargs="+",
        choices=TESTS,
        default=list(TESTS),
        help="the paired tests run on each comparison (default: all)",
    )
    compare.add_argument(
        "--primary-test",
        choices=TESTS,
        default="t-test",
        help="the test whose verdict marks a run better or worse than the baseline; run "
        "even when --tests leaves it out",
    )
    compare.add_argument(
        "--correction",
        choices=CORRECTIONS,
        default="holm",
        help="family-wise correction of the p-values over each table's comparisons",
    )
    compare.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        help="significance level: a corrected p-value below it is significant",
    )
    compare.add_argument(
        "--resamples",
        type=int,
        default=10_000,
        help="draws of the bootstrap and randomization tests and of the confidence intervals",
    )
    compare.add_argument(
        "--seed",
        type=int,
        default=42,
        help="seed of every random draw, with the names compared: a rerun prints the same",
    )
    compare.add_argument(
        "--query-set", choices=("complete", "run"), default="complete", help=QUERY_SET_HELP
    )
    compare.add_argument(
        "--relevance-level", type=_relevance_level, default=1, help=RELEVANCE_LEVEL_HELP
    )
    compare.add_argument(
        "--format",
        choices=("md", "tsv"),
        default="md",
        help="md: the significance report; tsv: its table, a line per test (not with --latex)",
    )
    compare.add_argument("--latex", action="store_true", help="print a paper's table (LaTeX)")
    compare.add_argument("--strict", action="store_true", help=STRICT_HELP)
    _add_threads(compare)
    compare.add_argument(
        "--quiet", action="store_true", help="log only warnings and errors to stderr"
    )

    reproduce = commands.add_parser(
        "check-reproduction", help="hold a leaderboard against published figures; exit 1 on FAIL"
    )
    reproduce.add_argument(
        "--leaderboard",
        required=True,
        help="results/metrics.tsv (every metric) or results/leaderboard.tsv (one metric)",
    )
    reproduce.add_argument(
        "--metric",
        default="nDCG@10",
        help="the metric of a leaderboard.tsv (default nDCG@10)",
    )
    reproduce.add_argument(
        "--expected",
        action="append",
        default=None,
        help="built-in table (beir, miracl, msmarco) or a TSV path; repeatable (default: all)",
    )
    reproduce.add_argument(
        "--model",
        action="append",
        required=True,
        metavar="MODEL=SYSTEM",
        help="leaderboard model and the expected tables' system, e.g. bm25=bm25-flat",
    )
    reproduce.add_argument(
        "--dataset",
        action="append",
        default=[],
        metavar="DATASET=ROW",
        help="leaderboard dataset and the expected tables' dataset (default: same)",
    )
    reproduce.add_argument(
        "--ok",
        type=float,
        default=0.0005,
        help="the largest difference from a published figure that is OK",
    )
    reproduce.add_argument(
        "--okish",
        type=float,
        default=0.005,
        help="the largest difference that is OKISH; a larger one is FAIL",
    )

    datasets = commands.add_parser("datasets", help="inspect collections")
    datasets_commands = datasets.add_subparsers(dest="datasets_command", required=True)
    stats = datasets_commands.add_parser(
        "stats", help="documents, queries, judged queries, qrels lines, grade histogram"
    )
    stats.add_argument("folders", nargs="+", help="BEIR-format folders (or .zip archives)")
    stats.add_argument("--split", default="test", help="the judgments counted: qrels/{split}.tsv")
    stats.add_argument(
        "--format",
        choices=("md", "json"),
        default="md",
        help="md: a table, a row per collection; json: a record per collection",
    )

    compile_ = commands.add_parser(
        "compile",
        help="build the stages' compiled code into numba's cache (once per installation; "
        "with NUMBA_CACHE_DIR, into that shared folder), so that no job compiles",
    )
    compile_.add_argument(
        "--languages",
        nargs="+",
        default=list(COMPILED_LANGUAGES),
        help="the languages whose analyzers to build (those with compiled code of their "
        "own; default: all of them)",
    )
    compile_.add_argument(
        "--jobs",
        type=_positive,
        help="processes building at once (default: the cores)",
    )

    check = commands.add_parser(
        "check-config",
        help="validate a config file against the files it names and print it resolved",
    )
    check.add_argument(
        "config", help="a config file (YAML); its relative paths are read from its folder"
    )
    return parser


def _add_threads(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--threads",
        type=_positive,
        default=min(os.cpu_count() or 1, 4),
        help="threads ranking slices of a run at once (default: the cores, at most 4)",
    )
