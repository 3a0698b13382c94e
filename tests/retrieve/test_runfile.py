"""Reading TREC run files: what an empty or malformed run says."""

from __future__ import annotations

import pytest

from sparsebench.errors import DataError
from sparsebench.retrieve.runfile import read_run


def test_an_empty_run_says_no_query_has_a_result_and_why_that_may_be(tmp_path):
    run = tmp_path / "d.trec"
    run.write_text("")
    with pytest.raises(DataError, match=r"d\.trec: the run is empty: no query has a result"):
        read_run(run)
