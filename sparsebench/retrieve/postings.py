"""The postings retrieval searches: a term-major CSR matrix (terms x documents) of the
document weights, float32 values held in the float64 in which retrieval sums
(sparsebench.retrieve.exactscores), so that loading it costs no copy."""

from __future__ import annotations

from pathlib import Path

import scipy.sparse as sp

from sparsebench.fileio import load_csr, save_csr
from sparsebench.retrieve.exactscores import corpus_operand


def save_postings(path: str | Path, documents: sp.csr_matrix) -> None:
    """The term-major copy of document-major weights (documents x terms)."""
    save_csr(path, corpus_operand(sp.csr_matrix(documents.T)))


def load_postings(path: str | Path) -> sp.csr_matrix:
    """Postings as save_postings wrote them (terms x documents), without a copy."""
    return load_csr(path)
