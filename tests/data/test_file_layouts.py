"""Collection files as exporters and hand-made conversions write them: float grades
without a header, three-field queries TSV, header lines, trailing tabs, ids with
whitespace of any script. Legitimate layouts read as the BEIR original reads (ADI, the
shared collection: the same judgments, queries and nDCG@10); wrong ones stop with the
file, the line and the cause."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from conftest import shared_path

from sparsebench.core.errors import DataError
from sparsebench.data.qrels import parse_qrels, read_qrels
from sparsebench.pair import run_pair

ADI = shared_path("data", "adi")


def _adi(member: str) -> list[dict]:
    with open(ADI / member, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _adi_qrels() -> pd.DataFrame:
    return read_qrels(ADI / "qrels" / "test.tsv")


def _files_entry(root: Path, corpus: str, queries: str, qrels: str) -> dict:
    return {
        "source": "files",
        "corpus": str(root / corpus),
        "queries": str(root / queries),
        "qrels": str(root / qrels),
        "split": "test",
    }


def _ndcg(entry: dict, out: Path) -> float:
    """BM25's nDCG@10 on a dataset entry, through every stage of the pipeline."""
    files = run_pair(entry, {"kind": "bm25"}, out)
    return json.loads(files.metrics.read_text())["nDCG@10"]


@pytest.fixture(scope="module")
def adi_ndcg(tmp_path_factory) -> float:
    """BM25's nDCG@10 on ADI as BEIR-format files (the reference the layouts must give)."""
    return _ndcg({"source": "local", "path": str(ADI)}, tmp_path_factory.mktemp("adi"))


def _write_tsv_collection(root: Path, queries_lines: list[str], qrels_lines: list[str]) -> dict:
    root.mkdir(parents=True, exist_ok=True)
    corpus = [f"{d['_id']}\t{d['title']}\t{d['text']}\n" for d in _adi("corpus.jsonl")]
    (root / "corpus.tsv").write_text("".join(corpus), encoding="utf-8")
    (root / "queries.tsv").write_text("".join(queries_lines), encoding="utf-8")
    (root / "qrels.txt").write_text("".join(qrels_lines), encoding="utf-8")
    return _files_entry(root, "corpus.tsv", "queries.tsv", "qrels.txt")


def _split_query(text: str) -> tuple[str, str]:
    words = text.split(" ")
    return " ".join(words[:3]), " ".join(words[3:])


# --- grades ------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["beir", "trec"])
def test_float_grades_without_a_header_keep_the_first_line(layout):
    """`1<TAB>17<TAB>1.0` on line 1 is a judgment, not a header: all 170 are kept."""
    reference = _adi_qrels()
    sep = "\t" if layout == "beir" else " "
    lines = [
        sep.join([q, d, f"{g}.0"] if layout == "beir" else [q, "0", d, f"{g}.0"])
        for q, d, g in reference.itertuples(index=False)
    ]
    parsed = parse_qrels(_stream(lines), "q")
    assert len(parsed) == len(reference) == 170
    pd.testing.assert_frame_equal(parsed, reference)


def _stream(lines: list[str]):
    import io

    return io.BytesIO(("\n".join(lines) + "\n").encode())


@pytest.mark.parametrize(
    ("lines", "line"),
    [
        (["1\t17\t0.5", "1\t46\t1"], 1),
        (["query-id\tcorpus-id\tscore", "1\t17\t1", "1\t46\t0.5"], 3),
        (["1 0 17 1", "1 0 46 1", "2 0 9 0.5"], 3),
    ],
)
def test_a_fractional_grade_is_named_at_its_own_line(lines, line):
    with pytest.raises(DataError, match=rf"q: line {line}: grade '0.5' is not an integer"):
        parse_qrels(_stream(lines), "q")


def test_float_grades_give_the_nDCG_of_integer_ones(tmp_path, adi_ndcg):
    queries = [f"{q['_id']}\t{q['text']}\n" for q in _adi("queries.jsonl")]
    qrels = [f"{q}\t{d}\t{g}.0\n" for q, d, g in _adi_qrels().itertuples(index=False)]
    entry = _write_tsv_collection(tmp_path / "c", queries, qrels)
    assert _ndcg(entry, tmp_path / "out") == pytest.approx(adi_ndcg, abs=1e-12)


# --- TSV layouts ---------------------------------------------------------------------


def _qrels_lines() -> list[str]:
    return [f"{q} 0 {d} {g}\n" for q, d, g in _adi_qrels().itertuples(index=False)]


def test_three_field_queries_are_title_and_text(tmp_path, adi_ndcg):
    queries = [f"{q['_id']}\t%s\t%s\n" % _split_query(q["text"]) for q in _adi("queries.jsonl")]
    entry = _write_tsv_collection(tmp_path / "c", queries, _qrels_lines())
    assert _ndcg(entry, tmp_path / "out") == pytest.approx(adi_ndcg, abs=1e-12)
    texts = pq.read_table(tmp_path / "out" / "data" / "d" / "queries.parquet")["text"]  # noqa
    assert texts.to_pylist() == [q["text"] for q in _adi("queries.jsonl")]


def test_a_trailing_tab_on_every_line_is_ignored(tmp_path, adi_ndcg, caplog):
    queries = [f"{q['_id']}\t{q['text']}\t\n" for q in _adi("queries.jsonl")]
    entry = _write_tsv_collection(tmp_path / "c", queries, _qrels_lines())
    assert _ndcg(entry, tmp_path / "out") == pytest.approx(adi_ndcg, abs=1e-12)
    assert "queries.tsv: every line ends with a tab" in caplog.text


def test_a_field_after_a_trailing_tab_is_named(tmp_path, monkeypatch):
    """The first block of the file says that every line ends with a tab; a later line that
    does not is named (in the first block, it would make the file three-field)."""
    from conftest import prepare_entry

    from sparsebench.data import records

    monkeypatch.setattr(records, "_JSON_BLOCK", 1536)  # longer than any line
    queries = [f"{q['_id']}\t{q['text']}\t\n" for q in _adi("queries.jsonl")]
    queries[20] = queries[20].rstrip("\n") + "oops\n"
    entry = _write_tsv_collection(tmp_path / "c", queries, _qrels_lines())
    with pytest.raises(DataError, match=r"queries\.tsv line 21: a field after the last"):
        prepare_entry(entry, tmp_path / "out")


@pytest.mark.parametrize("header", ["id\ttitle\ttext", "_id\ttitle\ttext", "docid\ttext"])
def test_a_header_line_is_not_a_record(tmp_path, header):
    from conftest import prepare_entry

    fields = header.count("\t") + 1
    docs = _adi("corpus.jsonl")
    rows = [
        [d["_id"], d["title"], d["text"]] if fields == 3 else [d["_id"], d["text"]] for d in docs
    ]
    queries = ["qid\tquery\n"] + [f"{q['_id']}\t{q['text']}\n" for q in _adi("queries.jsonl")]
    entry = _write_tsv_collection(tmp_path / "c", queries, _qrels_lines())
    (tmp_path / "c" / "corpus.tsv").write_text(
        header + "\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8"
    )
    prepare_entry(entry, tmp_path / "out")
    doc_ids = pq.read_table(tmp_path / "out" / "corpus.parquet")["doc_id"].to_pylist()
    query_ids = pq.read_table(tmp_path / "out" / "queries.parquet")["query_id"].to_pylist()
    assert doc_ids == [d["_id"] for d in docs]
    assert query_ids == [q["_id"] for q in _adi("queries.jsonl")]


def test_queries_that_are_all_empty_stop_at_the_queries_file(tmp_path):
    from conftest import prepare_entry

    queries = [f"{q['_id']}\t\n" for q in _adi("queries.jsonl")]
    entry = _write_tsv_collection(tmp_path / "c", queries, _qrels_lines())
    with pytest.raises(DataError, match=r"c/queries\.tsv: every query's text is empty"):
        prepare_entry(entry, tmp_path / "out")


# --- ids -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("space", "name"),
    [("\u000b", "U\\+000B"), ("\u00a0", "NO-BREAK SPACE \\(U\\+00A0\\)"), ("\u3000", "U\\+3000")],
)
@pytest.mark.parametrize("member", ["corpus", "queries"])
def test_an_id_with_whitespace_of_any_script_is_refused_at_its_line(tmp_path, space, name, member):
    from conftest import prepare_entry

    root = tmp_path / "c"
    root.mkdir()
    for part in ("corpus", "queries"):
        records = _adi(f"{part}.jsonl")
        if part == member:
            records[6]["_id"] = f"x{space}7"
        (root / f"{part}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (root / "qrels.txt").write_text("".join(_qrels_lines()))
    entry = _files_entry(root, "corpus.jsonl", "queries.jsonl", "qrels.txt")
    with pytest.raises(DataError, match=rf"{member}\.jsonl line 7: id 'x.+7' contains .*{name}"):
        prepare_entry(entry, tmp_path / "out")


def test_a_line_longer_than_a_block_is_named_not_read_as_nothing(tmp_path, monkeypatch):
    from conftest import prepare_entry

    from sparsebench.data import records

    monkeypatch.setattr(records, "_JSON_BLOCK", 1024)
    queries = [f"{q['_id']}\t{q['text']}\n" for q in _adi("queries.jsonl")]
    entry = _write_tsv_collection(tmp_path / "c", queries, _qrels_lines())
    with pytest.raises(DataError, match=r"corpus\.tsv: a line is longer than 1,024 bytes"):
        prepare_entry(entry, tmp_path / "out")


# --- compressed files ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["corpus.jsonl", "corpus.jsonl.gz"])
def test_a_gzipped_collection_file_is_read(tmp_path, name):
    import gzip
    import shutil

    from conftest import prepare_entry

    root = tmp_path / "c"
    shutil.copytree(ADI, root)
    (root / "corpus.jsonl").unlink()
    (root / name).write_bytes(gzip.compress((ADI / "corpus.jsonl").read_bytes()))
    prepare_entry({"source": "local", "path": str(root)}, tmp_path / "out")
    doc_ids = pq.read_table(tmp_path / "out" / "corpus.parquet")["doc_id"].to_pylist()
    assert doc_ids == [d["_id"] for d in _adi("corpus.jsonl")]


def test_a_gzipped_run_is_named_as_such_not_as_latin1(tmp_path):
    import gzip

    from sparsebench.runs.runfile import read_run

    run = tmp_path / "run.trec"
    # the header's time changes the compressed bytes, and so how they would parse
    for mtime in (0, 1, 1_700_000_000, 1_800_000_000, 2_000_000_000):
        run.write_bytes(gzip.compress(b"1 Q0 17 1 2.5 m\n" * 50, mtime=mtime))
        with pytest.raises(DataError, match=r"run\.trec line 1: gzip-compressed, not text") as e:
            read_run(run)
        assert "iconv" not in str(e.value)
    named = tmp_path / "run.trec.gz"  # a name that says so is decompressed
    named.write_bytes(gzip.compress(b"1 Q0 17 1 2.5 m\n"))
    assert read_run(named)["doc_id"].tolist() == ["17"]
