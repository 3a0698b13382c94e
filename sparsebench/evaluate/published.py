"""The built-in tables of published figures that `reproduction.expected` names (files
under resources/reference/), their columns and the statuses a comparison can get: what
the config's checks read, without the comparison's code (sparsebench.evaluate.reproduction).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from sparsebench.core.errors import ConfigError


@dataclass(frozen=True)
class Table:
    """A built-in table of published figures (sparsebench/resources/reference/{name}.tsv):
    what it covers and what each of its systems is, for a reader choosing a system to
    map a model to (docs/reference/reproduction.md); the file's comments say more."""

    about: str
    systems: dict[str, str]


_SPLADE = "over Anserini's impact index (integer weights), queries pre-encoded (`.cached`)"
_FEEDBACK = {
    "rm3": "RM3 feedback (10 documents, 10 terms, original query weight 0.5)",
    "rocchio": "Rocchio feedback (top 10 documents, 10 terms, alpha 1, beta 0.75)",
    "rocchio-neg": "Rocchio feedback with the bottom 10 of the top 1000 as negatives "
    "(10 terms, gamma 0.15)",
}
_BM25 = {"bm25": "k1 0.9, b 0.4", "bm25-tuned": "k1 0.82, b 0.68"}
TABLES = {
    "beir": Table(
        "The 13 public BEIR (v1.0.0) test sets and the 12 cqadupstack forums (one row per "
        "forum, no average): nDCG@10 and Recall@100. From Anserini 1.7.1's reproduction "
        "configs as shipped in Pyserini 1.6.0, cross-checked with Pyserini's two-click "
        "reproductions (2CR, beir.yaml).",
        {
            "bm25-flat": "Lucene BM25 (k1 0.9, b 0.4, DefaultEnglishAnalyzer), title and "
            "text in one field (`<dataset>.flat.yaml`)",
            "bm25-multifield": "as bm25-flat, title and text as two fields of weight 1 "
            "(`<dataset>.multifield.yaml`)",
            "splade-pp-ed": f"naver/splade-cocondenser-ensembledistil {_SPLADE}",
            "splade-v3": f"naver/splade-v3 {_SPLADE}",
            "beir-paper-bm25": "the Elasticsearch BM25 column of the BEIR paper (Thakur et "
            "al., 2021): nDCG@10 only, to 3 decimals",
        },
    ),
    "miracl": Table(
        "The 18 MIRACL (v1.0) languages' dev splits, as `miracl-<language>`: nDCG@10 and "
        "Recall@100. From Pyserini 1.6.0's 2CR (miracl.yaml), cross-checked with Anserini "
        "1.7.1's configs (16 of the languages).",
        {
            "bm25": "Lucene BM25 (k1 0.9, b 0.4) with the language's analyzer (Anserini's "
            "for `--language`; sw and yo: WhitespaceAnalyzer), 1000 hits",
        },
    ),
    "msmarco": Table(
        "MS MARCO passage (v1): dev small (MRR@10, Recall@1000) and the judged queries of "
        "TREC DL 2019 and 2020 (nDCG@10; MAP and Recall@1000 at relevance level 2). From "
        "Anserini 1.7.1's configs (the feedback systems' dev rows from their commented-out "
        "entries), cross-checked with Pyserini 1.6.0's 2CR.",
        {
            **{name: f"Lucene BM25 ({params})" for name, params in _BM25.items()},
            **{
                f"{name}-{method}": f"Lucene BM25 ({params}) with {feedback}"
                for name, params in _BM25.items()
                for method, feedback in _FEEDBACK.items()
            },
            **{
                f"{name}-d2q-t5": f"Lucene BM25 ({params}) over the passages expanded by "
                "doc2query-T5 (40 predicted queries appended to each)"
                for name, params in _BM25.items()
            },
            "splade-pp-ed": f"naver/splade-cocondenser-ensembledistil {_SPLADE}",
            "splade-pp-sd": f"naver/splade-cocondenser-selfdistil {_SPLADE}",
            "splade-v3": f"naver/splade-v3 {_SPLADE}",
        },
    ),
}
BUILTIN = tuple(TABLES)

NOT_COMPARABLE = "not comparable (subsampled)"  # the status of a subsampled dataset's figures
OTHER_ANALYZER = "not comparable (analyzer)"  # made with another analyzer than the published
OTHER_SCORING = "not comparable (float weights)"  # a float run against integer-impact figures
# `analyzer` (optional): the analyzer that made a published lexical figure; a run made
# with another one is OTHER_ANALYZER, never FAIL. `scoring` (optional): "integer impacts"
# for a learned sparse figure of Anserini's impact search; a run that scores other
# weights (floats) is OTHER_SCORING, never FAIL.
CONDITIONS = {"analyzer": OTHER_ANALYZER, "scoring": OTHER_SCORING}
COLUMNS = ["dataset", "system", "metric", "value", "source", *CONDITIONS]
RESULT_COLUMNS = [
    "model",
    "dataset",
    "metric",
    "expected_system",
    "expected_dataset",
    "expected",
    "measured",
    "difference",
    "status",
    "analyzer",
    "expected_analyzer",
    "scoring",
    "expected_scoring",
    "source",
]


def check_expected_tables(expected: str | Sequence[str]) -> None:
    """Refuse a table that is neither built in nor a file when the configuration is read,
    not at the leaderboard, after the whole experiment ran."""
    for name in [expected] if isinstance(expected, str) else expected:
        if name not in BUILTIN and not Path(name).is_file():
            raise ConfigError(
                f"config.reproduction.expected: no table of expected figures at {name!r} "
                f"(built-in: {', '.join(BUILTIN)}; or a TSV file's path)"
            )


def builtin_text(name: str) -> str:
    """A built-in table's file as written (values with their published decimals)."""
    path = resources.files("sparsebench").joinpath(f"resources/reference/{name}.tsv")
    return path.read_text(encoding="utf-8")
