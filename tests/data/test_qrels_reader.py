"""The fast qrels reader (Arrow) gives what the general one gives, frame or error, on
every layout a qrels file comes in: it reads the common files and hands the rest on."""

from __future__ import annotations

import io
import logging

import pandas as pd
import pytest

from sparsebench.core.errors import DataError
from sparsebench.data import qrels as qrels_module
from sparsebench.data.qrels import parse_qrels, read_qrels

LAYOUTS = {
    "BEIR TSV with a header": "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\nq2\td1\t2\n",
    "TREC, spaces": "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\n",
    "TREC, tabs": "q1\t0\td1\t1\nq1\t0\td2\t0\n",
    "no header": "q1\td1\t1\nq2\td3\t0\n",
    "grades written as floats": "query-id\tcorpus-id\tscore\nq1\td1\t1.0\nq1\td2\t0.0\n",
    "a fractional grade": "q1\td1\t0.5\n",
    "a repeated line": "q1\td1\t1\nq1\td1\t1\nq1\td2\t0\n",
    "a pair judged twice": "q1\td1\t1\nq1\td1\t2\n",
    "two spaces between fields": "q1  d1  1\nq2  d2  0\n",
    "a trailing tab": "q1\td1\t1\t\nq2\td2\t0\t\n",
    "a trailing space": "q1\td1\t1 \nq2\td2\t0 \n",
    "CRLF line ends": "q1\td1\t1\r\nq2\td2\t0\r\n",
    "a blank line": "q1\td1\t1\n\nq2\td2\t0\n",
    "a byte order mark": "\ufeffquery-id\tcorpus-id\tscore\nq1\td1\t1\n",
    "a no-break space in an id": "q1\td\u00a01\t1\nq2\td2\t0\n",
    "an ideographic space in an id": "q1\td\u30001\t1\n",
    "negative grades": "q1\td1\t-1\nq1\td2\t3\n",
    "ids in another script": "クエリ1\t文書1\t1\nクエリ1\t文書2\t0\n",
    "an empty field": "q1\t\t1\nq2\td2\t0\n",
    "a header only": "query-id\tcorpus-id\tscore\n",
    "quotes in an id": 'q1\t"d1"\t1\nq2\td"2\t0\n',
    "a line with a field less": "q1\td1\t1\nq2\td2\n",
    "a grade that is not a number": "q1\td1\t1\nq2\td2\tyes\n",
    "a very large grade": "q1\td1\t99999999999999999999\n",
}


def _read_both(tmp_path, text: str):
    """(what read_qrels gives, what parse_qrels gives): a frame or the error's text."""
    path = tmp_path / "qrels.tsv"
    path.write_bytes(text.encode("utf-8"))

    def outcome(read):
        try:
            return read()
        except DataError as error:
            return str(error).replace(str(path), "<qrels>")

    general = outcome(lambda: parse_qrels(io.BytesIO(path.read_bytes()), str(path)))
    return outcome(lambda: read_qrels(path)), general


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_fast_reader_gives_what_the_general_one_gives(tmp_path, layout):
    fast, general = _read_both(tmp_path, LAYOUTS[layout])
    if isinstance(general, str):
        assert fast == general
    else:
        pd.testing.assert_frame_equal(fast, general, check_exact=True)


@pytest.mark.parametrize(
    "layout", ["BEIR TSV with a header", "TREC, spaces", "ids in another script", "CRLF line ends"]
)
def test_common_files_are_read_by_arrow(tmp_path, layout, monkeypatch):
    """The common layouts do not fall back on the general reader."""
    path = tmp_path / "qrels.tsv"
    path.write_text(LAYOUTS[layout], encoding="utf-8")

    def refuse(*args, **kwargs):
        raise AssertionError("the general reader was used")

    monkeypatch.setattr(qrels_module, "parse_qrels", refuse)
    assert len(read_qrels(path)) >= 2


def test_a_repeated_line_still_warns(tmp_path, caplog):
    path = tmp_path / "qrels.tsv"
    path.write_text(LAYOUTS["a repeated line"], encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        frame = read_qrels(path)
    assert len(frame) == 2 and "1 repeated judgment lines collapsed" in caplog.text
