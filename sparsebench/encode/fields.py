"""The `fields` encoding: term counts per document field, as Anserini indexes a
collection with `-fields title` (BeirMultifieldCollection: `contents` is the record's
text, `title` its title) and searches it with `-fields contents=1.0 title=1.0`.

A column is named `<field>:<term>`, so one matrix holds every field and one dot product
scores them all; the weighting keeps N, avgdl and the norms per field
(sparsebench.encode.statistics, column_fields below). The documents' matrix holds each
field's counts; a query's holds, for every field, its terms' counts times the field's
boost, as Anserini's BagOfWordsQueryGenerator nests a term's BoostQuery (its count) in
the field's (the weight): score = sum over fields f of boost_f * BM25_f(q, d).

A document whose text (`contents`) is blank by Java's String.trim (nothing above
U+0020) is not indexed by Anserini's DefaultLuceneDocumentGenerator, whatever its title:
its row is empty here, in every field, and it counts in no field's statistics.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.encode.sparse import LabelledCSR
from sparsebench.encode.term_counts import TermCountEncoder

log = logging.getLogger(__name__)

# Anserini's field -> the corpus column it is read from (sparsebench.data.prepare)
FIELDS = {"contents": "body", "title": "title"}
SEPARATOR = ":"
_JAVA_BLANK = "".join(chr(c) for c in range(0x21))  # what String.trim strips

if TYPE_CHECKING:  # the analyzers (compiled code) are imported by build(), when one is made
    from sparsebench.analysis.analyzer import Analyzer


def _check(fields: Sequence[str]) -> list[str]:
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown or not fields:
        raise ConfigError(
            f"fields must name some of {', '.join(FIELDS)}, not {', '.join(unknown) or 'none'}"
        )
    return sorted(fields)  # columns in field order keep every shard's terms sorted


def prefixed(field: str, terms: pa.Array) -> pa.Array:
    """The column names of a field's terms."""
    return pc.binary_join_element_wise(f"{field}{SEPARATOR}", terms, "")


def column_fields(terms: pa.Array, fields: Sequence[str]) -> np.ndarray:
    """The index in `fields` of each column's field (named by its prefix)."""
    prefix = pc.list_element(pc.split_pattern(terms, SEPARATOR, max_splits=1), 0)
    index = pc.index_in(prefix, value_set=pa.array(list(fields), pa.string()))
    if index.null_count:
        raise DataError(
            f"the vocabulary has columns of no field among {', '.join(fields)} "
            f"(e.g. {terms.filter(pc.is_null(index))[0]}): not a multifield encoding"
        )
    return index.to_numpy(zero_copy_only=False).astype(np.int64)


class FieldCountEncoder:
    """Documents: term counts per field, blank-text rows emptied."""

    def __init__(self, analyzer: Analyzer, fields: Sequence[str]) -> None:
        self.counts = TermCountEncoder(analyzer)
        self.fields = list(fields)

    def encode_table(self, table: pa.Table) -> LabelledCSR:
        """The corpus rows of `table` (sparsebench.data.prepare's columns)."""
        parts = [self.counts.encode(table.column(FIELDS[field])) for field in self.fields]
        matrix = sp.hstack([p.matrix for p in parts], format="csr", dtype=np.float32)
        body = pc.fill_null(table.column(FIELDS["contents"]), "")
        blank = pc.equal(pc.utf8_length(pc.utf8_trim(body, _JAVA_BLANK)), 0)
        blank = blank.to_numpy(zero_copy_only=False)
        if blank.any():
            log.info("%d documents with a blank text are not indexed (as Anserini)", blank.sum())
            matrix = sp.csr_matrix(sp.diags((~blank).astype(np.float32)) @ matrix)
            matrix.eliminate_zeros()
        terms = [prefixed(f, p.terms) for f, p in zip(self.fields, parts, strict=True)]
        return LabelledCSR(matrix, pa.concat_arrays(terms))

    def encode(self, texts: pa.Array | Sequence[str]) -> LabelledCSR:
        raise DataError("documents are encoded by fields (encode_table), not from one text")


class BoostedFieldQueryEncoder:
    """Queries: their terms' counts once per field, times the field's boost."""

    def __init__(self, analyzer: Analyzer, boosts: Mapping[str, float]) -> None:
        self.counts = TermCountEncoder(analyzer)
        self.boosts = dict(boosts)

    def encode(self, texts: pa.Array | Sequence[str]) -> LabelledCSR:
        counts = self.counts.encode(texts)
        blocks = [counts.matrix * np.float32(boost) for boost in self.boosts.values()]
        terms = [prefixed(field, counts.terms) for field in self.boosts]
        matrix = sp.hstack(blocks, format="csr", dtype=np.float32)
        return LabelledCSR(matrix, pa.concat_arrays(terms))


def build(
    encoding: Mapping[str, Any], runtime: Mapping[str, Any]
) -> FieldCountEncoder | BoostedFieldQueryEncoder:
    """The encoder of `kind: fields` encoding settings: {analyzer, fields} of the
    documents, with `boosts` ({field: weight}) of the queries."""
    fields = _check(encoding["fields"])
    from sparsebench.analysis.analyzer import Analyzer

    analyzer = Analyzer.from_config(encoding["analyzer"])
    if "boosts" not in encoding:
        return FieldCountEncoder(analyzer, fields)
    return BoostedFieldQueryEncoder(analyzer, {f: float(encoding["boosts"][f]) for f in fields})
