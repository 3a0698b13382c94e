"""The `bm25` encoding, shared by every lexical kind (bm25, binary, tfidf, qld): each
text's analyzed terms with their counts. The saturation and the IDF need corpus
statistics, so they come after stacking (sparsebench.encode.weighting)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from sparsebench.core.progress import progress
from sparsebench.core.strings import as_string_array
from sparsebench.encode.sparse import LabelledCSR, counts_matrix, iter_row_blocks, stack_labelled

if TYPE_CHECKING:  # the analyzers (compiled code) are imported by build(), when one is made
    from sparsebench.analysis.analyzer import Analyzer


class TermCountEncoder:
    """Bag of analyzed terms with their counts (the input of BM25 and tf-idf)."""

    batch_size = 20_000

    def __init__(self, analyzer: Analyzer) -> None:
        self.analyzer = analyzer

    def _encode_batch(self, texts: pa.Array) -> LabelledCSR:
        batch = self.analyzer.analyze_batch(texts)
        matrix = counts_matrix(batch.text_index, batch.term_ids, batch.n_texts, len(batch.terms))
        return LabelledCSR(matrix, batch.terms)

    def encode(self, texts: pa.Array | Sequence[str]) -> LabelledCSR:
        array = as_string_array(texts)
        parts = []
        with progress(len(array), "encoding texts") as bar:  # one update per batch: cheap
            for start, stop in iter_row_blocks(len(array), self.batch_size):
                parts.append(self._encode_batch(array.slice(start, stop - start)))
                bar.update(stop - start)
        return stack_labelled(parts or [self._encode_batch(array)])


def build(encoding: Mapping[str, Any], runtime: Mapping[str, Any]) -> TermCountEncoder:
    """The encoder of `kind: bm25` encoding settings ({analyzer})."""
    from sparsebench.analysis.analyzer import Analyzer

    return TermCountEncoder(Analyzer.from_config(encoding["analyzer"]))
