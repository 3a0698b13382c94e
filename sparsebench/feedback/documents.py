"""The feedback documents' term vectors, as Anserini's rerankers read them from an index
with stored document vectors: a document's analyzed terms and their counts, keeping
only terms of 2 to 20 UTF-16 code units, in at most 10% of the indexed documents
((float) df / numDocs > 0.1f drops a term), and (RM3's term filter) made of [a-z0-9]
alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from sparsebench.encode.statistics import document_frequencies

MAX_DF_RATIO = np.float32(0.1)  # Anserini's df threshold outside tweet collections


def utf16_lengths(terms: pa.Array) -> np.ndarray:
    """Java's String.length() of each term: code points, two for those above U+FFFF."""
    points = pc.utf8_length(terms).to_numpy(zero_copy_only=False).astype(np.int64)
    astral = pc.count_substring_regex(terms, "[\U00010000-\U0010ffff]")
    return points + astral.to_numpy(zero_copy_only=False).astype(np.int64)


@dataclass(frozen=True)
class FeedbackCorpus:
    """The corpus's term counts and which of its terms may be feedback terms."""

    counts: sp.csr_matrix  # documents x vocabulary: analyzed term counts
    terms: pa.Array  # the vocabulary
    eligible: np.ndarray  # (vocabulary,) bool: the length and df filters pass
    alphanumeric: np.ndarray  # (vocabulary,) bool: [a-z0-9]+ (RM3's term filter)

    @classmethod
    def build(cls, counts: sp.csr_matrix, terms: pa.Array, indexed_docs: int) -> FeedbackCorpus:
        """`indexed_docs`: Lucene's numDocs, the documents Anserini indexes (those whose
        text is not blank), the denominator of the df ratio."""
        lengths = utf16_lengths(terms)
        df = document_frequencies(counts)
        ratio = df.astype(np.float32) / np.float32(max(indexed_docs, 1))
        eligible = (lengths >= 2) & (lengths <= 20) & (ratio <= MAX_DF_RATIO)
        alphanumeric = pc.match_substring_regex(terms, "^[a-z0-9]+$")
        return cls(
            counts.tocsr(),
            terms,
            eligible,
            alphanumeric.to_numpy(zero_copy_only=False).astype(bool),
        )

    def vector(self, row: int, alphanumeric_only: bool) -> dict[str, np.float32]:
        """A document's feedback terms and their counts (float)."""
        start, stop = self.counts.indptr[row], self.counts.indptr[row + 1]
        columns = self.counts.indices[start:stop]
        values = self.counts.data[start:stop]
        keep = self.eligible[columns]
        if alphanumeric_only:
            keep &= self.alphanumeric[columns]
        names = self.terms.take(pa.array(columns[keep])).to_pylist()
        return dict(zip(names, values[keep].astype(np.float32), strict=True))


@dataclass(frozen=True)
class FirstRetrieval:
    """What feedback expands a query from: its analyzed tokens' counts (those the corpus
    has), the L1 and L2 norms of all its tokens, and the documents of its first retrieval
    with their scores, in Anserini's order (score, then id)."""

    query: Mapping[str, int]
    norms: tuple[float, float]
    rows: Sequence[int]
    scores: Sequence[float]
