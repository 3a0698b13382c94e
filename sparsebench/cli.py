"""The `sparsebench` command: evaluate run files and check configs without Snakemake."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence

from sparsebench.errors import SparsebenchError
from sparsebench.measures import DEFAULT_CUTOFFS, default_metric_names, parse_metric_name


def _metric_list(text: str) -> list[str]:
    names = [n.strip() for n in text.replace(",", " ").split() if n.strip()]
    for name in names:
        try:
            parse_metric_name(name)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def _cutoff_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"cutoffs must be integers: {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("cutoffs must be positive integers")
    return values


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sparsebench", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    evaluate = commands.add_parser(
        "evaluate",
        help="score a TREC run against qrels (values equal trec_eval's)",
        description="Score a TREC run file against qrels; values equal trec_eval's.",
    )
    evaluate.add_argument(
        "--qrels",
        required=True,
        help="BEIR TSV (query-id corpus-id score, header optional) or TREC qrels",
    )
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
    evaluate.add_argument("--format", choices=("json", "tsv"), default="json")
    evaluate.add_argument(
        "--query-set",
        choices=("complete", "run"),
        default="complete",
        help="complete: every qrels query counts, missing ones score 0 "
        "(trec_eval -c; default); run: only queries in both",
    )
    evaluate.add_argument(
        "--relevance-level",
        type=int,
        default=1,
        help="minimum grade that counts as relevant (trec_eval -l)",
    )
    evaluate.add_argument("--quiet", action="store_true", help="do not log to stderr")

    check = commands.add_parser("check-config", help="validate a config file and print it resolved")
    check.add_argument("config")
    return parser


def _evaluate(args: argparse.Namespace) -> str:
    from sparsebench.metrics import evaluate_run
    from sparsebench.prepare import read_qrels
    from sparsebench.runfile import read_run

    names = args.metrics or default_metric_names(args.cutoffs)
    result = evaluate_run(
        read_run(args.run),
        read_qrels(args.qrels),
        names,
        relevance_level=args.relevance_level,
        query_set=args.query_set,
    )
    if args.per_query:
        table = result.per_query
        if args.format == "json":
            return json.dumps(table.to_dict(orient="index"), indent=2)
        long = table.reset_index().melt(id_vars="query_id", var_name="metric", value_name="value")
        return long.to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.17g")
    if args.format == "json":
        return json.dumps(result.means, indent=2)
    return "".join(f"{name}\t{value!r}\n" for name, value in result.means.items())


def _check_config(args: argparse.Namespace) -> str:
    import yaml

    from sparsebench.config import load_config_file

    return yaml.safe_dump(load_config_file(args.config), sort_keys=False)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    quiet = getattr(args, "quiet", False)
    logging.basicConfig(
        level=logging.WARNING if quiet else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        output = _evaluate(args) if args.command == "evaluate" else _check_config(args)
    except SparsebenchError as exc:
        print(f"sparsebench {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except FileNotFoundError as exc:
        print(f"sparsebench {args.command}: error: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(output if output.endswith("\n") else output + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
