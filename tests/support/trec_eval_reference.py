"""trec_eval (pytrec_eval-terrier) as the reference of the metric engine, and random
hard cases to hold the two against each other."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytrec_eval

CUTOFFS = (1, 3, 5, 10, 20, 100)


def trec_eval(
    run: pd.DataFrame, qrels: pd.DataFrame, level: int = 1, judged_only: bool = False
) -> pd.DataFrame:
    """pytrec_eval's per-query values, one row per query of the run with qrels
    (`judged_only`: trec_eval -J, the condensed lists)."""
    run_dict: dict = {}
    for q, d, s in run[["query_id", "doc_id", "score"]].itertuples(index=False):
        run_dict.setdefault(q, {})[d] = float(s)
    qrels_dict: dict = {}
    for q, d, g in qrels[["query_id", "doc_id", "grade"]].itertuples(index=False):
        qrels_dict.setdefault(q, {})[d] = int(g)
    cut = ",".join(map(str, CUTOFFS))
    measures = {
        f"ndcg_cut.{cut}",
        f"recall.{cut}",
        f"P.{cut}",
        f"success.{cut}",
        f"map_cut.{cut}",
        "map",
        "recip_rank",
        "Rprec",
        "bpref",
        "gm_map",
        "iprec_at_recall",
        "num_rel",
    }
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels_dict, measures, relevance_level=level, judged_docs_only_flag=judged_only
    )
    return pd.DataFrame(evaluator.evaluate(run_dict)).T


def random_case(seed: int, n_queries: int = 60, n_docs: int = 300):
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in range(n_queries):
        qid = f"q{q}"
        if q % 10 != 9:  # every tenth query is missing from the run
            docs = rng.choice(n_docs, size=rng.integers(1, 80), replace=False)
            scores = rng.integers(0, 6, size=len(docs)) / 4.0  # many ties
            run_rows += [(qid, f"doc{d}", s) for d, s in zip(docs, scores, strict=True)]
        judged = rng.choice(n_docs, size=rng.integers(1, 25), replace=False)
        grades = rng.integers(-1, 4, size=len(judged))
        if q % 7 == 3:
            grades = np.minimum(grades, 0)  # no relevant document
        qrels_rows += [(qid, f"doc{d}", int(g)) for d, g in zip(judged, grades, strict=True)]
    run_rows += [("only-in-run", "doc1", 1.0)]
    return (
        pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"]),
        pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "grade"]),
    )
