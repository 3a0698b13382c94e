"""MIRACL- and mMARCO-shaped datasets, built here with the `datasets` library in the hub
repositories' layouts, through the loaders and the whole DAG; subsampling; languages."""

from __future__ import annotations

import gzip
import json

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from support.snakemake_runs import snakemake

datasets = pytest.importorskip("datasets")

from conftest import corpus_folder, prepare_entry  # noqa: E402
from support.samefiles import assert_same_files  # noqa: E402

from sparsebench.analysis.analyzer import Analyzer  # noqa: E402
from sparsebench.analysis.settings import resolve_analyzer  # noqa: E402
from sparsebench.core.errors import ConfigError  # noqa: E402
from sparsebench.data.corpusfile import read_corpus  # noqa: E402
from sparsebench.kinds.registry import kind_of  # noqa: E402
from sparsebench.workflow.config import validate_config  # noqa: E402

SW_DOCS = [
    ("100#0", "Mwezi", "Mwezi huzunguka dunia na husababisha maji kupwa na kujaa baharini."),
    ("100#1", "Mwezi", "Mvuto wa mwezi ni mdogo kuliko wa dunia."),
    ("200#0", "Jua", "Jua ni nyota inayotoa mwanga na joto kwa dunia."),
    ("300#0", "Mkate", "Mkate huokwa kwa unga, maji na hamira."),
    ("400#0", "Simba", "Simba ni mnyama mkubwa wa porini anayeishi Afrika."),
    ("500#0", "Bahari", "Bahari ya Hindi iko mashariki mwa Afrika."),
]
SW_TOPICS = [
    ("1", "Nini husababisha maji kupwa na kujaa?"),
    ("2", "Mkate huokwa vipi?"),
    ("3", "Simba anaishi wapi?"),
]
SW_QRELS = [
    ("1", "100#0", 1),
    ("1", "500#0", 0),
    ("2", "300#0", 1),
    ("2", "200#0", 0),
    ("3", "400#0", 1),
]


def build_miracl(root, language="sw", split="dev"):
    """The miracl/miracl-corpus and miracl/miracl repository layouts."""
    corpus = root / "miracl-corpus"
    folder = corpus / f"miracl-corpus-v1.0-{language}"
    folder.mkdir(parents=True)
    records = datasets.Dataset.from_dict(
        {
            "docid": [d for d, _, _ in SW_DOCS],
            "title": [t for _, t, _ in SW_DOCS],
            "text": [x for _, _, x in SW_DOCS],
        }
    )
    records.to_json(folder / "docs-0.jsonl.gz", lines=True, compression="gzip")
    topics = root / "miracl"
    prefix = f"miracl-v1.0-{language}"
    (topics / prefix / "topics").mkdir(parents=True)
    (topics / prefix / "qrels").mkdir(parents=True)
    (topics / prefix / "topics" / f"topics.{prefix}-{split}.tsv").write_text(
        "".join(f"{q}\t{t}\n" for q, t in SW_TOPICS)
    )
    (topics / prefix / "qrels" / f"qrels.{prefix}-{split}.tsv").write_text(
        "".join(f"{q}\tQ0\t{d}\t{g}\n" for q, d, g in SW_QRELS)
    )
    # the hub dataset's example layout (positive and negative passages), for topics_files
    passages = root / "miracl-passages" / language
    passages.mkdir(parents=True)
    by_id = {d: {"docid": d, "title": t, "text": x} for d, t, x in SW_DOCS}
    examples = [
        {
            "query_id": q,
            "query": t,
            "positive_passages": [by_id[d] for qq, d, g in SW_QRELS if qq == q and g > 0],
            "negative_passages": [by_id[d] for qq, d, g in SW_QRELS if qq == q and g == 0],
        }
        for q, t in SW_TOPICS
    ]
    datasets.Dataset.from_list(examples).to_parquet(passages / f"{split}-00000.parquet")
    return corpus, topics, root / "miracl-passages"


def build_mmarco(root):
    """The unicamp-dl/mmarco repository layout: Portuguese passages, English queries."""
    collections = root / "data" / "google" / "collections"
    collections.mkdir(parents=True)
    passages = datasets.Dataset.from_dict(
        {
            "id": ["0", "1", "2", "3"],
            "text": [
                "O sol é uma estrela que ilumina a Terra.",
                "A lua controla as marés do oceano.",
                "O pão é feito com farinha e fermento.",
                "Leões vivem na savana africana.",
            ],
        }
    )
    passages.to_csv(collections / "portuguese_collection.tsv", sep="\t", header=False, index=False)
    for language, texts in (
        ("english", ["what controls the ocean tides", "how is bread made"]),
        ("portuguese", ["o que controla as marés", "como se faz pão"]),
    ):
        queries = root / "data" / "google" / "queries" / "dev"
        queries.mkdir(parents=True, exist_ok=True)
        (queries / f"{language}_queries.dev.small.tsv").write_text(
            "".join(f"{q}\t{t}\n" for q, t in zip(["10", "11"], texts, strict=True))
        )
    qrels = root / "data" / "qrels.dev.small.tsv"  # MS MARCO's, in the repository
    qrels.write_text("10\t0\t1\t1\n11\t0\t2\t1\n")
    return root, qrels


def test_miracl_loader_keeps_negatives_as_grade_zero(tmp_path):
    corpus, topics, _ = build_miracl(tmp_path)
    summary = prepare_entry(
        {
            "source": "miracl",
            "language": "sw",
            "split": "dev",
            "corpus": str(corpus),
            "topics": str(topics),
        },
        tmp_path / "out",
        "miracl-sw",
    )
    assert summary["n_docs"] == 6 and summary["n_queries"] == 3
    assert summary["grades"] == {"0": 2, "1": 3}
    qrels = pd.read_csv(tmp_path / "out" / "qrels.tsv", sep="\t", dtype=str)
    assert ("1", "500#0", "0") in set(map(tuple, qrels.to_numpy()))


def test_miracl_passages_layout_gives_the_same_qrels(tmp_path):
    corpus, topics, passages = build_miracl(tmp_path)
    raw = prepare_entry(
        {
            "source": "miracl",
            "language": "sw",
            "split": "dev",
            "corpus": str(corpus),
            "topics": str(topics),
        },
        tmp_path / "a",
        "a",
    )
    layout = prepare_entry(
        {
            "source": "miracl",
            "language": "sw",
            "split": "dev",
            "corpus": str(corpus),
            "topics": str(passages),
            "topics_files": "sw/dev-*.parquet",
        },
        tmp_path / "b",
        "b",
    )
    assert raw["grades"] == layout["grades"] and raw["n_qrels"] == layout["n_qrels"]
    assert_same_files(tmp_path / "a" / "qrels.tsv", tmp_path / "b" / "qrels.tsv")


def test_mmarco_cross_lingual(tmp_path):
    root, qrels = build_mmarco(tmp_path)
    prepare_entry(
        {
            "source": "mmarco",
            "language": "pt",
            "query_language": "en",
            "split": "dev",
            "corpus": str(root),
            "queries": str(root),
        },
        tmp_path / "out",
        "mm",
    )
    queries = pq.read_table(tmp_path / "out" / "queries.parquet").to_pydict()
    assert queries["text"][0] == "what controls the ocean tides"
    # the judgments default to the repository's data/qrels.dev.small.tsv
    assert_same_files(tmp_path / "out" / "qrels.tsv", _prepared_qrels(tmp_path, root, qrels))
    with pytest.raises(ConfigError, match="mMARCO has no language 'xx'"):
        prepare_entry(
            {
                "source": "mmarco",
                "language": "xx",
                "split": "dev",
                "corpus": str(root),
                "qrels": str(qrels),
            },
            tmp_path / "bad",
            "mm",
        )


def _prepared_qrels(tmp_path, root, qrels):
    entry = {"source": "mmarco", "language": "pt", "split": "dev", "qrels": str(qrels)}
    prepare_entry({**entry, "corpus": str(root), "queries": str(root)}, tmp_path / "g", "given")
    return tmp_path / "g" / "qrels.tsv"


def test_language_aware_analyzers():
    assert resolve_analyzer({}, "sw") == {"lucene": "sw"}  # Anserini's WhitespaceAnalyzer
    assert resolve_analyzer({"stemmer": "french"}, "fr")["stopwords"] == "none"
    assert resolve_analyzer({"tokenizer": "auto", "stemmer": "none"}, "ja")["tokenizer"] == "cjk"
    assert resolve_analyzer({"stemmer": "none"}, "fr")["stemmer"] == "none"  # the model decides
    model = validate_config(
        {
            "datasets": {"d": {"source": "builtin", "name": "minibeir"}},
            "models": {"m": {"kind": "bm25"}},
        }
    )["models"]["m"]
    kind = kind_of(model)
    assert kind.encoding(model, "documents", "zh") != kind.encoding(model, "documents", "en")
    chinese = Analyzer(**resolve_analyzer({"tokenizer": "cjk"}, "zh"))
    assert chinese.analyze("我爱北京") == ["我爱", "爱北", "北京"]
    french = Analyzer(**resolve_analyzer({"stemmer": "french"}, "fr"))
    assert french.analyze("Les chevaux mangeaient") == ["le", "cheval", "mang"]


@pytest.mark.slow
def test_hub_shaped_datasets_flow_through_the_dag_with_a_subsample(tmp_path):
    corpus, topics, _ = build_miracl(tmp_path / "m")
    root, qrels = build_mmarco(tmp_path / "mm")
    config = {
        "datasets": {
            "miracl-sw": {
                "source": "miracl",
                "language": "sw",
                "corpus": str(corpus),
                "topics": str(topics),
            },
            "mmarco-pt-en": {
                "source": "mmarco",
                "language": "pt",
                "query_language": "en",
                "corpus": str(root),
                "queries": str(root),
                "qrels": str(qrels),
            },
            "miracl-small": {
                "source": "miracl",
                "language": "sw",
                "corpus": str(corpus),
                "topics": str(topics),
                "subsample": {"documents": 4, "seed": 1},
            },
        },
        "models": {"bm25": {"kind": "bm25"}, "bm25-classic": {"kind": "bm25", "idf": "classic"}},
        "significance": {"resamples": 200},
    }
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    workdir = tmp_path / "work"
    snakemake(workdir, "results/leaderboard.tsv", configfile=configfile)  # no report
    results = workdir / "results"
    board = pd.read_csv(results / "leaderboard.tsv", sep="\t", index_col="model")
    assert {"miracl-sw", "mmarco-pt-en", "miracl-small"} <= set(board.columns)
    prepared = corpus_folder(results, "miracl-small")
    sample = json.loads((prepared / "corpus.json").read_text())
    # 5 of the 6 documents are judged: all are kept even though 4 were asked for
    assert sample["subsample"] == {"documents": 5, "of": 6, "judged": 5, "seed": 1}
    kept = set(pq.read_table(prepared / "corpus.parquet")["doc_id"].to_pylist())
    assert {d for _, d, _ in SW_QRELS} <= kept
    assert "SUBSAMPLE: miracl-small" in (results / "leaderboard.md").read_text()
    log = (results / "logs" / "prepare_corpus" / f"{prepared.name}.log").read_text()
    assert "SUBSAMPLE" in log
    with gzip.open(next((corpus / "miracl-corpus-v1.0-sw").glob("*.gz")), "rt") as handle:
        assert json.loads(handle.readline())["docid"] == "100#0"


# Whole texts that pandas reads as missing by default (its NA strings) or as numbers.
NA_TEXTS = ["N/A", "NA", "null", "nan", "None", "NaN", "#N/A", "n/a", "NULL", "-nan", "007"]


def test_mmarco_passages_that_look_missing_or_numeric_are_read_verbatim(tmp_path):
    root, _ = build_mmarco(tmp_path)
    collection = root / "data" / "google" / "collections" / "portuguese_collection.tsv"
    with collection.open("a", encoding="utf-8") as handle:
        handle.writelines(f"{100 + i}\t{text}\n" for i, text in enumerate(NA_TEXTS))
    entry = {"source": "mmarco", "language": "pt", "corpus": str(root), "queries": str(root)}
    prepare_entry(entry, tmp_path / "out", "mm")
    corpus = read_corpus(tmp_path / "out" / "corpus.parquet", ["doc_id", "text"]).to_pydict()
    assert corpus["text"][4:] == NA_TEXTS
    assert corpus["doc_id"][4:] == [str(100 + i) for i in range(len(NA_TEXTS))]


def test_a_corpus_records_only_what_its_documents_are_read_from():
    """corpus.json held placeholders of the datasets' side (a split "test", qrels
    "unicamp-dl/mmarco:None"): a corpus is read whatever the split."""
    from sparsebench.data.miracl import MiraclSource
    from sparsebench.data.mmarco import MmarcoSource

    miracl = MiraclSource("sw", "dev").corpus_fingerprint()
    assert miracl == {
        "kind": "miracl",
        "path": "miracl/miracl-corpus",
        "files": "miracl-corpus-v1.0-sw/*.jsonl*",
        "language": "sw",
        "revision": "main",
        "commits": {},  # none read in this process
    }
    mmarco = MmarcoSource("fr", split="test").corpus_fingerprint()
    assert mmarco["path"] == "unicamp-dl/mmarco" and mmarco["language"] == "fr"
    assert mmarco["files"] == "data/google/collections/french_collection.tsv"
    assert not {"split", "qrels", "query_language"} & set(mmarco)
