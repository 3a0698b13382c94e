"""A Hugging Face tokenizer as the BM25 analyzer (Anserini's
-analyzeWithHuggingFaceTokenizer): the terms are the tokenizer's pieces, checked against
the `tokenizers` library reading the same tokenizer.json; BM25 over them is BM25 over the
pieces written out and split at spaces, as Anserini indexes them."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import planned_encoding, shared_path, write_text
from tokenizers import Tokenizer

from sparsebench import api
from sparsebench.analysis.analyzer import Analyzer
from sparsebench.analysis.languages import analyzer_label
from sparsebench.analysis.settings import resolve_analyzer
from sparsebench.core.errors import ConfigError
from sparsebench.workflow.config import load_config_file

TEXTS = [
    "The unbelievable Running-dogs' résumé, 3.14 ﬁsh 東京 don't",
    "",
    "boundary layer " * 400,  # 800 pieces: cut at 512
    "U.S.A. e-mail: someone@example.org, naïve café — 1,000 m²",
]


@pytest.fixture(scope="module")
def tokenizer_folder():
    return shared_path("models", "splade-tiny")


@pytest.fixture(scope="module")
def reference(tokenizer_folder):
    """The pieces as the tokenizers library (Rust) gives them: Anserini's DJL wraps it."""
    tokenizer = Tokenizer.from_file(str(tokenizer_folder / "tokenizer.json"))
    tokenizer.no_truncation()  # the file's own cut (512) is not the one under test
    return tokenizer


@pytest.mark.parametrize("max_length", [512, 3, None])
def test_the_terms_are_the_tokenizers_pieces_cut_at_max_length(
    tokenizer_folder, reference, max_length
):
    analyzer = Analyzer.from_config(
        resolve_analyzer({"huggingface": str(tokenizer_folder), "max_length": max_length})
    )
    for text in TEXTS:
        pieces = reference.encode(text, add_special_tokens=False).tokens
        expected = pieces if max_length is None else pieces[:max_length]
        assert analyzer.analyze(text) == expected, text[:40]
    assert len(analyzer.analyze(TEXTS[2])) == (800 if max_length is None else max_length)


def test_the_default_cut_is_anserinis_512(tokenizer_folder):
    assert resolve_analyzer({"huggingface": str(tokenizer_folder)}) == {
        "huggingface": str(tokenizer_folder),
        "max_length": 512,
    }


def test_bm25_over_pieces_is_bm25_over_the_pieces_written_out(tokenizer_folder, reference):
    """Anserini joins the pieces by spaces and indexes them with a WhitespaceTokenizer:
    the same run as BM25 with Lucene's WhitespaceAnalyzer over that text."""
    collection = shared_path("data", "cranfield")
    corpus = {}
    for line in (collection / "corpus.jsonl").read_text().splitlines()[:400]:
        doc = json.loads(line)
        corpus[doc["_id"]] = f"{doc['title']} {doc['text']}".strip()
    qrels: dict[str, dict[str, int]] = {}
    for line in (collection / "qrels" / "test.tsv").read_text().splitlines()[1:]:
        query, doc, grade = line.split("\t")
        if doc in corpus:
            qrels.setdefault(query, {})[doc] = int(grade)
    queries = {}
    for line in (collection / "queries.jsonl").read_text().splitlines():
        query = json.loads(line)
        if query["_id"] in qrels:
            queries[query["_id"]] = query["text"]

    def written_out(text: str) -> str:
        return " ".join(reference.encode(text, add_special_tokens=False).tokens[:512])

    def evaluate(texts, query_texts, analyzer):
        return api.evaluate_sparse_model(
            {"kind": "bm25", "k1": 1.2, "b": 0.75, "analyzer": analyzer},
            {d: {"title": "", "text": t} for d, t in texts.items()},
            query_texts,
            qrels,
            k=100,
            per_query=True,
        )

    pieces = evaluate(corpus, queries, {"huggingface": str(tokenizer_folder)})
    whitespace = evaluate(
        {d: written_out(t) for d, t in corpus.items()},
        {q: written_out(t) for q, t in queries.items()},
        {"lucene": "ha"},  # Anserini's WhitespaceAnalyzer
    )
    assert pieces == whitespace
    assert len(pieces["per_query"]) > 20 and pieces["means"]["nDCG@10"] > 0.2


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"huggingface": "org/tok", "stemmer": "porter"}, "it takes no stemmer"),
        ({"huggingface": "org/tok", "lucene": "en"}, "it takes no lucene"),
        ({"max_length": 100}, "max_length applies to a huggingface tokenizer only"),
    ],
)
def test_a_tokenizer_with_other_analyzer_settings_is_refused(settings, message):
    with pytest.raises(ConfigError, match=message):
        resolve_analyzer(settings, "en")


def test_a_missing_tokenizer_folder_is_refused_when_the_config_is_read(tmp_path):
    configfile = write_text(
        tmp_path / "c.yaml",
        yaml.safe_dump(
            {
                "datasets": {"d": {"source": "builtin", "name": "minibeir"}},
                "models": {"b": {"kind": "bm25", "analyzer": {"huggingface": "./tok"}}},
            }
        ),
    )
    with pytest.raises(ConfigError, match=f"no model folder {tmp_path / 'tok'}"):
        load_config_file(configfile)


def test_the_tokenizer_folder_is_relative_to_the_config_and_an_input_of_the_encodings(
    tmp_path, tokenizer_folder
):
    folder = tmp_path / "exp" / "tok"
    for name in ("tokenizer.json", "tokenizer_config.json"):
        write_text(folder / name, (tokenizer_folder / name).read_text())
    models = "{b: {kind: bm25, analyzer: {huggingface: ./tok}}}"
    encoding = planned_encoding(tmp_path / "exp" / "c.yaml", models)
    assert encoding.settings["analyzer"] == {"huggingface": str(folder), "max_length": 512}
    assert set(encoding.model_files) == {
        str(folder / n) for n in ("tokenizer.json", "tokenizer_config.json")
    }
    assert analyzer_label(encoding.settings["analyzer"]) == f"Hugging Face tokenizer {folder}"
