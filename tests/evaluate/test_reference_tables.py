"""Structure of the built-in tables of published figures (sparsebench/resources/reference/)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sparsebench.analysis.languages import (
    ANSERINI_ANALYZERS,
    WHITESPACE_LANGUAGES,
    analyzer_name,
)
from sparsebench.data.sources.beir import CQADUPSTACK_FORUMS

REFERENCE = Path(__file__).resolve().parents[2] / "sparsebench" / "resources" / "reference"
TABLES = ("beir", "miracl", "msmarco")
HEADER = "dataset\tsystem\tmetric\tvalue\tsource\tanalyzer\tscoring"
LUCENE_ANALYZERS = {analyzer_name(x) for x in ("en", *WHITESPACE_LANGUAGES)} | {
    name.rsplit(".", 1)[1] for name in ANSERINI_ANALYZERS.values()
}
METRICS = {"nDCG@10", "Recall@100", "Recall@1000", "MRR@10", "MAP"}
BEIR_DATASETS = {
    "trec-covid",
    "nfcorpus",
    "nq",
    "hotpotqa",
    "fiqa",
    "arguana",
    "webis-touche2020",
    "quora",
    "dbpedia-entity",
    "scidocs",
    "fever",
    "climate-fever",
    "scifact",
}
CQADUPSTACK = {f"cqadupstack-{forum}" for forum in CQADUPSTACK_FORUMS}
BEIR_SYSTEMS = {"bm25-flat", "bm25-multifield", "splade-pp-ed", "splade-v3"}
MIRACL_LANGUAGES = ["ar", "bn", "en", "es", "fa", "fi", "fr", "hi", "id"] + [
    "ja",
    "ko",
    "ru",
    "sw",
    "te",
    "th",
    "zh",
    "de",
    "yo",
]
FEEDBACK_SYSTEMS = {
    f"{bm25}{feedback}"
    for bm25 in ("bm25", "bm25-tuned")
    for feedback in ("-rm3", "-rocchio", "-rocchio-neg")
}
MSMARCO_SYSTEMS = {"bm25", "bm25-tuned", "splade-pp-ed", "splade-pp-sd", "splade-v3"}
MSMARCO_SYSTEMS |= FEEDBACK_SYSTEMS | {"bm25-d2q-t5", "bm25-tuned-d2q-t5"}
MSMARCO_METRICS = {
    "msmarco-passage/dev/small": {"MRR@10", "Recall@1000"},
    "msmarco-passage/trec-dl-2019/judged": {"nDCG@10", "Recall@1000", "MAP"},
    "msmarco-passage/trec-dl-2020/judged": {"nDCG@10", "Recall@1000", "MAP"},
}


def read(name: str) -> pd.DataFrame:
    return pd.read_csv(
        REFERENCE / f"{name}.tsv",
        sep="\t",
        comment="#",
        dtype={"dataset": str, "system": str, "metric": str, "value": float, "source": str},
        keep_default_na=False,
    )


def cells(table: pd.DataFrame) -> dict[tuple[str, str], set[str]]:
    """(dataset, system) -> the metrics the table gives for it."""
    grouped = table.groupby(["dataset", "system"])["metric"]
    return {key: set(metrics) for key, metrics in grouped}


@pytest.mark.parametrize("name", TABLES)
def test_header_and_comments(name):
    raw = (REFERENCE / f"{name}.tsv").read_bytes()
    assert b"\r" not in raw
    text = raw.decode("utf-8")
    assert text.endswith("\n")
    lines = text.splitlines()
    comments = [line for line in lines if line.startswith("#")]
    assert comments, "the source and the metric definitions are described in # lines"
    assert all(not line.startswith("#") for line in lines[len(comments) :]), "comments on top"
    assert lines[len(comments)] == HEADER
    assert "trec_eval" in "\n".join(comments)
    # comment="#" would cut a data line at a '#', and every row has its six fields
    for line in lines[len(comments) + 1 :]:
        assert "#" not in line, line
        assert len(line.split("\t")) == 7, line


@pytest.mark.parametrize("name", TABLES)
def test_rows_are_well_formed(name):
    table = read(name)
    assert list(table.columns) == HEADER.split("\t")
    assert len(table) > 0
    assert not table.duplicated(["dataset", "system", "metric"]).any()
    assert set(table["metric"]) <= METRICS
    assert table["value"].notna().all()
    assert table["value"].between(0.0, 1.0).all()
    analyzers = set(table["analyzer"].fillna(""))
    assert analyzers <= {"", *(n for n in LUCENE_ANALYZERS)}, analyzers
    # Anserini's SPLADE figures come from its impact search (-impact), over integer impacts
    impacts = table["scoring"].fillna("") == "integer impacts"
    assert set(table["scoring"].fillna("")) <= {"", "integer impacts"}
    learned = table["system"].str.startswith("splade")
    assert (impacts == learned).all()
    for column in ("dataset", "system", "source"):
        assert (table[column].str.strip() != "").all(), column
        assert (table[column] == table[column].str.strip()).all(), column


def test_beir():
    table = read("beir")
    datasets = BEIR_DATASETS | CQADUPSTACK
    assert set(table["dataset"]) == datasets
    assert set(table["system"]) == BEIR_SYSTEMS | {"beir-paper-bm25"}
    have = cells(table)
    for system in BEIR_SYSTEMS:
        for dataset in datasets:
            assert have.get((dataset, system)) == {"nDCG@10", "Recall@100"}, (dataset, system)
    paper = table[table["system"] == "beir-paper-bm25"]
    assert set(paper["metric"]) == {"nDCG@10"}
    assert set(paper["dataset"]) <= BEIR_DATASETS
    # every dataset row a system has carries both metrics (the paper column: nDCG@10 only)
    for (_, system), metrics in have.items():
        if system != "beir-paper-bm25":
            assert metrics == {"nDCG@10", "Recall@100"}
    assert len(CQADUPSTACK) == 12
    assert set(table["dataset"]) >= CQADUPSTACK


def test_miracl():
    table = read("miracl")
    assert sorted(table["dataset"].unique()) == sorted(f"miracl-{x}" for x in MIRACL_LANGUAGES)
    assert len(MIRACL_LANGUAGES) == 18
    assert set(table["system"]) == {"bm25"}
    for key, metrics in cells(table).items():
        assert metrics == {"nDCG@10", "Recall@100"}, key


def test_msmarco():
    table = read("msmarco")
    assert set(table["dataset"]) == set(MSMARCO_METRICS)
    assert set(table["system"]) == MSMARCO_SYSTEMS
    have = cells(table)
    for dataset, metrics in MSMARCO_METRICS.items():
        for system in MSMARCO_SYSTEMS:
            assert have.get((dataset, system)) == metrics, (dataset, system)
    # TREC DL MAP and recall count grade >= 2 as relevant; the source says so
    graded = table[
        table["dataset"].str.contains("trec-dl") & table["metric"].isin(["MAP", "Recall@1000"])
    ]
    assert graded["source"].str.contains("-l 2", regex=False).all()
    # the feedback rows name the Anserini options that made them
    feedback = table[table["system"].isin(FEEDBACK_SYSTEMS)]
    assert feedback["source"].str.contains(r"-rm3|-rocchio", regex=True).all()
    expanded = table[table["system"].str.endswith("d2q-t5")]
    assert expanded["source"].str.contains("docTTTTTquery.yaml", regex=False).all()
    tuned = table[table["system"].str.startswith("bm25-tuned")]
    assert tuned["source"].str.contains("-bm25.k1 0.82 -bm25.b 0.68", regex=False).all()


def test_the_builtin_tables_load():
    from sparsebench.evaluate import reproduction

    expected = reproduction.load_expected(list(TABLES))
    assert len(expected) == sum(len(read(name)) for name in TABLES)
    assert set(reproduction.load_expected("beir")["metric"]) == {"nDCG@10", "Recall@100"}


def test_miracl_rows_name_the_analyzer_anserini_gives_their_language():
    table = read("miracl")
    for dataset, analyzer in zip(table["dataset"], table["analyzer"], strict=True):
        language = dataset.removeprefix("miracl-")
        if language in WHITESPACE_LANGUAGES or language == "en":
            assert analyzer == analyzer_name(language), dataset
        else:
            assert ANSERINI_ANALYZERS[language].endswith("." + analyzer), dataset
