"""benchmarks/bench_retrieval.py's comparison with other engines: how it scores their
top k against the exact one, the 8-bit impacts shape it gives BMP, and the corpora that
BMP's index cannot hold refused before BMP would truncate them."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_retrieval  # noqa: E402
import external_engines  # noqa: E402


def test_top_scores_equal_rank_by_rank_are_exact() -> None:
    expected = np.array([[5.0, 4.0, 4.0], [3.0, 2.0, -np.inf]])
    assert bench_retrieval.scores_agreement(expected.copy(), expected) == "scores"


def test_a_missed_document_costs_recall() -> None:
    expected = np.array([[5.0, 4.0, 4.0], [3.0, 2.0, 1.0]])
    found = np.array(
        [
            [5.0, 4.0, 3.0],  # one of the two documents tied at 4 missed: 2 of 3
            [3.0, 2.0, 1.0],  # exact
        ]
    )
    assert bench_retrieval.scores_agreement(found, expected) == (
        "scores on 50.0% of queries, recall 0.833"
    )
    # a list shorter than k: the documents it lacks count against it
    short = np.array([[5.0, 4.0, 4.0], [3.0, 2.0, -np.inf]])
    assert bench_retrieval.scores_agreement(short, expected) == (
        "scores on 50.0% of queries, recall 0.833"
    )


def test_the_8bit_impacts_shape_holds_integer_weights_up_to_255(tmp_path: Path) -> None:
    bench_retrieval.make_problem(tmp_path, 2000, 20, "impacts-8bit")
    corpus = sp.load_npz(tmp_path / "corpus.npz")
    queries = sp.load_npz(tmp_path / "queries.npz")
    assert corpus.data.min() >= 1 and corpus.data.max() == 255
    assert np.array_equal(corpus.data, np.rint(corpus.data))
    assert np.array_equal(queries.data, np.rint(queries.data)) and queries.data.min() >= 1


def test_bmp_refuses_scores_above_8_bits(tmp_path: Path) -> None:
    corpus = sp.csr_matrix(np.array([[1.0, 256.0], [3.0, 0.0]]))
    with pytest.raises(ValueError, match="BMP keeps 8-bit scores"):
        external_engines.write_bmp_index(tmp_path / "index.bmp", corpus)


def test_bmp_refuses_more_terms_than_16_bits_number(tmp_path: Path) -> None:
    terms = (1 << 16) + 1
    corpus = sp.csr_matrix(
        (np.ones(terms), (np.arange(terms) % 3, np.arange(terms))), shape=(3, terms)
    )
    with pytest.raises(ValueError, match="numbers terms in 16 bits"):
        external_engines.write_bmp_index(tmp_path / "index.bmp", corpus)
    assert not (tmp_path / "index.bmp").exists()
