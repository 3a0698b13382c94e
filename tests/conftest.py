"""Shared fixtures: paths to ../shared, and tiny BEIR-format collections made by tests."""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from support.archive_server import server  # noqa: F401 (a fixture: an archive served on 127.0.0.1)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# Two workers each running torch on a 2-core machine: OpenMP's idle threads would spin
# for the other worker's cores (a SPLADE test took 115 s beside itself against 23 s
# alone, 37-41 s with passive waits). Inherited by every job the tests start.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# Fresh folders per session, removed when it ends: ir_datasets's cache (made when it is
# imported, as config checks do), never the user's ~/.ir_datasets, and what sparsebench
# remembers (the code digests every Snakemake start needs, shared by the session's
# Snakemake runs), never the user's ~/.cache
for variable, prefix in (
    ("IR_DATASETS_HOME", "sparsebench-irds-"),
    ("SPARSEBENCH_CACHE_DIR", "sparsebench-cache-"),
):
    if variable not in os.environ or variable == "SPARSEBENCH_CACHE_DIR":
        os.environ[variable] = tempfile.mkdtemp(prefix=prefix)
        atexit.register(shutil.rmtree, os.environ[variable], ignore_errors=True)

# Local runs use no cluster. Where SLURM's client tools are installed but no controller
# answers (a local SLURM the cluster tests started and stopped), the SLURM executor plugin
# runs `scontrol show config` at every Snakemake start and waits about 9 s for it; with
# an empty configuration scontrol fails at once. The cluster tests restore the real one
# (tests/workflow/test_slurm.py).
# The real one is kept for the workers of a parallel run too (pytest -n), which inherit
# the controller's environment.
os.environ.setdefault("SPARSEBENCH_TEST_SLURM_CONF", os.environ.get("SLURM_CONF", ""))
LOCAL_SLURM_CONF = os.environ["SPARSEBENCH_TEST_SLURM_CONF"] or None
os.environ["SLURM_CONF"] = "/dev/null"

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SPARSEBENCH_SHARED", REPO.parent / "shared")).resolve()


def pytest_configure(config: pytest.Config) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ:  # the workers inherit what this sets
        began = time.perf_counter()
        built = _compiled_code(config)
        seconds = time.perf_counter() - began
        # before pytest's clock starts: its total leaves this out, the header says it
        config.stash[_NUMBA_SETUP] = f"numba's cache: {built} ({seconds:.1f} s)"


def pytest_report_header(config: pytest.Config) -> str | None:
    return config.stash.get(_NUMBA_SETUP, None)


_NUMBA_SETUP = pytest.StashKey[str]()


def _compiled_code(config: pytest.Config) -> str:
    """numba's cache for the session (NUMBA_CACHE_DIR), built before any test by
    `sparsebench compile` on all cores: else every early process of a fresh checkout
    (the tests' own, and each job of their Snakemake runs) compiles what it needs, the
    same code many times over (benchmarks/RESULTS.md, "The test suite's wall time"). Kept
    per environment between sessions (numba drops what the sources outgrow,
    sparsebench.core.jit): `compiled`, what the command alone built, which
    tests/core/test_warmup.py checks is enough; `session`, its copy, which the tests'
    processes add to."""
    from numba.core import config as numba_config

    from sparsebench.core.jit import marker_text

    environment = f"{sys.prefix}\0{sys.version}".encode()
    name = f"numba-{hashlib.sha256(environment).hexdigest()[:12]}"
    if getattr(config, "cache", None) is not None:
        root = Path(config.cache.mkdir(name))
    else:  # pytest -p no:cacheprovider
        root = Path(tempfile.mkdtemp(prefix=f"sparsebench-{name}-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
    built, session, current = root / "compiled", root / "session", marker_text()
    stamp = "built-from.txt"  # the marker of the sources and compiler a folder was built by
    what = f"built before, in {built}"
    if _read(built / stamp) != current:
        command = [sys.executable, "-m", "sparsebench.cli", "compile"]  # on every core
        done = subprocess.run(
            command,
            env={**os.environ, "NUMBA_CACHE_DIR": str(built)},
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise pytest.UsageError(f"{' '.join(command)} failed:\n{done.stderr[-4000:]}")
        (built / stamp).write_text(current)
        what = f"built by `sparsebench compile` into {built}"
    if _read(session / stamp) != current:
        shutil.rmtree(session, ignore_errors=True)
        shutil.copytree(built, session)
    os.environ["NUMBA_CACHE_DIR"] = str(session)
    os.environ["SPARSEBENCH_TEST_COMPILED"] = str(built)
    numba_config.CACHE_DIR = str(session)  # read at numba's import, which came first
    return what


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Cluster tests may install and start a local SLURM (the slowest set-up of the
    suite) and stop it afterwards: in one process they run last, after the quick ones.
    On workers (pytest -n, a file each) they run first, then the files with Snakemake
    runs end to end (slow), then the quick files, which fill in wherever a worker is
    free: the longest work first, so that no worker ends with a long file alone."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        items.sort(key=lambda item: item.get_closest_marker("cluster") is not None)
        return
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(
        key=lambda item: (item.get_closest_marker("cluster") is None, item.path not in slow_files)
    )


def shared_path(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not available (set SPARSEBENCH_SHARED)", allow_module_level=True)
    return path


def write_text(path: Path, text: str) -> Path:
    """A file written, its folders made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def planned_encoding(configfile: Path, models: str):
    """The document encoding (workflow.plan.Encoding) of the one model of a config file on
    the built-in collection (`models`: the YAML of its `models:` mapping), its paths read
    as a user's."""
    from sparsebench.workflow.config import config_from_files, load_config_file
    from sparsebench.workflow.plan import Plan

    text = f"datasets: {{d: {{source: builtin, name: minibeir}}}}\nmodels: {models}\n"
    write_text(configfile, text)
    plan = Plan(config_from_files(load_config_file(configfile), [configfile]))
    (encoding,) = plan.encodings.values()
    return encoding


def write_collection(
    root: Path, docs, queries, qrels, split: str = "test", qrels_header: bool = True
) -> Path:
    """Write a BEIR-format folder. docs: [(id, title, text)], queries: [(id, text)],
    qrels: [(qid, docid, grade)]. Ids are written exactly as given (str or int)."""
    (root / "qrels").mkdir(parents=True, exist_ok=True)
    with open(root / "corpus.jsonl", "w", encoding="utf-8") as handle:
        for doc_id, title, text in docs:
            handle.write(json.dumps({"_id": doc_id, "title": title, "text": text}) + "\n")
    with open(root / "queries.jsonl", "w", encoding="utf-8") as handle:
        for query_id, text in queries:
            handle.write(json.dumps({"_id": query_id, "text": text}) + "\n")
    with open(root / "qrels" / f"{split}.tsv", "w", encoding="utf-8") as handle:
        if qrels_header:
            handle.write("query-id\tcorpus-id\tscore\n")
        for query_id, doc_id, grade in qrels:
            handle.write(f"{query_id}\t{doc_id}\t{grade}\n")
    return root


TINY_DOCS = [
    ("d1", "Solar power", "Photovoltaic panels convert sunlight into electricity."),
    ("d2", "Wind power", "Wind turbines convert the kinetic energy of wind into electricity."),
    ("d3", "Bread", "Yeast makes bread dough rise before baking in a hot oven."),
    ("d4", "Sourdough", "Sourdough bread uses a starter of wild yeast and bacteria."),
    ("d5", "Ocean tides", "Tides are driven by the gravity of the moon and the sun."),
    ("d6", "Tidal power", "Tidal power plants turn the energy of tides into electricity."),
    ("d7", "", ""),
    ("d8", "Moon", "The moon orbits the earth and its gravity raises tides."),
]
TINY_QUERIES = [
    ("q1", "how do solar panels make electricity"),
    ("q2", "baking bread with yeast"),
    ("q3", "what causes ocean tides"),
    ("q4", "energy from tides"),
    ("q5", "unjudged query about wind"),
]
TINY_QRELS = [
    ("q1", "d1", 2),
    ("q1", "d2", 0),
    ("q1", "d6", 1),
    ("q2", "d3", 2),
    ("q2", "d4", 1),
    ("q3", "d5", 2),
    ("q3", "d8", 1),
    ("q4", "d6", 2),
    ("q4", "d5", 1),
]


@pytest.fixture
def tiny_collection(tmp_path: Path) -> Path:
    return write_collection(tmp_path / "tiny", TINY_DOCS, TINY_QUERIES, TINY_QRELS)


def run_stages(
    collection: Path,
    out: Path,
    model: dict | None = None,
    shard_size: int = 1000,
    k: int = 1000,
    ignore_identical_ids: bool = False,
    evaluation: dict | None = None,
    dataset: dict | None = None,
) -> Path:
    """Run every stage of one (model x dataset) pair through the library, as the workflow
    does (sparsebench.pair.run_pair); return where its files are."""
    from sparsebench.pair import run_pair

    entry = {
        "source": "local",
        "path": str(collection),
        "ignore_identical_ids": ignore_identical_ids,
        **(dataset or {}),
    }
    return run_pair(
        entry, model or {"kind": "bm25"}, out, shard_size=shard_size, k=k, evaluation=evaluation
    )


def prepare_entry(entry: dict, out: Path, name: str = "x", archive=None) -> dict:
    """Prepare a dataset entry's corpus and the dataset itself, both in `out` (a
    subsample's full corpus in out/full), as the workflow's prepare_corpus and prepare
    jobs do; returns the dataset's summary with its corpus's counts and files."""
    from sparsebench.data import stages
    from sparsebench.workflow.config import validate_config
    from sparsebench.workflow.plan import Plan

    plan = Plan(validate_config({"datasets": {name: entry}, "models": {"m": {"kind": "bm25"}}}))
    corpus = plan.corpus(name)
    full = plan.corpora[corpus.documents]
    base = out / "full" if corpus.sample_of else out
    summary = stages.prepare_corpus(
        full.name, full.identity, base, archive=archive, readers=plan.readers(full.name)
    )
    dataset = stages.prepare(
        name,
        plan.datasets[name],
        out,
        documents=base / "corpus.parquet",
        corpus=corpus.name,
        archive=archive,
    )
    if corpus.sample_of:
        summary = stages.prepare_corpus(
            corpus.name,
            corpus.identity,
            out,
            documents=base / "corpus.parquet",
            qrels=out / "qrels.tsv",
        )
    return _with_corpus(dataset, summary)


def _with_corpus(dataset: dict, corpus: dict) -> dict:
    """A dataset's summary with its corpus's counts and files (the summaries the data
    stages write to dataset.json and corpus.json)."""
    counts = {k: v for k, v in corpus.items() if k.startswith("n_") or k == "subsample"}
    return {**dataset, **counts, "files": {**corpus["files"], **dataset["files"]}}


def prepare_collection(path: Path, out: Path, **settings) -> Path:
    """The prepared corpus (corpus.parquet, corpus.json) and dataset (queries.parquet,
    qrels.tsv, dataset.json) of a BEIR-format folder, all in `out`."""
    prepare_entry({"source": "local", "path": str(path), **settings}, out)
    return out


def prepare_source(source, out: Path, name: str = "x", settings: dict | None = None) -> dict:
    """Prepare the corpus, then the dataset, of a source object (sparsebench.data) into
    `out`, as prepare_corpus and prepare do; returns the dataset's summary with its
    corpus's counts and files."""
    from sparsebench.data.prepare import prepare_dataset, write_corpus_files

    source.check()
    corpus = write_corpus_files(source, out, "corpus", {})
    dataset = prepare_dataset(source, out, name, settings or {}, out / "corpus.parquet", "corpus")
    return _with_corpus(dataset, corpus)


def corpus_folder(results: Path, dataset: str) -> Path:
    """results/corpora/{corpus} of the corpus a prepared dataset reads (its dataset.json
    names it)."""
    info = json.loads((results / "data" / dataset / "dataset.json").read_text())
    return results / "corpora" / info["corpus"]
