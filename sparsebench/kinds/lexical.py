"""The lexical kinds: text analyzed into term counts, one shared document encoding, and
term weights from corpus statistics.

bm25    Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond"
        (FnTIR 2009), in Lucene's form (no (k1 + 1) factor unless asked); the IDF and
        statistics variants as compared by Kamphuis et al., "Which BM25 Do You Mean? A
        Large-Scale Reproducibility Study of Scoring Variants" (ECIR 2020)
binary  BM25 at k1 = 0: a matching term counts its IDF once
tfidf   raw term frequency times IDF, no saturation, no length normalisation
"""

from __future__ import annotations

from typing import Any, ClassVar

from sparsebench.analysis.settings import resolve_analyzer
from sparsebench.core.errors import ConfigError
from sparsebench.encode.fields import FIELDS
from sparsebench.feedback.methods import METHODS, feedback_settings
from sparsebench.kinds.base import Entry, ModelKind, idf_setting

# The settings every lexical kind takes, described once here.
ANALYZER = {
    "$ref": "#/$defs/analyzer",
    "default": {},
    "description": "How documents and queries alike become terms. By default the Lucene "
    "analyzer Anserini gives the dataset's language, token for token (`lucene: auto`; "
    "`lucene: <language>` picks another language's); `huggingface` makes a tokenizer's "
    "pieces the terms instead. Setting any of stopwords, stemmer, tokenizer, possessive or "
    "lowercase composes a chain instead, its 'auto' settings following the language: "
    "Lucene's English stopwords and Porter stemmer for English; for other languages no "
    "stopwords, the PyStemmer (Snowball) stemmer of the language where there is one, and "
    "character bigrams for Chinese, Japanese, Korean and Thai. Part of the encoding.",
}
STATISTICS = {
    "$ref": "#/$defs/statistics",
    "default": "exact",
    "description": "The collection statistics the weights are computed from. exact = N "
    "and avgdl over every document, exact lengths (bm25s, Robertson). lucene = as a Lucene "
    "index keeps them (Anserini, Pyserini): N and avgdl over documents with at least one "
    "term, and each document's length stored in one byte (SmallFloat.intToByte4), exact "
    "below 24, then 4 significant bits.",
}
FEEDBACK = {
    "type": "object",
    "required": ["method"],
    "properties": {
        "method": {
            "enum": list(METHODS),
            "description": "The feedback method (see feedback methods); the other keys "
            "default to its settings, and a key of the other method is refused.",
        },
        "docs": {
            "type": "integer",
            "minimum": 1,
            "description": "Top documents of the first retrieval the query is expanded from.",
        },
        "terms": {
            "type": "integer",
            "minimum": 1,
            "description": "Expansion terms kept: rm3 cuts each feedback document and the "
            "relevance model to their `terms` largest weights, rocchio the mean of the "
            "documents' vectors.",
        },
        "cutoff": {
            "type": "integer",
            "minimum": 1,
            "description": "Depth of the first retrieval (Anserini's -rerankCutoff): the "
            "feedback documents are its top, rocchio's negative ones its last.",
        },
        "original_query_weight": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "rm3: the weight w of the original query in w * q + (1 - w) * "
            "P(t | R); 1 keeps the query as it is.",
        },
        "filter_terms": {
            "type": "boolean",
            "description": "rm3: only terms of [a-z0-9]+ become expansion terms, as "
            "Anserini filters them; false lets any term in.",
        },
        "alpha": {"type": "number", "description": "rocchio: the weight of the original query."},
        "beta": {
            "type": "number",
            "description": "rocchio: the weight of the top documents' mean vector, added.",
        },
        "gamma": {
            "type": "number",
            "description": "rocchio: the weight of the bottom documents' mean vector, "
            "subtracted (with negative_docs > 0).",
        },
        "negative_docs": {
            "type": "integer",
            "minimum": 0,
            "description": "rocchio: the last documents of the first `cutoff` used as "
            "negative feedback; 0 = none.",
        },
        "negative_terms": {
            "type": "integer",
            "minimum": 1,
            "description": "rocchio: terms kept of the bottom documents' mean vector.",
        },
    },
    "additionalProperties": False,
    "description": "Pseudo-relevance feedback as Anserini's rerankers: rm3 (docs 10, "
    "terms 10, original_query_weight 0.5, filter_terms true) or rocchio (docs 10, terms "
    "10, alpha 1, beta 0.75; negative_docs > 0 adds the bottom documents of the first "
    "`cutoff` (50) with gamma 0.15 and negative_terms 10). The query is expanded from its "
    "first retrieval and searched again.",
}

# A multifield model's weight of each field (sparsebench.encode.fields.FIELDS).
FIELD_WEIGHTS = {
    "contents": "The weight of the document's text, scored with the text's own statistics "
    "and norms (left out: the text is not searched).",
    "title": "The weight of the title, scored with the titles' own statistics and norms "
    "(left out: the title is not searched).",
}


def lexical_schema(scheme: str, idf: str, **more: Any) -> dict[str, Any]:
    """The schema of a lexical kind weighing by `scheme`: its IDF (one the scheme takes,
    default `idf`), `more` settings, and the analyzer, collection statistics and feedback
    every lexical kind takes."""
    return {
        "properties": {
            **more,
            "idf": idf_setting(scheme, idf),
            "analyzer": ANALYZER,
            "statistics": STATISTICS,
            "feedback": FEEDBACK,
        }
    }


class Lexical(ModelKind):
    """Term counts of analyzed text; the kinds differ only in their term weights."""

    path_or_hub_keys = ("analyzer.huggingface",)

    def encoding(self, entry: Entry, side: str, language: str) -> dict[str, Any]:
        # queries are analyzed as the documents are
        analyzer = resolve_analyzer(dict(entry["analyzer"]), language)
        fields = entry.get("fields")
        if not fields:
            return {"kind": "bm25", "analyzer": analyzer}
        # documents: the fields' counts (shared whatever the boosts); queries: boosted
        encoding = {"kind": "fields", "analyzer": analyzer, "fields": sorted(fields)}
        if side == "queries":
            encoding["boosts"] = {f: float(fields[f]) for f in sorted(fields)}
        return encoding

    def problems(self, entry: Entry) -> list[str]:
        try:  # the settings' clashes (the dataset's language changes none of them)
            resolve_analyzer(dict(entry["analyzer"]))
            self.feedback(entry)
        except ConfigError as error:
            return [str(error)]
        if entry.get("feedback") and entry.get("fields"):
            return ["feedback expands a query of one field: a multifield model takes none"]
        return super().problems(entry)

    def feedback(self, entry: Entry) -> dict[str, Any] | None:
        return feedback_settings(entry["feedback"]) if entry.get("feedback") else None

    def model_sources(self, entry: Entry, side: str | None = None) -> list[str]:
        # a Hugging Face tokenizer as the analyzer (its files are the encodings' inputs)
        tokenizer = entry.get("analyzer", {}).get("huggingface")
        return [tokenizer] if tokenizer else []


class BM25(Lexical):
    name = "bm25"
    description = "Okapi BM25 over Lucene-analyzed text."
    schema: ClassVar[dict[str, Any]] = lexical_schema(
        "bm25",
        "lucene",
        k1={
            "type": "number",
            "minimum": 0,
            "default": 0.9,
            "description": "BM25's term-frequency saturation: 0 ignores tf (a match counts "
            "its IDF once); larger lets repeated terms count longer. 0.9 is Anserini's "
            "default.",
        },
        b={
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "default": 0.4,
            "description": "BM25's length normalisation, 0 to 1: 0 ignores the document's "
            "length; 1 normalises tf by dl / avgdl in full, so a match in a long document "
            "counts less. 0.4 is Anserini's default.",
        },
        k1_plus_one={
            "type": "boolean",
            "default": False,
            "description": "Multiply document weights by (k1 + 1) as in Robertson's "
            "formula. Lucene >= 8 and bm25s omit the constant factor; rankings are "
            "identical either way.",
        },
        fields={
            "type": "object",
            "minProperties": 1,
            "additionalProperties": False,
            "properties": {
                f: {"type": "number", "exclusiveMinimum": 0, "description": FIELD_WEIGHTS[f]}
                for f in FIELDS
            },
            "description": "Multifield BM25 as Anserini's -fields: each field (contents: "
            "the text, title) with its own statistics and norms, a query scored against "
            "each and summed, times the field's weight ({contents: 1.0, title: 1.0}). "
            "A document with a blank text is not indexed, as in Anserini.",
        },
    )

    def weighting(self, entry: Entry) -> dict[str, Any]:
        fields = {"fields": sorted(entry["fields"])} if entry.get("fields") else {}
        return {
            "kind": "bm25",
            "k1": float(entry["k1"]),
            "b": float(entry["b"]),
            "idf": entry["idf"],
            "k1_plus_one": bool(entry["k1_plus_one"]),
            "statistics": entry["statistics"],
            **fields,
        }


class Binary(Lexical):
    name = "binary"
    description = (
        "BM25 at k1 = 0, b = 0: a matching term counts its IDF once, whatever its frequency "
        "and the document's length (shares its shards with BM25 models)."
    )
    schema: ClassVar[dict[str, Any]] = lexical_schema("bm25", "lucene")

    def weighting(self, entry: Entry) -> dict[str, Any]:
        # tf / (tf + 0) = 1 for every matching term: BM25's recipe at k1 = b = 0
        return BM25_KIND.weighting({**entry, "k1": 0.0, "b": 0.0, "k1_plus_one": False})


class TfIdf(Lexical):
    name = "tfidf"
    description = (
        "Plain tf.idf: raw term frequency times IDF, no saturation and no length "
        "normalisation (shares its shards with BM25 models)."
    )
    schema: ClassVar[dict[str, Any]] = lexical_schema("tf", "classic")

    def weighting(self, entry: Entry) -> dict[str, Any]:
        return {"kind": "tf", "idf": entry["idf"], "statistics": entry["statistics"]}


BM25_KIND, BINARY_KIND, TFIDF_KIND = BM25(), Binary(), TfIdf()
