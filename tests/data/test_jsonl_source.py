"""`source: jsonl`: a corpus of JSON lines with fields of its own names (Pyserini's
JsonCollection, Tevatron's and Mr. TyDi's corpora), written here from shared BEIR folders,
reads as the BEIR folder itself does: the same canonical files, runs and metrics; a bad
record is named by the file's own field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import prepare_entry, shared_path

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.data.corpusfile import read_corpus
from sparsebench.pair import run_pair
from sparsebench.workflow.config import config_from_files, validate_config
from sparsebench.workflow.plan import Plan

MODELS = {"bm25": {"kind": "bm25"}}


def _records(folder: Path, member: str) -> list[dict]:
    with open(folder / member, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _write_lines(path: Path, lines) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")
    return path


def pyserini_layout(beir: Path, root: Path) -> dict:
    """Pyserini's JsonCollection (id, contents: title and text) with its TSV topics and
    TREC qrels: the entry takes the default fields."""
    docs = _write_lines(
        root / "docs.jsonl",
        (
            json.dumps({"id": d["_id"], "contents": f"{d['title']} {d['text']}"}) + "\n"
            for d in _records(beir, "corpus.jsonl")
        ),
    )
    topics = _write_lines(
        root / "topics.tsv", (f"{q['_id']}\t{q['text']}\n" for q in _records(beir, "queries.jsonl"))
    )
    with open(beir / "qrels" / "test.tsv", encoding="utf-8") as handle:
        next(handle)  # BEIR's header
        judged = [line.split() for line in handle]
    qrels = _write_lines(root / "qrels.txt", (f"{q} 0 {d} {g}\n" for q, d, g in judged))
    return {"source": "jsonl", "corpus": str(docs), "queries": str(topics), "qrels": str(qrels)}


def tevatron_layout(beir: Path, root: Path) -> dict:
    """docid, title, text documents and query_id, query queries, as Tevatron's and Mr.
    TyDi's corpora name them; BEIR's qrels file as it is."""
    docs = _write_lines(
        root / "corpus.jsonl",
        (
            json.dumps({"docid": d["_id"], "title": d["title"], "text": d["text"], "url": "-"})
            + "\n"
            for d in _records(beir, "corpus.jsonl")
        ),
    )
    queries = _write_lines(
        root / "queries.jsonl",
        (
            json.dumps({"query_id": q["_id"], "query": q["text"]}) + "\n"
            for q in _records(beir, "queries.jsonl")
        ),
    )
    return {
        "source": "jsonl",
        "corpus": str(docs),
        "queries": str(queries),
        "qrels": str(beir / "qrels" / "test.tsv"),
        "fields": {"id": "docid", "title": "title", "text": "text"},
        "query_fields": {"id": "query_id", "text": "query"},
    }


@pytest.mark.parametrize(
    ("layout", "collection"),
    [(pyserini_layout, "cranfield"), (tevatron_layout, "adi")],
    ids=["pyserini-cranfield", "tevatron-adi"],
)
def test_a_jsonl_corpus_reads_as_its_beir_folder(tmp_path, layout, collection):
    """Cranfield: graded, two empty documents; ADI: titles. The canonical files, the run
    and every metric equal those of `source: local` on the shared folder, byte for byte."""
    beir = shared_path("data", collection)
    entry = layout(beir, tmp_path / "jsonl")
    local = run_pair({"source": "local", "path": str(beir)}, MODELS["bm25"], tmp_path / "local")
    jsonl = run_pair(entry, MODELS["bm25"], tmp_path / "out")
    assert json.loads(jsonl.metrics.read_text())["nDCG@10"] > 0.1
    assert jsonl.metrics.read_bytes() == local.metrics.read_bytes()
    assert jsonl.per_query.read_bytes() == local.per_query.read_bytes()
    assert jsonl.run.read_bytes() == local.run.read_bytes()
    assert (jsonl.dataset / "queries.parquet").read_bytes() == (
        local.dataset / "queries.parquet"
    ).read_bytes()
    # the fields as read differ (Pyserini's contents hold the title), the texts do not
    texts = [read_corpus(p.corpus / "corpus.parquet", ["doc_id", "text"]) for p in (jsonl, local)]
    assert texts[0].equals(texts[1])
    assert (jsonl.dataset / "qrels.tsv").read_bytes() == (local.dataset / "qrels.tsv").read_bytes()
    info = json.loads((jsonl.corpus / "corpus.json").read_text())
    assert info["identity"]["fields"] == entry.get("fields", {"id": "id", "text": "contents"})


def _validated(entry: dict) -> dict:
    return validate_config({"datasets": {"x": entry}, "models": MODELS})["datasets"]["x"]


def test_the_default_fields_are_pyserini_and_a_field_left_out_keeps_its_default():
    entry = {"source": "jsonl", "corpus": "/c.jsonl", "queries": "/q.tsv", "qrels": "/r.txt"}
    assert _validated(entry)["fields"] == {"id": "id", "text": "contents"}
    given = _validated({**entry, "fields": {"id": "docid", "title": "title"}})
    assert given["fields"] == {"id": "docid", "title": "title", "text": "contents"}
    assert "query_fields" not in given


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            {"fields": {"id": "docid", "body": "text"}},
            "config.datasets.x.fields: Additional properties are not allowed ('body' was",
        ),
        ({"query_fields": {"id": "qid"}}, "config.datasets.x.query_fields: 'text' is a required"),
        ({"fields": {"id": ""}}, "config.datasets.x.fields.id: '' should be non-empty"),
        ({"queries": None}, "config.datasets.x: 'queries' is a required property"),
        ({"path": "/c"}, "config.datasets.x: Additional properties are not allowed ('path' was"),
    ],
)
def test_a_bad_entry_names_its_key(change, said):
    entry = {"source": "jsonl", "corpus": "/c.jsonl", "queries": "/q.tsv", "qrels": "/r.txt"}
    entry = {k: v for k, v in {**entry, **change}.items() if v is not None}
    with pytest.raises(ConfigError) as raised:
        _validated(entry)
    assert said in str(raised.value)


def test_paths_are_relative_to_the_config_file_and_corpora_follow_the_fields(tmp_path):
    """Datasets over the same file and fields share one corpus; other fields choose other
    text, so another corpus."""
    config = {
        "datasets": {
            "dev": {"source": "jsonl", "corpus": "d.jsonl", "queries": "dev.tsv", "qrels": "r"},
            "test": {"source": "jsonl", "corpus": "d.jsonl", "queries": "test.tsv", "qrels": "r"},
            "titles": {
                "source": "jsonl",
                "corpus": "d.jsonl",
                "queries": "test.tsv",
                "qrels": "r",
                "fields": {"text": "title"},
            },
        },
        "models": MODELS,
    }
    file = tmp_path / "conf" / "experiment.yaml"
    file.parent.mkdir()
    file.write_text(yaml.safe_dump(config))
    resolved = config_from_files(config, [file])
    assert resolved["datasets"]["dev"]["corpus"] == str(tmp_path / "conf" / "d.jsonl")
    assert resolved["datasets"]["test"]["queries"] == str(tmp_path / "conf" / "test.tsv")
    plan = Plan(resolved)
    assert plan.corpus_of["dev"] == plan.corpus_of["test"] != plan.corpus_of["titles"]
    assert plan.corpus_of["dev"].startswith("d-")


@pytest.mark.parametrize(
    ("record", "said"),
    [
        ({"docid": "d2", "contents": "x"}, r"docs\.jsonl line 2: the record has no `id`"),
        ({"id": 7, "contents": "x"}, r"docs\.jsonl line 2: `id` 7 is a JSON number, not a string"),
        ({"id": "d2", "contents": ["x"]}, r"docs\.jsonl line 2: `contents` is a JSON array"),
        ({"id": "", "contents": "x"}, r"docs\.jsonl: 1 records have an empty `id`"),
    ],
)
def test_a_bad_record_is_named_by_the_files_own_field(tmp_path, record, said):
    root = tmp_path / "c"
    docs = _write_lines(
        root / "docs.jsonl",
        [json.dumps({"id": "d1", "contents": "the moon"}) + "\n", json.dumps(record) + "\n"],
    )
    topics = _write_lines(root / "topics.tsv", ["q1\tmoon\n"])
    qrels = _write_lines(root / "qrels.txt", ["q1 0 d1 1\n"])
    entry = {"source": "jsonl", "corpus": str(docs), "queries": str(topics), "qrels": str(qrels)}
    with pytest.raises(DataError, match=said):
        prepare_entry(entry, tmp_path / "out")
