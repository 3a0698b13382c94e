"""Every layout a run file comes in, read three ways that must agree, values or error:
the whole file by Arrow (read_run's fast reader), the whole file by the general reader,
and a block at a time while it is measured (evaluate_run_file)."""

from __future__ import annotations

import pandas as pd
import pytest

from sparsebench.core.errors import DataError
from sparsebench.evaluate.metrics import evaluate_run, evaluate_run_file
from sparsebench.runs import runfile
from sparsebench.runs.runfile import read_run

QRELS = pd.DataFrame(
    {
        "query_id": ["q1", "q1", "q2", "q2", "q3"],
        "doc_id": ["d1", "d2", "d1", "d3", "d9"],
        "grade": [1, 0, 2, 1, 1],
    }
)
MEASURES = ["nDCG@10", "MAP", "P@10", "bpref", "Judged@10"]

LAYOUTS = {
    "spaces": "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\nq2 Q0 d3 1 0.5 t\n",
    "tabs": "q1\tQ0\td1\t1\t2.5\tt\nq1\tQ0\td2\t2\t1.5\tt\nq2\tQ0\td3\t1\t0.5\tt\n",
    "CRLF line ends": "q1 Q0 d1 1 2.5 t\r\nq1 Q0 d2 2 1.5 t\r\nq2 Q0 d3 1 0.5 t\r\n",
    "no final line break": "q1 Q0 d1 1 2.5 t\nq2 Q0 d3 1 0.5 t",
    "a blank line": "q1 Q0 d1 1 2.5 t\n\nq2 Q0 d3 1 0.5 t\n",
    "two spaces between fields": "q1  Q0 d1 1 2.5 t\nq2 Q0 d3 1 0.5 t\n",
    "a trailing space": "q1 Q0 d1 1 2.5 t \nq2 Q0 d3 1 0.5 t \n",
    "scores in exponent form": "q1 Q0 d1 1 2.5e+01 t\nq1 Q0 d2 2 -3E-2 t\n",
    "negative zero ties zero": "q1 Q0 d2 1 -0.0 t\nq1 Q0 d1 2 0.0 t\n",
    "ranks that are not integers": "q1 Q0 d1 one 2.5 t\nq2 Q0 d3 2.0 0.5 t\n",
    "a query split in two places": "q1 Q0 d1 1 2.5 t\nq2 Q0 d3 1 0.5 t\nq1 Q0 d2 2 1.5 t\n",
    "ids in another script": "q1 Q0 文書1 1 2.5 t\nq1 Q0 d1 2 1.5 t\n",
    "a query only in the run": "x Q0 d1 1 9 t\nq1 Q0 d1 1 2.5 t\n",
    "a repeated document": "q1 Q0 d1 1 2.5 t\nq1 Q0 d1 2 1.5 t\n",
    "a line with a field less": "q1 Q0 d1 1 2.5 t\nq2 Q0 d3 1 0.5\n",
    "a line with a field more": "q1 Q0 d1 1 2.5 t\nq2 Q0 d3 1 0.5 t x\n",
    "a score that is not a number": "q1 Q0 d1 1 2.5 t\nq2 Q0 d3 1 high t\n",
    "an infinite score": "q1 Q0 d1 1 inf t\n",
    "a NaN score": "q1 Q0 d1 1 nan t\n",
    "no query in common": "x Q0 d1 1 2.5 t\n",
    "not UTF-8": b"q1 Q0 d\xff1 1 2.5 t\n",
}


def _outcome(read):
    try:
        return read()
    except DataError as error:
        return str(error)


def _values(evaluation) -> object:
    """An error's text, or the values written to the bit (%.17g) with the counts."""
    if isinstance(evaluation, str):
        return evaluation
    table = evaluation.per_query.to_csv(sep="\t", float_format="%.17g")
    return table, evaluation.n_evaluated, evaluation.n_in_run


@pytest.mark.parametrize("query_set", ["complete", "run"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_run_read_whole_or_in_blocks_gives_the_same_values_or_error(
    tmp_path, monkeypatch, layout, query_set
):
    text = LAYOUTS[layout]
    path = tmp_path / "run.trec"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))

    def whole():
        return evaluate_run(read_run(path), QRELS, MEASURES, query_set=query_set)

    def streamed():
        return evaluate_run_file(
            path, QRELS, MEASURES, query_set=query_set, slice_rows=1, block_bytes=64
        ).evaluation

    fast = _values(_outcome(whole))
    in_blocks = _values(_outcome(streamed))
    monkeypatch.setattr(runfile, "_read_run_fast", lambda path: None)
    general = _values(_outcome(whole))
    assert fast == general
    assert in_blocks == general
