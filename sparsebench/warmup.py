"""Build the stages' compiled code (numba) into its cache once per installation, so that
no job compiles: `sparsebench compile`.

numba compiles a function for each combination of argument types it is called with, on
first use, and keeps the machine code in its cache (beside the modules, or in
NUMBA_CACHE_DIR, sparsebench.core.jit). A fresh installation's jobs would each compile
what they need, several at once. Here each compiled path runs once, on small inputs of
the types the stages give it: the analyzers' tokenizers (the distinct-chunk tokenizer of
most languages, Japanese's own), the run writer and line readers, and the search over
postings of every weight type (uint8, uint16 and float32 impacts, by MaxScore and by the
block scan) with queries read as the retrieve stage reads them.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
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
# postings of each weight type the term_weights stage writes (postings.compact_weights)
WEIGHT_TYPES = ("uint8", "uint16", "float32")


def _analyzers(languages: Sequence[str]) -> None:
    import pyarrow as pa

    from sparsebench.api import make_model_encoders

    texts = pa.array(SAMPLE_TEXTS * 4, type=pa.string())
    for language in languages:
        documents, queries = make_model_encoders({"kind": "bm25"}, language)
        documents.encode(texts)
        queries.encode(texts)


def _run_lines() -> None:
    from sparsebench.core import lines_loop
    from sparsebench.runs import text

    lines_loop.load_compiled()
    text.load_compiled()


def _search() -> None:
    import numpy as np
    import scipy.sparse as sp

    from sparsebench.core.csrfiles import save_csr
    from sparsebench.retrieve.stages import retrieve_run
    from sparsebench.search.postings import save_postings
    from sparsebench.search.settings import SearchSettings

    rng = np.random.default_rng(0)
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
        for weight_type in WEIGHT_TYPES:
            documents = sp.random(n_docs, n_terms, density=0.2, format="csr", random_state=rng)
            documents.data = np.ceil(documents.data * 200).astype(np.float32)
            if weight_type == "uint16":
                documents.data *= 300
            elif weight_type == "float32":
                documents.data += 0.5
            postings = root / f"postings-{weight_type}.npz"
            save_postings(postings, documents, doc_ids=None)
            for strategy in ("maxscore", "exhaustive"):
                retrieve_run(
                    postings, root / "idf.npy", root / "queries.npz", root / "queries.txt",
                    root / "docs.txt", root / "run.trec", k=10, tag="warm",
                    search=SearchSettings(strategy=strategy, latency_queries=2),
                )  # fmt: skip


def warm(languages: Sequence[str] = LANGUAGES) -> list[tuple[str, float]]:
    """Run every compiled path once (compiling what the cache lacks), the analyzers of
    `languages`; (step, seconds) of each."""
    from sparsebench.core.jit import drop_stale_caches

    drop_stale_caches()
    steps: list[tuple[str, Callable[[], None]]] = [
        ("analyzers", lambda: _analyzers(languages)),
        ("run files", _run_lines),
        ("search", _search),
    ]
    timings = []
    for name, step in steps:
        began = time.perf_counter()
        step()
        timings.append((name, time.perf_counter() - began))
    return timings
