"""The registry of weighting schemes: every weighting a model kind asks for is an entry,
each kind's schema offers the IDF variants its scheme takes, and a weighting the registry
does not list (or an IDF its scheme does not take) is refused by name."""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.sparse as sp

from sparsebench.core.errors import ConfigError
from sparsebench.encode.idf import IDF_VARIANTS, idf
from sparsebench.encode.schemes import SCHEMES
from sparsebench.encode.weighting import Weighting
from sparsebench.kinds.registry import KINDS
from sparsebench.workflow.config import validate_config

MODELS = {
    "bm25": {"kind": "bm25"},
    "binary": {"kind": "binary"},
    "tfidf": {"kind": "tfidf"},
    "qld": {"kind": "qld"},
    "qljm": {"kind": "qljm"},
    "splade": {"kind": "splade", "model": "org/model"},
    "python": {"kind": "python", "encoder": "json:JSONDecoder"},
}


def test_every_kind_weighs_by_a_scheme_and_offers_its_idfs():
    config = {"datasets": {"d": {"source": "builtin", "name": "minibeir"}}, "models": MODELS}
    models = validate_config(config)["models"]
    schemes = set()
    for name, entry in models.items():
        kind = KINDS[entry["kind"]]
        scheme = SCHEMES[kind.weighting(entry)["kind"]]
        schemes.add(scheme.name)
        offered = kind.schema["properties"].get("idf", {"enum": ["none"]})["enum"]
        assert offered == list(scheme.idfs), name
        Weighting.from_params(kind.weighting(entry))
    assert schemes | {"vectors"} == set(SCHEMES)


def test_an_unknown_weighting_or_idf_is_refused_by_name():
    with pytest.raises(ConfigError, match=r"unknown weighting 'bm42'; known weightings: bm25, "):
        Weighting(kind="bm42", idf="none")
    with pytest.raises(ConfigError, match=r"weighting dirichlet takes idf none, not 'lucene'"):
        Weighting(kind="dirichlet", idf="lucene")
    with pytest.raises(ConfigError, match=r"unknown idf variant 'bm25'; known: lucene, "):
        idf(np.ones(2), 4, "bm25")


def test_each_scheme_and_idf_gives_its_formula_and_source():
    for scheme in SCHEMES.values():
        doc = scheme.document_weights.__doc__
        assert "d_w =" in doc and re.search(r"\b(19|20)\d\d\b", doc), scheme.name
    for variant in IDF_VARIANTS.values():
        assert variant.__doc__, variant.__name__


def test_learned_weights_are_the_encoders():
    matrix = sp.csr_matrix(np.array([[0.5, 0.0], [0.0, 2.0]], dtype=np.float32))
    recipe = Weighting(kind="splade", idf="model")
    assert recipe.document_weights(matrix, recipe.corpus_statistics(matrix)) is matrix
