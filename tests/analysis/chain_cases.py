"""Running a Chain over texts, and the texts with Lucene's terms stored under data/."""

from __future__ import annotations

import gzip
from pathlib import Path

import pyarrow as pa

from sparsebench.analysis.chains import Chain

DATA = Path(__file__).parent / "data"
_UNESCAPE = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}


def terms_per_text(chain: Chain, texts: list[str]) -> list[list[str]]:
    """The terms the chain gives each text, in order, as a Lucene field holds them."""
    text_index, tokens = chain.tokenize(pa.array(texts, type=pa.string()))
    distinct = tokens.dictionary_encode()
    terms = chain.filter(distinct.dictionary).take(distinct.indices).to_pylist()
    out: list[list[str]] = [[] for _ in texts]
    for i, term in zip(text_index.tolist(), terms, strict=True):
        if term:
            out[i].append(term)
    return out


def _unescape(field: str) -> str:
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\":
            out.append(_UNESCAPE[field[i + 1]])
            i += 2
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def lucene_cases(language: str) -> list[tuple[str, list[str]]]:
    """data/<language>.tsv.gz: (text, Lucene's terms); a line is the text and its terms,
    TAB-separated, backslash escapes for backslash, TAB, newline and carriage return."""
    with gzip.open(DATA / f"{language}.tsv.gz", "rt", encoding="utf-8") as handle:
        rows = [line.rstrip("\n").split("\t") for line in handle]
    return [(_unescape(row[0]), [_unescape(term) for term in row[1:]]) for row in rows]


def first_difference(
    chain: Chain, cases: list[tuple[str, list[str]]]
) -> tuple[str, list[str], list[str]] | None:
    """(text, expected, got) of the first text whose terms differ, or None."""
    got = terms_per_text(chain, [text for text, _ in cases])
    for (text, expected), terms in zip(cases, got, strict=True):
        if terms != expected:
            return text, expected, terms
    return None
