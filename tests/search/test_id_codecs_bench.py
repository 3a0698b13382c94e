"""benchmarks/bench_id_codecs.py's reading of the library's packed postings: the rows it
times are the ones the library packs, and reading their chunks gives the sums of their
raw postings (the script asserts it)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_id_codecs  # noqa: E402

from sparsebench.search.packed_rows import PACKED_FROM  # noqa: E402


def test_packed_line_reads_the_rows_the_library_packs() -> None:
    rng = np.random.default_rng(3)
    n_docs = 70_000  # two blocks, the second partial
    shares = np.array([0.9, 0.7, 0.2, 0.05, 0.01, 10 / n_docs, 3 / n_docs])
    rows = [np.flatnonzero(rng.random(n_docs) < share) for share in shares]
    term_major = sp.csr_matrix(
        (
            rng.integers(1, 256, sum(map(len, rows))).astype(np.float32),
            np.concatenate(rows),
            np.r_[0, np.cumsum([len(row) for row in rows])],
        ),
        shape=(len(rows), n_docs),
    )
    cells = bench_id_codecs.packed_line("test", term_major, 1).strip("| ").split(" | ")
    # the two most frequent terms are bit vectors, the rarest rows too short to pack
    per_block = [np.bincount(row >> 16, minlength=2) for row in rows[2:]]
    expected = sum(int(n[n >= PACKED_FROM].sum()) for n in per_block)
    assert cells[0] == "test" and int(cells[1].replace(",", "")) == expected
    assert cells[3] == "3" and float(cells[5]) < 3
