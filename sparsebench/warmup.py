"""Build the stages' compiled code (numba) into its cache once per installation, so that
no job compiles: `sparsebench compile`.

numba compiles a function for each combination of argument types it is called with, on
first use, and keeps the machine code in its cache (beside the modules, or in
NUMBA_CACHE_DIR, sparsebench.core.jit). A fresh installation's jobs would each compile
what they need, several at once. Here each compiled path runs once, on small inputs of
the types the stages give it: the analyzers' tokenizers (the distinct-chunk tokenizer of
most languages, Japanese's own), the run writer and line readers, and the search over
postings of every weight type (uint8, uint16 and float32 impacts, by MaxScore and by the
block scan) with queries read as the retrieve stage reads them. The steps are
independent, so that several processes can build them at once: a cold cache takes
minutes of one core.
"""

from __future__ import annotations

import contextlib
import io
import logging
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context
from pathlib import Path

# languages whose analyzers run compiled code of their own
LANGUAGES = ("en", "ja")
SAMPLE_TEXTS = (
    "Photovoltaic panels convert sunlight into electricity; panels, panels and panels.",
    "Wind turbines convert the kinetic energy of wind into electricity " * 3,
    "日本語の文章を形態素に分けて検索します。東京都に住んでいます。",
    "x" * 600,  # longer than a token may be
    "",
)
# postings of each weight type the term_weights stage writes (postings_build.compact_weights)
WEIGHT_TYPES = ("uint8", "uint16", "float32")


def _analyzer(language: str) -> None:
    import pyarrow as pa

    from sparsebench.analysis.batch_tokens import by_chunks_meanwhile
    from sparsebench.api import make_model_encoders

    texts = pa.array(SAMPLE_TEXTS * 4, type=pa.string())
    documents, queries = make_model_encoders({"kind": "bm25"}, language)
    with by_chunks_meanwhile():  # the compiled path large batches take
        documents.encode(texts)
        queries.encode(texts)


def _run_lines() -> None:
    from sparsebench.core import lines_loop
    from sparsebench.runs import text

    lines_loop.load_compiled()
    text.load_compiled()


def _search(weight_type: str) -> None:
    import numpy as np
    import scipy.sparse as sp

    from sparsebench.core.csrfiles import save_csr
    from sparsebench.retrieve.stages import retrieve_run
    from sparsebench.search.postings import load_postings
    from sparsebench.search.postings_build import save_postings
    from sparsebench.search.settings import SearchSettings

    rng = np.random.default_rng(WEIGHT_TYPES.index(weight_type))
    n_docs, n_terms = 1000, 40  # k = 10 is shallow enough for the compiled searches
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        doc_ids = [f"d{i:03d}" for i in range(n_docs)]
        query_ids = [f"q{i}" for i in range(6)]
        (root / "docs.txt").write_text("\n".join(doc_ids) + "\n")
        (root / "queries.txt").write_text("\n".join(query_ids) + "\n")
        np.save(root / "idf.npy", np.ones(n_terms))
        queries = sp.random(6, n_terms, density=0.2, format="csr", random_state=rng)
        save_csr(root / "queries.npz", sp.csr_matrix(queries, dtype=np.float32))
        documents = sp.random(n_docs, n_terms, density=0.2, format="csr", random_state=rng)
        documents.data = np.ceil(documents.data * 200).astype(np.float32)
        if weight_type == "uint16":
            documents.data *= 300
        elif weight_type == "float32":
            documents.data += 0.5
        # a term in every document: a dense row (sparsebench.search.dense_rows)
        with_dense = documents.tolil()
        with_dense[:, 0] = documents.data[0]
        postings = root / "postings.npz"
        # the searches are compiled for plain postings without and with dense rows and,
        # for integer weights, packed ones
        variants = [(documents, False), (with_dense.tocsr(), False)]
        if weight_type != "float32":
            variants.append((documents, True))
        for corpus, packed in variants:
            save_postings(postings, corpus, doc_ids=None, packed=packed)
            for strategy in ("maxscore", "exhaustive"):
                retrieve_run(
                    postings, root / "idf.npy", root / "queries.npz", root / "queries.txt",
                    root / "docs.txt", root / "run.trec", k=10, tag="warm",
                    search=SearchSettings(strategy=strategy, latency_queries=2),
                )  # fmt: skip
        if weight_type != "float32":  # the Python API's unpacking of packed rows
            load_postings(postings).block_lists(0)


def _steps(languages: Sequence[str]) -> list[tuple[str, Callable[[], None]]]:
    """(name, step) of every step, the longest first (so that parallel processes end
    together)."""
    return [
        *((f"search {weight}", partial(_search, weight)) for weight in WEIGHT_TYPES),
        *((f"analyzer {language}", partial(_analyzer, language)) for language in languages),
        ("run files", _run_lines),
    ]


def _timed(step: Callable[[], None]) -> float:
    """Seconds of one step, its progress bars and its logs below warnings kept quiet."""
    root = logging.getLogger()
    previous = root.level
    root.setLevel(logging.WARNING)
    began = time.perf_counter()
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            step()
    finally:
        root.setLevel(previous)
    return time.perf_counter() - began


def warm(languages: Sequence[str] = LANGUAGES, jobs: int = 1) -> list[tuple[str, float]]:
    """Run every compiled path once (compiling what the cache lacks), the analyzers of
    `languages`, in `jobs` processes (1: in this one); (step, seconds) of each."""
    from sparsebench.core.jit import drop_stale_caches

    drop_stale_caches()  # before the processes start, so that none drops another's work
    steps = _steps(languages)
    if jobs == 1:
        return [(name, _timed(step)) for name, step in steps]
    # spawned, not forked: each a fresh interpreter, as a job's
    with ProcessPoolExecutor(min(jobs, len(steps)), mp_context=get_context("spawn")) as pool:
        futures = [(name, pool.submit(_timed, step)) for name, step in steps]
        return [(name, future.result()) for name, future in futures]
