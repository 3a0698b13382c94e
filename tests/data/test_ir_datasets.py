"""The ir_datasets source, offline: collections are laid out in ir_datasets' own cache
folder (IR_DATASETS_HOME, a tmp folder here) in the files its loaders look for, so it reads
them instead of downloading, and the source must return exactly what ir_datasets itself
returns for the id. ir_datasets fixes its cache paths when it is imported, so every test
that imports it runs in a child Python with IR_DATASETS_HOME set and sockets refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zipfile
from collections import namedtuple
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import REPO, shared_path

from sparsebench.core.errors import DataError
from sparsebench.data.irdatasets import DEFAULT_TEXT, doc_fields, qrels_frame, query_field

# Run first in the child: no network (any connection attempt fails at once), output as JSON.
PRELUDE = """
import json, socket, sys

def _refuse(*args, **kwargs):
    raise ConnectionRefusedError("network access in an offline test")

socket.socket.connect = _refuse
socket.create_connection = _refuse
socket.getaddrinfo = _refuse

def emit(**values):
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(values, handle)
"""


def run_offline(home: Path, code: str, tmp_path: Path) -> dict:
    """Run `code` in a child Python whose ir_datasets cache is `home`; what it emit()s."""
    out = tmp_path / f"out-{len(list(tmp_path.glob('out-*.json')))}.json"
    env = {
        **os.environ,
        "IR_DATASETS_HOME": str(home),
        "IR_DATASETS_TMP": str(tmp_path / "irds-tmp"),
        "IR_DATASETS_DL_TRIES": "1",
    }
    proc = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(code), str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))


def files_under(root: Path) -> set[str]:
    """The data files of a cache (not the lock files that serialise its readers)."""
    return {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and not p.name.startswith(".sparsebench-")
    }


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def read_beir_qrels(path: Path) -> list[list]:
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [[q, d, int(g)] for q, d, g in (line.split("\t") for line in lines if line)]


# --- BEIR SciFact through ir_datasets' beir module ------------------------------------


def build_beir_scifact(home: Path) -> None:
    """ir_datasets downloads BEIR's scifact.zip to {home}/beir/scifact/source.zip (the
    cache_path of downloads.json) and reads scifact/corpus.jsonl, scifact/queries.jsonl and
    scifact/qrels/test.tsv from it; the zip is built here from the shared BEIR folder.
    A file at its cache path is used without checking its md5."""
    source = shared_path("data", "beir-scifact")
    folder = home / "beir" / "scifact"
    folder.mkdir(parents=True)
    with zipfile.ZipFile(folder / "source.zip", "w", zipfile.ZIP_STORED) as archive:
        for member in ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv"):
            archive.write(source / member, f"scifact/{member}")


def test_beir_scifact_matches_ir_datasets(tmp_path):
    home = tmp_path / "irds"
    build_beir_scifact(home)
    result = run_offline(
        home,
        """
        import ir_datasets
        from sparsebench.data import irdatasets

        irdatasets._BATCH = 1000  # several batches from 5,183 documents
        source = irdatasets.IrDatasetsSource("beir/scifact/test", "test")
        source.check()
        batches = list(source.corpus_batches())
        queries, qrels = source.queries_and_qrels()
        dataset = ir_datasets.load("beir/scifact/test")
        emit(
            rows=[b.num_rows for b in batches],
            schema=[[f.name, str(f.type)] for f in batches[0].schema],
            docs=[r for b in batches for r in zip(*(c.to_pylist() for c in b.columns))],
            queries=[list(r.values()) for r in queries.to_pylist()],
            qrels=qrels.values.tolist(),
            qrels_dtypes=[str(t) for t in qrels.dtypes],
            fingerprint=source.fingerprint(),
            ref_docs=[[d.doc_id, d.title, d.text] for d in dataset.docs_iter()],
            ref_queries=[[q.query_id, q.text] for q in dataset.queries_iter()],
            ref_qrels=[[r.query_id, r.doc_id, r.relevance] for r in dataset.qrels_iter()],
        )
        """,
        tmp_path,
    )
    assert result["rows"] == [1000] * 5 + [183]
    assert result["schema"] == [["_id", "string"], ["title", "string"], ["text", "string"]]
    docs = [list(d) for d in result["docs"]]
    assert docs == result["ref_docs"]
    assert result["queries"] == result["ref_queries"]
    assert result["qrels"] == result["ref_qrels"]
    assert result["qrels_dtypes"][2] == "int64"  # ids are strings: JSON keeps the difference

    # ... and ir_datasets read the files built above, not anything else
    shared = shared_path("data", "beir-scifact")
    assert docs == [[r["_id"], r["title"], r["text"]] for r in read_jsonl(shared / "corpus.jsonl")]
    judged = read_beir_qrels(shared / "qrels" / "test.tsv")
    assert result["qrels"] == judged
    test_ids = {q for q, _, _ in judged}
    assert result["queries"] == [
        [r["_id"], r["text"]] for r in read_jsonl(shared / "queries.jsonl") if r["_id"] in test_ids
    ]
    assert len(result["queries"]) == 300
    assert result["fingerprint"] == {
        "kind": "ir_datasets",
        "path": "beir/scifact/test",
        "split": "test",
        "ir_datasets_version": result["fingerprint"]["ir_datasets_version"],
        "docs_count": 5183,
        "doc_title_field": "title",
        "doc_text_field": "text",
        "grades": {"meaning": {}},  # ir_datasets defines no grades for BEIR SciFact
        "query_field": "text",
    }
    # the download stayed as it was; ir_datasets derived its docstore and extracts from it
    files = files_under(home)
    assert "beir/scifact/source.zip" in files
    assert {"beir/scifact/queries.json", "beir/scifact/test.qrels"} <= files
    assert any(f.startswith("beir/scifact/docs.pklz4/") for f in files)


# --- a TREC DL 2019-shaped collection through ir_datasets' msmarco-passage module ------

DL_QUERIES = [  # (qid, cranfield query id): texts taken from the shared Cranfield queries
    ("19335", "1"),
    ("47923", "2"),
    ("87181", "3"),
    ("104861", "4"),
    ("1037798", "5"),  # not judged: msmarco-passage/trec-dl-2019/judged leaves it out
]
DL_QRELS = [  # graded 0-3 as TREC DL; 104861 is judged with nothing relevant
    ("19335", "12", 3),
    ("19335", "13", 1),
    ("19335", "7", 0),
    ("47923", "29", 2),
    ("47923", "12", 1),
    ("47923", "3", 0),
    ("87181", "5", 3),
    ("87181", "30", 2),
    ("104861", "1", 0),
    ("104861", "2", 0),
]
N_PASSAGES = 40


def build_trec_dl_2019(home: Path) -> dict[str, str]:
    """msmarco-passage keeps the passages extracted from collectionandqueries.tar.gz at
    {home}/msmarco-passage/collection.tsv (pid \\t text) and reads it line by line, with no
    docstore, when its version file says v2 (otherwise it deletes collection.tsv and
    extracts it again: a download). TREC DL 2019: the topics gunzipped at
    trec-dl-2019/queries.tsv (qid \\t text), the judgments at trec-dl-2019/qrels (TREC
    format: qid Q0 pid grade). Passages and topic texts come from the shared Cranfield."""
    cranfield = shared_path("data", "cranfield")
    passages = read_jsonl(cranfield / "corpus.jsonl")[:N_PASSAGES]
    topics = {r["_id"]: r["text"] for r in read_jsonl(cranfield / "queries.jsonl")}
    base = home / "msmarco-passage"
    (base / "trec-dl-2019").mkdir(parents=True)
    (base / "irds_version.txt").write_text("v2", encoding="utf-8")
    with open(base / "collection.tsv", "w", encoding="utf-8", newline="\n") as handle:
        for record in passages:
            handle.write(f"{record['_id']}\t{' '.join(record['text'].split())}\n")
    with open(base / "trec-dl-2019" / "queries.tsv", "w", encoding="utf-8", newline="\n") as f:
        for qid, cran in DL_QUERIES:
            f.write(f"{qid}\t{' '.join(topics[cran].split())}\n")
    with open(base / "trec-dl-2019" / "qrels", "w", encoding="utf-8", newline="\n") as handle:
        for qid, pid, grade in DL_QRELS:
            handle.write(f"{qid} Q0 {pid} {grade}\n")
    return {r["_id"]: " ".join(r["text"].split()) for r in passages}


def test_trec_dl_2019_matches_ir_datasets_and_prepares(tmp_path):
    home = tmp_path / "irds"
    passages = build_trec_dl_2019(home)
    layout = files_under(home)
    result = run_offline(
        home,
        f"""
        import logging
        import pathlib
        import ir_datasets
        from sparsebench.data import irdatasets
        from sparsebench.core.errors import DataError
        from sparsebench.data.prepare import prepare_dataset, write_corpus_files

        warnings = []
        handler = logging.Handler()
        handler.emit = lambda record: warnings.append(record.getMessage())
        logging.getLogger("sparsebench").addHandler(handler)

        ID = "msmarco-passage/trec-dl-2019/judged"
        source = irdatasets.IrDatasetsSource(ID, "judged")
        source.check()
        batches = list(source.corpus_batches())
        docs = [r for b in batches for r in zip(*(c.to_pylist() for c in b.columns))]
        queries, qrels = source.queries_and_qrels()
        dataset = ir_datasets.load(ID)
        ref_docs = [[d.doc_id, None, d.text] for d in dataset.docs_iter()]
        ref_queries = [[q.query_id, q.text] for q in dataset.queries_iter()]
        ref_qrels = [[r.query_id, r.doc_id, r.relevance] for r in dataset.qrels_iter()]
        prepared = pathlib.Path({str(tmp_path / "prepared")!r})
        summary = write_corpus_files(source, prepared, "corpus", {{}})
        corpus = prepared / "corpus.parquet"
        summary.update(prepare_dataset(source, prepared, "dl19", {{}}, corpus, "corpus"))

        # a judgment repeated as it is collapses; the same pair graded twice is an error
        path = {str(home / "msmarco-passage" / "trec-dl-2019" / "qrels")!r}
        with open(path, "a") as handle:
            handle.write("19335 Q0 12 3\\n")
        repeated = source.queries_and_qrels()[1].values.tolist()
        ref_repeated = [[r.query_id, r.doc_id, r.relevance] for r in dataset.qrels_iter()]
        with open(path, "a") as handle:
            handle.write("19335 Q0 13 2\\n")
        try:
            source.queries_and_qrels()
            conflict = None
        except DataError as error:
            conflict = str(error)
        emit(
            docs=docs,
            queries=[list(r.values()) for r in queries.to_pylist()],
            qrels=qrels.values.tolist(),
            ref_docs=ref_docs,
            ref_queries=ref_queries,
            ref_qrels=ref_qrels,
            summary=summary,
            warnings=warnings,
            repeated=repeated,
            ref_repeated=ref_repeated,
            conflict=conflict,
        )
        """,
        tmp_path,
    )
    assert [list(d) for d in result["docs"]] == result["ref_docs"]
    assert result["queries"] == result["ref_queries"]
    assert result["qrels"] == result["ref_qrels"]
    # ... which are the files built above: ids as strings, grades as given
    assert [d[0] for d in result["docs"]] == list(passages)
    assert [d[2] for d in result["docs"]] == list(passages.values())
    assert [q for q, _ in result["queries"]] == [q for q, _ in DL_QUERIES[:4]]
    assert result["qrels"] == [list(r) for r in DL_QRELS]

    summary = result["summary"]
    assert summary["n_docs"] == N_PASSAGES
    assert summary["n_queries"] == 4
    assert summary["n_judged_queries_without_relevant"] == 1
    assert summary["grades"] == {"0": 4, "1": 2, "2": 2, "3": 2}
    assert summary["source"]["kind"] == "ir_datasets"
    assert summary["source"]["path"] == "msmarco-passage/trec-dl-2019/judged"
    assert summary["source"]["docs_count"] == 8841823  # what ir_datasets publishes
    assert any("publishes 8841823" in w for w in result["warnings"]), result["warnings"]

    assert result["ref_repeated"] == result["ref_qrels"] + [["19335", "12", 3]]
    assert result["repeated"] == result["qrels"]
    assert "(19335, 13)" in result["conflict"] and "1, 2" in result["conflict"]
    # read in place: nothing was downloaded, extracted or indexed
    assert files_under(home) == layout


# --- errors, checked against the registry alone ---------------------------------------


def test_errors_name_the_problem_without_downloading(tmp_path):
    home = tmp_path / "irds"
    result = run_offline(
        home,
        """
        import time
        from sparsebench.core.errors import DataError
        from sparsebench.data.irdatasets import IrDatasetsSource, check_id

        def error(call):
            try:
                call()
            except DataError as exc:
                return str(exc)
            return None

        start = time.perf_counter()
        good = [error(lambda i=i: check_id(i)) for i in (
            "msmarco-passage/dev/small", "msmarco-passage/trec-dl-2019/judged",
            "beir/scifact/test", "miracl/sw/dev", "cranfield", "vaswani", "antique/test")]
        emit(
            good=good,
            seconds=time.perf_counter() - start,
            typo=error(lambda: check_id("msmarco-pasage/dev/small")),
            nothing_close=error(lambda: check_id("no-such-collection-xyz")),
            no_qrels=error(lambda: check_id("msmarco-passage")),
            beir_no_qrels=error(lambda: IrDatasetsSource("beir/scifact", "scifact").check()),
            field=error(lambda: IrDatasetsSource("antique/test", "test", "description").check()),
            title_field=error(lambda: IrDatasetsSource("trec-robust04", "x", "title").check()),
        )
        """,
        tmp_path,
    )
    assert result["good"] == [None] * 7
    assert result["seconds"] < 5
    assert "'msmarco-pasage/dev/small'" in result["typo"]
    assert "closest: msmarco-passage/dev/small" in result["typo"]
    assert "ir_datasets list" in result["typo"]
    assert "no id is close" in result["nothing_close"]
    assert "'msmarco-passage' provides no queries and no judgments" in result["no_qrels"]
    assert "msmarco-passage/dev/small" in result["no_qrels"]
    assert "no judgments" in result["beir_no_qrels"]
    assert "beir/scifact/test, beir/scifact/train" in result["beir_no_qrels"]
    assert "'description'" in result["field"] and "fields: text" in result["field"]
    assert result["title_field"] is None  # TREC topics have a title field
    assert files_under(home) == set()  # nothing downloaded, not even a catalogue


# --- field rules and judgments, on ir_datasets-shaped tuples (no import of it) ----------


class TextDoc(NamedTuple):  # msmarco-passage, antique, vaswani
    doc_id: str
    text: str


class TitledDoc(NamedTuple):  # beir, cranfield (and more fields), miracl
    doc_id: str
    title: str
    text: str
    author: str


class ParsedDoc(NamedTuple):  # TREC disks 4-5 parsed, msmarco-document
    doc_id: str
    title: str
    body: str
    marked_up_doc: str


class WebDoc(NamedTuple):  # ClueWeb, GOV2: the body is raw HTML bytes
    doc_id: str
    url: str
    body: bytes

    def default_text(self):
        return "parsed html"


class AbstractDoc(NamedTuple):  # nfcorpus, medline, cord19: default_text holds the title
    doc_id: str
    title: str
    abstract: str

    def default_text(self):
        return f"{self.title} {self.abstract}"


class TrecTopic(NamedTuple):
    query_id: str
    title: str
    description: str
    narrative: str


class CodecQuery(NamedTuple):
    query_id: str
    query: str
    domain: str

    def default_text(self):
        return self.query


def test_document_fields():
    assert doc_fields(TextDoc) == (None, "text")
    assert doc_fields(TitledDoc) == ("title", "text")
    assert doc_fields(ParsedDoc) == ("title", "body")
    assert doc_fields(WebDoc) == (None, DEFAULT_TEXT)
    assert doc_fields(AbstractDoc) == (None, DEFAULT_TEXT)  # no title twice
    with pytest.raises(DataError, match=r"no text or body.*fields: doc_id, code"):
        doc_fields(namedtuple("CodeDoc", "doc_id code"))


def test_query_fields():
    assert query_field(namedtuple("GenericQuery", "query_id text")) == "text"
    assert query_field(TrecTopic) == "title"
    assert query_field(TrecTopic, "description") == "description"
    assert query_field(CodecQuery) == DEFAULT_TEXT
    with pytest.raises(DataError, match=r"'desc'.*title, description, narrative"):
        query_field(TrecTopic, "desc")
    with pytest.raises(DataError, match="query_field"):
        query_field(namedtuple("Utterance", "query_id raw_utterance"))


def test_judgments_are_kept_as_given():
    frame = qrels_frame([("1", "7", -1), ("1", "8", 0), ("2", "7", 3), ("1", "7", -1)], "q")
    assert frame.values.tolist() == [["1", "7", -1], ["1", "8", 0], ["2", "7", 3]]
    assert str(frame["grade"].dtype) == "int64"
    with pytest.raises(DataError, match=r"\(1, 7\).*different grades \(-1, 2\)"):
        qrels_frame([("1", "7", -1), ("1", "7", 2)], "q")
    with pytest.raises(DataError, match="no judgments"):
        qrels_frame([], "q")


# --- Cranfield: codes, not gains ------------------------------------------------------


def build_cranfield(home: Path) -> None:
    """ir_datasets reads cran.all.1400, cran.qry and cranqrel from {home}/cranfield/
    cran.tar.gz; they are written here back from the shared BEIR-format Cranfield, whose
    scores are gains: code = 5 - score, and score 0 is the raw -1 (the source document)."""
    import io
    import tarfile

    source = shared_path("data", "cranfield")
    docs = "".join(
        f".I {d['_id']}\n.T\n{d['title']}\n.A\n\n.B\n\n.W\n{d['text']}\n"
        for d in read_jsonl(source / "corpus.jsonl")
    )
    queries = "".join(
        f".I {q['_id']}\n.W\n{q['text']}\n" for q in read_jsonl(source / "queries.jsonl")
    )
    qrels = "".join(
        f"{q} {d} {5 - g if g else -1}\n"
        for q, d, g in read_beir_qrels(source / "qrels" / "test.tsv")
    )
    folder = home / "cranfield"
    folder.mkdir(parents=True)
    with tarfile.open(folder / "cran.tar.gz", "w:gz") as archive:
        for name, text in (("cran.all.1400", docs), ("cran.qry", queries), ("cranqrel", qrels)):
            data = text.encode("utf-8")
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def test_cranfield_codes_are_regraded_to_gains_and_say_so(tmp_path):
    """ir_datasets passes Cleverdon's codes through (1 = complete answer); the source reads
    them as the gains the BEIR-format Cranfield holds, warns, and records it."""
    home = tmp_path / "irds"
    build_cranfield(home)
    result = run_offline(
        home,
        """
        import ir_datasets, logging
        from sparsebench.data import irdatasets

        records = []
        handler = logging.Handler()
        handler.emit = lambda record: records.append(record.getMessage())
        logging.getLogger("sparsebench").addHandler(handler)
        source = irdatasets.IrDatasetsSource("cranfield", "test")
        queries, qrels = source.queries_and_qrels()
        raw = ir_datasets.load("cranfield").qrels_iter()
        emit(
            qrels=qrels.values.tolist(),
            raw=[[r.query_id, r.doc_id, r.relevance] for r in raw],
            grades=source.fingerprint()["grades"],
            log=records,
        )
        """,
        tmp_path,
    )
    assert sorted({g for _, _, g in result["raw"]}) == [-1, 1, 2, 3, 4]  # codes, as given
    judged = read_beir_qrels(shared_path("data", "cranfield", "qrels", "test.tsv"))
    assert sorted(result["qrels"]) == sorted(judged)  # 1837 judgments, grades as gains
    assert result["grades"]["regraded"] == {"1": 4, "2": 3, "3": 2, "4": 1, "5": 0, "-1": 0}
    assert any("Cleverdon's codes" in line for line in result["log"])


# --- through the DAG ---------------------------------------------------------------------


@pytest.mark.slow
def test_trec_dl_runs_through_the_dag_with_its_reference_rows(tmp_path):
    """source: ir_datasets end to end: prepare reads ir_datasets' cache (any connection
    goes to a closed port), MAP and recall count grades >= 2 (relevance_level: 2, as the
    published TREC DL tables), nDCG@10 the graded gains, and the reproduction check
    holds the run against the published TREC DL 2019 rows metric by metric."""
    import pandas as pd
    import pytrec_eval
    import yaml
    from support.snakemake_runs import snakemake

    home = tmp_path / "irds"
    build_trec_dl_2019(home)
    dl19 = "msmarco-passage/trec-dl-2019/judged"
    config = {
        "datasets": {"dl19": {"source": "ir_datasets", "id": dl19, "relevance_level": 2}},
        "models": {"bm25": {"kind": "bm25", "k1": 0.9, "b": 0.4}},
        "reproduction": {"expected": ["msmarco"], "models": {"bm25": "bm25"}},
    }
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    closed = "http://127.0.0.1:9"
    env = {**os.environ, "IR_DATASETS_HOME": str(home), "HTTP_PROXY": closed}
    env.update(HTTPS_PROXY=closed, http_proxy=closed, https_proxy=closed, NO_PROXY="")
    workdir = tmp_path / "work"
    snakemake(workdir, configfile=configfile, env=env)
    results = workdir / "results"

    qrels = pd.read_csv(results / "data" / "dl19" / "qrels.tsv", sep="\t", dtype=str)
    assert sorted(map(tuple, qrels.to_numpy())) == sorted((q, d, str(g)) for q, d, g in DL_QRELS)
    run = pd.read_csv(
        results / "runs" / "bm25" / "dl19.trec", sep=" ", header=None, dtype={0: str, 2: str}
    )
    as_dict = {}
    for qid, doc, score in zip(run[0], run[2], run[4], strict=True):
        as_dict.setdefault(qid, {})[doc] = float(score)
    judged = {}
    for qid, doc, grade in DL_QRELS:
        judged.setdefault(qid, {})[doc] = grade
    measures = {"map", "recall.1000", "ndcg_cut.10"}
    reference = pytrec_eval.RelevanceEvaluator(judged, measures, relevance_level=2)
    per_query = reference.evaluate(as_dict)
    ours = json.loads((results / "eval" / "bm25" / "dl19" / "metrics.json").read_text())
    for name, key in (("MAP", "map"), ("Recall@1000", "recall_1000"), ("nDCG@10", "ndcg_cut_10")):
        expected = sum(per_query.get(q, {}).get(key, 0.0) for q in judged) / len(judged)
        assert ours[name] == pytest.approx(expected, abs=1e-12), name
    checked = pd.read_csv(results / "reproduction.tsv", sep="\t")
    assert set(checked["metric"]) == {"nDCG@10", "Recall@1000", "MAP"}
    assert set(checked["expected_dataset"]) == {dl19}
    published = checked.set_index("metric")["expected"]
    assert published["nDCG@10"] == 0.5058 and published["MAP"] == 0.3013
    assert "dl19 | MAP" in (results / "leaderboard.md").read_text()
