"""Preparing collections: canonical files, and a clear error for every bad input."""

from __future__ import annotations

import json
import logging
import zipfile

import pandas as pd
import pyarrow.parquet as pq
import pytest
from conftest import (
    TINY_DOCS,
    TINY_QRELS,
    TINY_QUERIES,
    prepare_entry,
    prepare_source,
    write_collection,
)

from sparsebench.core.errors import DataError
from sparsebench.core.fileio import read_json
from sparsebench.data.collection import ZipSource
from sparsebench.data.corpusfile import read_corpus, read_corpus_slice

LOCAL = {"source": "local", "split": "test"}


def prepare(root, out, **entry):
    return prepare_entry({**LOCAL, "path": str(root), **entry}, out)


def test_canonical_files(tiny_collection, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    summary = prepare(tiny_collection, tmp_path / "out")
    corpus = read_corpus(tmp_path / "out" / "corpus.parquet", ["doc_id", "text"]).to_pydict()
    assert corpus["doc_id"][:2] == ["d1", "d2"]
    assert corpus["text"][0] == "Solar power Photovoltaic panels convert sunlight into electricity."
    assert corpus["text"][6] == ""  # title and text empty: kept, with a warning
    assert "1 records have empty text (e.g. 'd7')" in caplog.text
    qrels = pd.read_csv(tmp_path / "out" / "qrels.tsv", sep="\t", dtype=str)
    assert list(qrels.columns) == ["query-id", "corpus-id", "score"]
    assert summary["n_docs"] == 8 and summary["n_queries"] == 5
    assert summary["n_judged_queries"] == 4 and summary["grades"] == {"0": 1, "1": 4, "2": 4}
    assert set(read_json(tmp_path / "out" / "dataset.json")["files"]) == {
        "queries.parquet",
        "qrels.tsv",
    }
    assert set(read_json(tmp_path / "out" / "corpus.json")["files"]) == {"corpus.parquet"}


def test_corpus_slices_read_only_their_rows(tiny_collection, tmp_path):
    prepare(tiny_collection, tmp_path)
    ids = read_corpus_slice(tmp_path / "corpus.parquet", 3, 6).column("doc_id").to_pylist()
    assert ids == ["d4", "d5", "d6"]


def test_ids_keep_leading_zeros(tmp_path):
    root = write_collection(
        tmp_path / "c", [("007", "", "bond james")], [("01", "james")], [("01", "007", 1)]
    )
    prepare(root, tmp_path / "out")
    qrels = pd.read_csv(tmp_path / "out" / "qrels.tsv", sep="\t", dtype=str)
    assert qrels.iloc[0].tolist() == ["01", "007", "1"]


def test_trec_format_qrels_are_accepted(tmp_path):
    root = write_collection(tmp_path / "c", TINY_DOCS, TINY_QUERIES, [])
    (root / "qrels" / "test.tsv").write_text("q1 0 d1 2\nq2 0 d3 1\n")
    summary = prepare(root, tmp_path / "out")
    assert summary["n_qrels"] == 2


@pytest.mark.parametrize(
    ("docs", "queries", "qrels", "message"),
    [
        (TINY_DOCS + [("d1", "", "again")], TINY_QUERIES, TINY_QRELS, "duplicate ids.*'d1'"),
        (TINY_DOCS, TINY_QUERIES + [("q1", "again")], TINY_QRELS, "duplicate ids.*'q1'"),
        (TINY_DOCS, TINY_QUERIES, TINY_QRELS + [("q9", "d1", 1)], "query ids that are not in"),
        (TINY_DOCS, TINY_QUERIES, TINY_QRELS + [("q1", "d99", 1)], "doc ids that are not in"),
        ([(1, "", "int id")], [("q", "x")], [("q", "1", 1)], "is a JSON number"),
        (TINY_DOCS, [(1, "int query id")], TINY_QRELS, "is a JSON number"),
        (TINY_DOCS + [("a b", "", "x")], TINY_QUERIES, TINY_QRELS, "contains SPACE \\(U\\+0020\\)"),
        (TINY_DOCS, TINY_QUERIES, TINY_QRELS + [("q1", "d1", 0)], "different grades"),
        (TINY_DOCS, TINY_QUERIES, TINY_QRELS + [("q1", "d3", "high")], "not an integer"),
        ([], TINY_QUERIES, TINY_QRELS, "no documents"),
    ],
)
def test_bad_collections_fail_with_a_clear_message(tmp_path, docs, queries, qrels, message):
    root = write_collection(tmp_path / "c", docs, queries, qrels)
    with pytest.raises(DataError, match=message):
        prepare(root, tmp_path / "out")
    assert not (tmp_path / "out" / "dataset.json").exists()


def test_missing_split_lists_the_available_ones(tiny_collection, tmp_path):
    with pytest.raises(DataError, match="no qrels for split 'dev'.*available splits: test"):
        prepare(tiny_collection, tmp_path / "out", split="dev")


def test_missing_folder(tmp_path):
    with pytest.raises(DataError, match="does not exist"):
        prepare(tmp_path / "nowhere", tmp_path / "out")


def test_zip_archives_are_read_in_place(tiny_collection, tmp_path):
    archive = tmp_path / "tiny.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in tiny_collection.rglob("*"):
            if path.is_file():
                z.write(path, "tiny/" + path.relative_to(tiny_collection).as_posix())
    summary = prepare_source(ZipSource(archive, "test"), tmp_path / "out", "tiny", {})
    assert summary["n_docs"] == 8
    assert summary["source"]["kind"] == "zip" and len(summary["source"]["md5"]) == 32


def test_corrupt_zip_is_an_error(tmp_path):
    archive = tmp_path / "broken.zip"
    archive.write_bytes(b"PK\x03\x04 this is not really a zip archive")
    with pytest.raises(DataError, match="not a valid zip archive"):
        prepare_source(ZipSource(archive, "test"), tmp_path / "out", "broken", {})


def test_empty_queries_are_kept_with_a_warning(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    root = write_collection(
        tmp_path / "c", TINY_DOCS, TINY_QUERIES + [("q6", "  ")], TINY_QRELS + [("q6", "d1", 1)]
    )
    summary = prepare(root, tmp_path / "out")
    assert summary["n_empty_queries"] == 1
    assert "queries.jsonl: 1 records have empty text (e.g. 'q6')" in caplog.text


def test_builtin_collection_is_valid(tmp_path):
    summary = prepare_entry({"source": "builtin", "name": "minibeir"}, tmp_path, "minibeir")
    assert summary["n_docs"] == 48 and summary["n_judged_queries"] == 16
    assert json.loads((tmp_path / "dataset.json").read_text())["n_queries"] == 18


def test_subsample_keeps_every_judged_document(tmp_path, caplog):
    from conftest import shared_path

    caplog.set_level(logging.WARNING)
    folder = shared_path("data", "cranfield")
    entry = {**LOCAL, "path": str(folder), "subsample": {"documents": 1000, "seed": 3}}
    summary = prepare_entry(entry, tmp_path / "a")
    assert summary["n_docs"] == 1000
    assert summary["subsample"] == {"documents": 1000, "of": 1400, "judged": 924, "seed": 3}
    kept = set(pq.read_table(tmp_path / "a" / "corpus.parquet")["doc_id"].to_pylist())
    judged = set(pd.read_csv(tmp_path / "a" / "qrels.tsv", sep="\t", dtype=str)["corpus-id"])
    assert judged <= kept and len(kept) == 1000
    assert "SUBSAMPLE: keeping 1000 of 1400 documents" in caplog.text
    again = prepare_entry(entry, tmp_path / "b")  # seeded: the same sample
    assert again["files"]["corpus.parquet"] == summary["files"]["corpus.parquet"]


def _files_entry(root, corpus: str, queries: str, qrels: str) -> dict:
    """A `files` dataset entry of a TSV corpus and queries and TREC qrels written in root."""
    for name, text in (("c.tsv", corpus), ("q.tsv", queries), ("qrels.txt", qrels)):
        (root / name).write_text(text)
    return {
        "source": "files",
        "corpus": str(root / "c.tsv"),
        "split": "test",
        "queries": str(root / "q.tsv"),
        "qrels": str(root / "qrels.txt"),
    }


def test_files_source_reads_tsv_and_trec_qrels(tmp_path):
    entry = _files_entry(
        tmp_path,
        "d1\tSolar power\tPanels convert sunlight\nd2\tWind\tTurbines\n",
        "q1\tsolar panels\n",
        "q1 0 d1 1\n",
    )
    prepare_entry(entry, tmp_path / "out")
    corpus = read_corpus(tmp_path / "out" / "corpus.parquet", ["doc_id", "text"]).to_pydict()
    assert corpus == {
        "doc_id": ["d1", "d2"],
        "text": ["Solar power Panels convert sunlight", "Wind Turbines"],
    }


def with_train_split(collection, qrels):
    with open(collection / "qrels" / "train.tsv", "w", encoding="utf-8") as handle:
        handle.write("query-id\tcorpus-id\tscore\n")
        handle.writelines(f"{q}\t{d}\t{g}\n" for q, d, g in qrels)
    return collection


def test_a_train_split_is_kept_for_tuning(tiny_collection, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    # q1 is judged in both splits: it is evaluated, so it is not tuned on
    with_train_split(tiny_collection, [("q5", "d2", 1), ("q1", "d1", 1)])
    summary = prepare(tiny_collection, tmp_path / "auto")
    assert summary["tuning_split"] == "train" and summary["n_tuning_queries"] == 1
    tuning = pd.read_csv(tmp_path / "auto" / "qrels.tuning.tsv", sep="\t", dtype=str)
    assert tuning.values.tolist() == [["q5", "d2", "1"]]
    assert "1 queries of split train are also evaluated; they are left out" in caplog.text
    # the evaluated qrels are untouched
    assert pd.read_csv(tmp_path / "auto" / "qrels.tsv", sep="\t", dtype=str).shape[0] == 9
    none = prepare(tiny_collection, tmp_path / "none", tuning_split="none")
    assert none["tuning_split"] is None and none["n_tuning_queries"] == 0
    empty = pd.read_csv(tmp_path / "none" / "qrels.tuning.tsv", sep="\t")
    assert list(empty.columns) == ["query-id", "corpus-id", "score"] and empty.empty


def test_without_a_train_split_nothing_is_tuned_on(tiny_collection, tmp_path):
    assert prepare(tiny_collection, tmp_path / "out")["tuning_split"] is None


@pytest.mark.parametrize(
    ("tuning_split", "message"),
    [("dev", "no qrels for split 'dev'"), ("test", "'test' is the evaluated split itself")],
)
def test_a_named_tuning_split_must_exist_and_differ(
    tiny_collection, tmp_path, tuning_split, message
):
    with pytest.raises(DataError, match=message):
        prepare(tiny_collection, tmp_path / "out", tuning_split=tuning_split)


def test_training_judgments_must_name_known_documents(tiny_collection, tmp_path, caplog):
    with_train_split(tiny_collection, [("q5", "nope", 1)])
    with pytest.raises(DataError, match="qrels name 1 doc ids that are not in corpus.jsonl"):
        prepare(tiny_collection, tmp_path / "named", tuning_split="train")
    # a split found by looking (auto) is left unused, with a warning: sweeps cross-validate
    caplog.set_level(logging.WARNING)
    summary = prepare(tiny_collection, tmp_path / "auto")
    assert summary["tuning_split"] is None and summary["n_tuning_queries"] == 0
    assert "training split train left unused: qrels name 1 doc ids" in caplog.text


def _judging_a_missing_document(collection):
    """The tiny collection with one more judgment, of a document its corpus lacks (as
    BEIR's ArguAna judges one)."""
    with open(collection / "qrels" / "test.tsv", "a", encoding="utf-8") as handle:
        handle.write("q1\tgone\t1\n")
    return collection


def test_a_judged_document_the_corpus_lacks_is_refused_by_default(tiny_collection, tmp_path):
    _judging_a_missing_document(tiny_collection)
    with pytest.raises(
        DataError,
        match=r"qrels name 1 doc ids that are not in corpus.jsonl \(e.g. 'gone'\).*"
        "set the dataset's unknown_judged_documents to keep",
    ):
        prepare(tiny_collection, tmp_path / "out")


@pytest.mark.parametrize("policy", ["keep", "drop"])
def test_judged_documents_the_corpus_lacks_are_kept_or_dropped_as_asked(
    tiny_collection, tmp_path, caplog, policy
):
    caplog.set_level(logging.WARNING)
    _judging_a_missing_document(tiny_collection)
    summary = prepare(tiny_collection, tmp_path / policy, unknown_judged_documents=policy)
    qrels = pd.read_csv(tmp_path / policy / "qrels.tsv", sep="\t", dtype=str)
    assert (("q1", "gone", "1") in set(map(tuple, qrels.values))) == (policy == "keep")
    assert len(qrels) == len(TINY_QRELS) + (policy == "keep")
    assert summary["unknown_judged_documents"] == policy
    assert summary["n_unknown_judged_documents"] == 1
    assert summary["unknown_judged_document_ids"] == ["gone"]
    assert "1 judgments name 1 documents the corpus does not hold (e.g. 'gone')" in caplog.text


def test_a_kept_judgment_counts_as_trec_eval_counts_it(tiny_collection, tmp_path):
    """A relevant document no run can retrieve lowers nDCG and recall as trec_eval
    (pytrec_eval-terrier) computes them on the same qrels."""
    from conftest import run_stages
    from support.trec_eval_reference import trec_eval

    from sparsebench.data.qrels import read_qrels

    plain = run_stages(tiny_collection, tmp_path / "plain")
    _judging_a_missing_document(tiny_collection)
    kept = run_stages(
        tiny_collection, tmp_path / "kept", dataset={"unknown_judged_documents": "keep"}
    )
    run = pd.read_csv(
        kept.run,
        sep=" ",
        header=None,
        names=["query_id", "q0", "doc_id", "rank", "score", "tag"],
        dtype={"query_id": str, "doc_id": str},
    )
    reference = trec_eval(run, read_qrels(kept.dataset / "qrels.tsv"))
    ours, before = _per_query(kept.per_query), _per_query(plain.per_query)
    for metric, theirs in (("nDCG@10", "ndcg_cut_10"), ("Recall@100", "recall_100")):
        assert ours[metric] == pytest.approx(reference.loc["q1", theirs], abs=1e-12)
        assert ours[metric] < before[metric]


def _per_query(path) -> dict[str, float]:
    """q1's values in a per_query.tsv (query_id, metric, value)."""
    values = pd.read_csv(path, sep="\t", dtype={"query_id": str})
    return dict(values[values["query_id"] == "q1"][["metric", "value"]].itertuples(index=False))


def test_tsv_texts_that_look_missing_are_read_verbatim(tmp_path):
    """A corpus TSV of a `files` entry: pandas' NA strings are texts like any other."""
    texts = ["N/A", "NA", "null", "nan", "None", "NaN", "#N/A", "007"]
    corpus = "".join(f"d{i}\t{t}\n" for i, t in enumerate(texts))
    entry = _files_entry(tmp_path, corpus, "q1\tnull\nq2\tNA\n", "q1 0 d1 1\n")
    prepare_entry(entry, tmp_path / "out")
    assert read_corpus(tmp_path / "out" / "corpus.parquet", ["text"])["text"].to_pylist() == texts
    queries = pq.read_table(tmp_path / "out" / "queries.parquet")["text"].to_pylist()
    assert queries == ["null", "NA"]
