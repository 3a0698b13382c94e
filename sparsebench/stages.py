"""One function per pipeline stage, on plain paths and settings.

The Snakemake scripts only unpack their inputs, outputs and params into these calls;
the Python API calls the same functions, so there is one implementation of each stage.
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.sparse as sp

from sparsebench import provenance
from sparsebench.accelerators import cuda_available
from sparsebench.collection import FilesSource, FolderSource, ZipSource, builtin_collection_path
from sparsebench.config import model_fingerprint, stable_hash
from sparsebench.download import beir_archive, beir_md5, download, verify_archive
from sparsebench.encoders import make_encoder
from sparsebench.errors import DataError
from sparsebench.exactscores import corpus_operand
from sparsebench.fileio import (
    atomic_path,
    load_csr,
    read_json,
    read_lines,
    save_array,
    save_csr,
    write_json,
    write_lines,
    write_text,
)
from sparsebench.logs import progress
from sparsebench.metrics import default_metric_names, evaluate_run
from sparsebench.prepare import prepare_dataset, read_corpus_slice, read_qrels
from sparsebench.pruning import prune_rows
from sparsebench.retrieval import retrieve
from sparsebench.runfile import misordered_queries, read_run, write_retrieved
from sparsebench.sparse import LabelledCSR, align_columns, stack_npz_files
from sparsebench.weighting import (
    CorpusStatistics,
    bm25_document_weights,
    corpus_statistics,
    idf,
)

log = logging.getLogger(__name__)


def n_shards(n_docs: int, shard_size: int) -> int:
    return max(1, math.ceil(n_docs / shard_size))


# --- data -----------------------------------------------------------------------------


def download_beir(
    name: str,
    out_zip: str | Path,
    base_url: str,
    md5: str | None = None,
    retries: int = 3,
    timeout_s: float = 60.0,
) -> str:
    url, expected = beir_archive(name, base_url, md5)
    return download(url, out_zip, expected, retries=retries, timeout_s=timeout_s)


def dataset_source(entry: dict[str, Any], archive: str | Path | None = None):
    """The collection source a validated dataset entry points at."""
    split = entry.get("split", "test")
    if entry["source"] == "builtin":
        return FolderSource(builtin_collection_path(entry["name"]), split)
    if entry["source"] == "local":
        return FolderSource(Path(entry["path"]).expanduser().resolve(), split)
    if entry["source"] == "beir":
        if archive is None:
            raise DataError("a BEIR dataset needs its downloaded archive")
        return ZipSource(Path(archive), split, entry.get("subset"))
    if entry["source"] == "miracl":
        from sparsebench.hub import MiraclSource

        keys = ("corpus", "topics", "corpus_files", "topics_files", "revision")
        return MiraclSource(entry["language"], split, **{k: entry[k] for k in keys if k in entry})
    if entry["source"] == "mmarco":
        from sparsebench.hub import MmarcoSource

        keys = (
            "qrels",
            "query_language",
            "corpus",
            "queries",
            "corpus_files",
            "queries_files",
            "qrels_md5",
            "revision",
        )
        return MmarcoSource(
            entry["language"], split=split, **{k: entry[k] for k in keys if k in entry}
        )
    if entry["source"] == "ir_datasets":
        from sparsebench.irdatasets import IrDatasetsSource

        return IrDatasetsSource(entry["id"], split, entry.get("query_field"))
    if entry["source"] == "files":
        return FilesSource(
            *(Path(entry[m]).expanduser().resolve() for m in ("corpus", "queries", "qrels")), split
        )
    raise DataError(f"unknown dataset source {entry['source']!r}")


def prepare(
    name: str,
    entry: dict[str, Any],
    out_dir: str | Path,
    archive: str | Path | None = None,
) -> dict[str, Any]:
    """The dataset in canonical form; a BEIR archive is first checked against its md5,
    downloaded or not."""
    if archive is not None and entry["source"] == "beir":
        verify_archive(archive, beir_md5(entry["name"], entry.get("md5")))
    return prepare_dataset(dataset_source(entry, archive), out_dir, name, entry)


# --- encoding -------------------------------------------------------------------------


def encode_corpus_shard(
    corpus: str | Path,
    shard: int,
    shard_size: int,
    encoding: dict[str, Any],
    out_npz: str | Path,
    out_terms: str | Path,
    runtime: dict[str, Any] | None = None,
) -> LabelledCSR:
    """Encode documents [shard * size, (shard + 1) * size) of the corpus."""
    start = shard * shard_size
    table = read_corpus_slice(corpus, start, start + shard_size)
    if table.num_rows == 0:
        raise DataError(f"shard {shard} is empty: the corpus has fewer than {start + 1} documents")
    encoded = make_encoder(encoding, runtime).encode(table.column("text"))
    log.info(
        "shard %d: %d documents, %d terms, %d postings",
        shard,
        table.num_rows,
        len(encoded.terms),
        encoded.matrix.nnz,
    )
    save_csr(out_npz, encoded.matrix)
    write_lines(out_terms, encoded.terms.to_pylist())
    return encoded


def stack_shards(
    shard_npzs: list[str],
    shard_terms: list[str],
    corpus: str | Path,
    out_npz: str | Path,
    out_vocab: str | Path,
    out_doc_ids: str | Path,
) -> LabelledCSR:
    """One corpus matrix over the union vocabulary, rows in corpus order."""
    stacked = stack_npz_files(
        list(shard_npzs), [pa.array(read_lines(t), type=pa.string()) for t in shard_terms]
    )
    doc_ids = pq.read_table(corpus, columns=["doc_id"]).column("doc_id")
    if len(doc_ids) != stacked.matrix.shape[0]:
        raise DataError(
            f"the shards hold {stacked.matrix.shape[0]} documents but the corpus has {len(doc_ids)}"
        )
    log.info(
        "stacked %d shards: %d documents x %d terms, %d postings",
        len(shard_npzs),
        stacked.matrix.shape[0],
        stacked.matrix.shape[1],
        stacked.matrix.nnz,
    )
    save_csr(out_npz, stacked.matrix)
    write_lines(out_vocab, stacked.terms.to_pylist())
    write_lines(out_doc_ids, doc_ids.to_pylist())
    return stacked


def prepared_matrix(matrix: sp.csr_matrix, weighting: dict[str, Any]) -> sp.csr_matrix:
    """The encoded documents as the model weighs them: statically pruned if it says so."""
    if "pruning" not in weighting:
        return matrix
    before = matrix.nnz
    matrix = prune_rows(matrix, **weighting["pruning"])
    log.info("pruning %s keeps %d of %d weights", weighting["pruning"], matrix.nnz, before)
    return matrix


def corpus_idf(
    weighting: dict[str, Any], statistics: CorpusStatistics, vocab: str | Path | None
) -> np.ndarray:
    """The IDF of every term: from the corpus statistics, or shipped with the model."""
    if weighting["idf"] != "model":
        return idf(statistics.df, statistics.n_docs, weighting["idf"])
    from sparsebench.splade import load_idf_json

    if vocab is None:
        raise DataError("an IDF from the model needs the corpus vocabulary")
    return load_idf_json(weighting["idf_source"], pa.array(read_lines(vocab), type=pa.string()))


def document_weights(
    matrix: sp.csr_matrix, weighting: dict[str, Any], statistics: CorpusStatistics
) -> sp.csr_matrix:
    """Each document's term weights; `statistics` are the whole corpus's (`matrix` may be
    a part of it)."""
    if weighting["kind"] == "bm25":
        return bm25_document_weights(
            matrix,
            weighting["k1"],
            weighting["b"],
            weighting["k1_plus_one"],
            weighting.get("statistics", "exact"),
            average=statistics.average_length,
        )
    if weighting["kind"] == "tf":  # raw term frequencies
        return matrix.astype(np.float32)
    return matrix


def term_statistics_record(
    weighting: dict[str, Any], statistics: CorpusStatistics, weights: np.ndarray, postings: int
) -> dict[str, Any]:
    return {
        "n_docs": int(statistics.n_docs),
        "statistics": weighting.get("statistics", "exact"),
        "vocabulary": len(statistics.df),
        "postings": int(postings),
        "avg_doc_length": statistics.average_length,
        "idf": weighting["idf"],
        "idf_min": float(weights.min(initial=0.0)),
        "idf_max": float(weights.max(initial=0.0)),
        "weighting": weighting,
    }


def save_postings(out_postings: str | Path, documents: sp.csr_matrix) -> None:
    """The term-major copy retrieval scores against, held in the float64 in which it sums
    (sparsebench.exactscores): loaded without a copy."""
    save_csr(out_postings, corpus_operand(sp.csr_matrix(documents.T)))


def term_weights(
    corpus_npz: str | Path,
    weighting: dict[str, Any],
    out_weights: str | Path,
    out_idf: str | Path,
    out_stats: str | Path,
    vocab: str | Path | None = None,
    out_postings: str | Path | None = None,
) -> None:
    """Document weights and the IDF of every term, from the stacked corpus (`vocab`, the
    corpus's term list, is needed for an IDF shipped with the model)."""
    matrix = prepared_matrix(load_csr(corpus_npz), weighting)
    statistics = corpus_statistics(matrix, weighting.get("statistics", "exact"))
    weights = corpus_idf(weighting, statistics, vocab)
    documents = document_weights(matrix, weighting, statistics)
    stats = term_statistics_record(weighting, statistics, weights, matrix.nnz)
    log.info("term weights: %s", stats)
    save_csr(out_weights, documents)
    if out_postings is not None:
        save_postings(out_postings, documents)
    save_array(out_idf, weights)
    write_json(out_stats, stats)


def encode_queries(
    queries: str | Path,
    qrels: str | Path,
    vocab: str | Path,
    encoding: dict[str, Any],
    out_npz: str | Path,
    out_ids: str | Path,
    runtime: dict[str, Any] | None = None,
) -> None:
    """Encode the judged queries in the corpus vocabulary (terms unseen in it drop out)."""
    table = pq.read_table(queries)
    judged = set(read_qrels(qrels)["query_id"])
    keep = pc.is_in(table.column("query_id"), value_set=pa.array(sorted(judged), pa.string()))
    keep = keep.to_numpy(zero_copy_only=False)
    dropped = int((~keep).sum())
    log.info(
        "encoding %d of %d queries (%d dropped: they have no qrels in this split)",
        int(keep.sum()),
        table.num_rows,
        dropped,
    )
    table = table.filter(pa.array(keep))
    encoded = make_encoder(encoding, runtime).encode(table.column("text"))
    vocabulary = pa.array(read_lines(vocab), type=pa.string())
    matrix = align_columns(encoded.matrix, encoded.terms, vocabulary)
    empty = int((np.diff(matrix.indptr) == 0).sum())
    if empty:
        log.warning(
            "%d queries have no term in the corpus vocabulary; they retrieve nothing and score 0",
            empty,
        )
    save_csr(out_npz, matrix)
    write_lines(out_ids, table.column("query_id").to_pylist())


# --- retrieval and evaluation ---------------------------------------------------------


def import_run(
    run_path: str | Path, corpus: str | Path, queries: str | Path, out_run: str | Path
) -> None:
    """Check an external TREC run against the dataset and put it where the workflow's own
    runs go: every document and query id must occur in the dataset."""
    run = read_run(run_path)
    checks = (
        ("doc_id", corpus, "doc_id", "documents"),
        ("query_id", queries, "query_id", "queries"),
    )
    for column, table, key, what in checks:
        known = pq.read_table(table, columns=[key]).column(key)
        ids = pa.array(run[column].unique().astype(object), type=pa.string())
        unknown = ids.filter(pc.invert(pc.is_in(ids, value_set=known))).to_pylist()
        if unknown:
            raise DataError(
                f"{run_path}: {len(unknown)} {what} ids do not occur in the dataset (e.g. "
                f"{', '.join(map(repr, unknown[:5]))}); is it a run of another collection?"
            )
    with atomic_path(out_run) as tmp:
        tmp.write_bytes(Path(run_path).read_bytes())
    log.info("imported %s: %d lines, %d queries", run_path, len(run), run["query_id"].nunique())


def tune(
    model: str,
    dataset: str,
    sweep: dict[str, Any],
    dataset_info: str | Path,
    per_query_files: list[str],
    run_files: list[str],
    outputs: dict[str, str],
) -> None:
    """The tuned model's run, the choice (per fold, or once on the training split) and the
    metric surface. `per_query_files` hold the variants' scores on the queries they are
    chosen on: the training split's, or the evaluated ones for cross-validation."""
    from sparsebench import tuning

    settings = tuning.Sweep.from_dict(model, sweep)
    variants = list(settings.variants)
    scores = tuning.per_query_scores(
        dict(zip(variants, per_query_files, strict=True)), settings.metric
    )
    info = read_json(dataset_info)
    split = info["tuning_split"] if tuning.uses_training_split(sweep, info) else None
    if split:
        result = tuning.choose_on_split(scores, settings, split)
        chosen: dict[str, list[str] | None] = {result.choices[0]["variant"]: None}
    else:
        result = tuning.cross_validate(scores, settings)
        chosen = {}
        for choice in result.choices:
            chosen.setdefault(choice["variant"], []).extend(choice["held_out_queries"])
    for choice in result.choices:
        log.info(
            "%s on %s%s: %s (%s %.4f on %d training queries)",
            model,
            dataset,
            f", split {split}" if split else f", fold {choice['fold']}",
            choice["variant"],
            settings.metric,
            choice["train_score"],
            choice["train_queries"],
        )
    runs = dict(zip(variants, run_files, strict=True))
    tuning.compose_run(runs, chosen, model, outputs["run"])
    tuning.write_selection(result, settings, dataset, outputs["selection"], split)
    with atomic_path(outputs["surface"]) as tmp:
        result.surface.to_csv(tmp, sep="\t", lineterminator="\n", float_format="%.6f")


def _backend_name(backend: str, device: str) -> str:
    """'auto' is torch when a CUDA device is there (and not refused), else scipy."""
    if backend != "auto":
        return backend
    if device == "cpu":
        return "scipy"
    return "torch" if cuda_available() else "scipy"


def _retrieval_backend(backend: str, device: str):
    """The retrieval function for `backend` (auto: torch on CUDA when present)."""
    if _backend_name(backend, device) == "torch":
        from sparsebench.retrieval_torch import retrieve_torch

        def run(*args, threads: int = 1, **kwargs):
            return retrieve_torch(*args, **kwargs)

        return run

    def run_scipy(*args, device: str = "auto", **kwargs):
        return retrieve(*args, **kwargs)

    return run_scipy


def retrieve_run(
    weights: str | Path,
    idf_path: str | Path,
    queries_npz: str | Path,
    query_ids_path: str | Path,
    doc_ids_path: str | Path,
    out_run: str | Path,
    k: int,
    tag: str,
    ignore_identical_ids: bool = False,
    query_batch_size: int = 256,
    max_block_mb: float = 1024,
    threads: int = 1,
    backend: str = "auto",
    device: str = "auto",
) -> None:
    """Write the TREC run of every encoded query, queries in id order. The backend
    (scipy on CPU threads, or torch on a CUDA device) changes speed, not results.
    `weights` is the document-major matrix, or its term-major copy (postings.npz: one
    copy of the corpus in memory, no transposition) for the scipy backend."""
    matrix = load_csr(weights)  # postings.npz is already the float64 retrieval sums in
    term_major = Path(weights).name.startswith("postings")
    if term_major and _backend_name(backend, device) == "torch":
        matrix, term_major = sp.csr_matrix(matrix.T), False
    vocab_size = matrix.shape[0] if term_major else matrix.shape[1]
    if not Path(idf_path).exists():
        raise DataError(f"missing IDF file {idf_path}: run the term_weights stage first")
    term_idf = np.load(idf_path)
    if term_idf.shape != (vocab_size,) or not np.all(np.isfinite(term_idf)):
        raise DataError(
            f"{idf_path}: IDF of shape {term_idf.shape} does not fit a vocabulary of "
            f"{vocab_size} terms (or holds non-finite values)"
        )
    query_ids = np.array(read_lines(query_ids_path), dtype=object)
    queries = load_csr(queries_npz)
    order = np.argsort(query_ids, kind="stable")
    query_ids, queries = query_ids[order], queries[order]
    doc_ids = np.array(read_lines(doc_ids_path), dtype=object)
    n_lines = 0
    with (
        atomic_path(out_run) as tmp,
        open(tmp, "w", encoding="utf-8", newline="\n") as handle,
        progress(len(query_ids), "retrieving", unit="query") as bar,
    ):
        for start, batch in _retrieval_backend(backend, device)(
            queries,
            None if term_major else matrix,
            term_idf,
            k,
            doc_ids,
            query_ids,
            query_batch_size=query_batch_size,
            max_block_mb=max_block_mb,
            ignore_identical_ids=ignore_identical_ids,
            threads=threads,
            device=device,
            **({"postings": matrix} if term_major else {}),
        ):
            n_lines += write_retrieved(handle, start, batch, query_ids, doc_ids, tag)
            bar.update(batch.n_queries)
    log.info("wrote %d run lines for %d queries to %s", n_lines, len(query_ids), out_run)


def evaluate(
    run_path: str | Path,
    qrels_path: str | Path,
    settings: dict[str, Any],
    out_metrics: str | Path,
    out_per_query: str | Path,
) -> dict[str, float]:
    """Per-query values (long TSV) and means (JSON, keys like "nDCG@10") of a run."""
    names = settings.get("metrics") or default_metric_names(settings["cutoffs"])
    with progress(2 + len(names), "evaluating", unit="step") as bar:
        run = read_run(run_path)
        bar.update()  # then ranking and judging, then one step per measure
        unsorted = misordered_queries(run)
        if unsorted:
            log.warning(
                "%d queries of %s are not sorted by score (e.g. %s); metrics follow the "
                "scores, as trec_eval does, not the file order",
                len(unsorted),
                run_path,
                unsorted[0],
            )
        result = evaluate_run(
            run,
            read_qrels(qrels_path),
            names,
            relevance_level=settings["relevance_level"],
            query_set=settings["query_set"],
            step=bar.update,
        )
    long = result.per_query.reset_index().melt(
        id_vars="query_id", var_name="metric", value_name="value"
    )
    with atomic_path(out_per_query) as tmp:
        long.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.17g")
    write_json(out_metrics, result.means)
    log.info(
        "evaluated %d queries (%d in the run): %s",
        result.n_evaluated,
        result.n_in_run,
        ", ".join(f"{m}={v:.4f}" for m, v in result.means.items()),
    )
    return result.means


def evaluation_manifest(
    out_path: str | Path,
    model: str,
    dataset: str,
    model_settings: dict,
    eval_settings: dict,
    dataset_json: str | Path,
    run_path: str | Path,
    metrics_path: str | Path,
    started: str,
) -> None:
    metrics = read_json(metrics_path)
    per_query = pd.read_csv(
        Path(metrics_path).with_name("per_query.tsv"), sep="\t", dtype={"query_id": str}
    )
    content = provenance.manifest(
        stage="evaluate",
        settings={
            "model": model,
            "dataset": dataset,
            "model_settings": model_settings,
            "evaluation": eval_settings,
        },
        inputs={"run": run_path},
        started=started,
        extra={
            "model_sha256": stable_hash(model_fingerprint(model_settings)),
            "model": provenance.model_provenance(model_settings),
            "dataset": provenance.dataset_provenance(dataset_json),
            "n_queries": int(per_query["query_id"].nunique()),
            "metrics": metrics,
        },
    )
    provenance.write_manifest(out_path, content)


def significance_settings(config: dict[str, Any]):
    from sparsebench.comparisons import SignificanceSettings
    from sparsebench.config import significance_metrics

    section = config["significance"]
    return SignificanceSettings(
        baseline=section["baseline"],
        all_pairs=section["all_pairs"],
        metrics=tuple(significance_metrics(config)),
        tests=tuple(section["tests"]),
        primary_test=section["primary_test"],
        alpha=section["alpha"],
        correction=section["correction"],
        resamples=section["resamples"],
        seed=section["seed"],
    )


def _pairs(models: list[str], datasets: list[str], files: list[str]) -> dict[tuple[str, str], str]:
    """(model, dataset) -> file, from paths .../{model}/{dataset}/{file} (a run model may
    cover only some datasets)."""
    pairs = {}
    for path in files:
        parts = Path(path).parts
        model, dataset = parts[-3], parts[-2]
        if model not in models or dataset not in datasets:
            raise DataError(f"{path} does not belong to a configured (model, dataset) pair")
        pairs[(model, dataset)] = path
    return pairs


def significance(
    models: list[str],
    datasets: list[str],
    per_query_files: list[str],
    config: dict[str, Any],
    out_tsv: str | Path,
    out_md: str | Path,
    out_manifest: str | Path | None = None,
    started: str | None = None,
    out_intervals: str | Path | None = None,
) -> pd.DataFrame:
    """significance.tsv (long) and significance.md from every pair's per-query values, and
    each model's scores with their 95% bootstrap intervals (intervals.tsv)."""
    from sparsebench import comparisons

    settings = significance_settings(config)
    files = _pairs(models, datasets, per_query_files)
    values = {
        pair: comparisons.read_per_query(path, settings.metrics) for pair, path in files.items()
    }
    if len(models) < 2:
        log.warning("one model only: nothing to compare")
        table = pd.DataFrame(columns=comparisons.COLUMNS)
    else:
        table = comparisons.significance_table(values, models, datasets, settings)
    with atomic_path(out_tsv) as tmp:
        table.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.10g")
    if out_intervals is not None:
        intervals = comparisons.score_intervals(values, models, datasets, settings)
        with atomic_path(out_intervals) as tmp:
            intervals.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.10g")
    lines = [
        f"config sha256: {stable_hash(config)}",
        f"tests: {', '.join(settings.tests)}; correction: {settings.correction}; "
        f"alpha: {settings.alpha}; resamples: {settings.resamples}; seed: {settings.seed}",
        f"command: `{provenance.command_line()}`",
        "versions: " + ", ".join(f"{k} {v}" for k, v in provenance.package_versions().items()),
    ]
    write_text(
        out_md, comparisons.markdown_report(values, table, models, datasets, settings, lines)
    )
    if out_manifest is not None:
        provenance.write_manifest(
            out_manifest,
            provenance.manifest(
                stage="significance",
                settings=config,
                inputs={f"{m}/{d}": p for (m, d), p in files.items()},
                started=started or provenance.now(),
                extra={
                    "tests": list(settings.tests),
                    "correction": settings.correction,
                    "alpha": settings.alpha,
                    "resamples": settings.resamples,
                    "seed": settings.seed,
                    "models": {m: provenance.model_provenance(config["models"][m]) for m in models},
                },
            ),
        )
    log.info(
        "%d comparisons, %d significant",
        len(table),
        int(table["significant"].sum()) if len(table) else 0,
    )
    return table


def reference_row(name: str, entry: dict[str, Any]) -> str:
    """The row of the published tables a dataset entry corresponds to: the BEIR name
    (cqadupstack forum by forum), miracl-<language> for MIRACL dev, the ir_datasets id."""
    source = entry["source"]
    if source == "beir":
        return "-".join(p for p in (entry.get("name", name), entry.get("subset")) if p)
    if source == "miracl" and entry.get("split") == "dev":
        return f"miracl-{entry['language']}"
    if source == "ir_datasets":
        return entry["id"]
    return name


def reproduction_targets(config: dict[str, Any]) -> dict[str, str]:
    """Dataset -> row name of the expected figures (reference_row unless mapped)."""
    mapped = config["reproduction"]["datasets"]
    return {
        name: mapped.get(name, reference_row(name, entry))
        for name, entry in config["datasets"].items()
    }


def leaderboard(
    models: list[str],
    datasets: list[str],
    metric: str,
    metrics_files: list[str],
    dataset_infos: list[str],
    config: dict[str, Any],
    outputs: dict[str, str],
    started: str,
    significance_tsv: str | Path | None = None,
    selections: list[str] | None = None,
) -> pd.DataFrame:
    """leaderboard.tsv (+ .md, long metrics.tsv, reproduction.tsv and a manifest);
    `selections`: the selection.json of every tuned (model x dataset) pair."""
    from sparsebench import leaderboard as board
    from sparsebench import reproduction, tuning
    from sparsebench.comparisons import markers, read_significance

    files = _pairs(models, datasets, metrics_files)
    long = board.collect_metrics([(m, d, p) for (m, d), p in files.items()])
    marks = {}
    if significance_tsv is not None:
        table = read_significance(significance_tsv)
        marks = markers(table, metric, config["significance"]["primary_test"])
    model_hashes = {m: stable_hash(model_fingerprint(config["models"][m])) for m in models}
    model_records = {m: provenance.model_provenance(config["models"][m]) for m in models}
    content = provenance.manifest(
        stage="leaderboard",
        settings=config,
        inputs={f"{m}/{d}": p for (m, d), p in files.items()},
        started=started,
        extra={
            "primary_metric": metric,
            "datasets": {
                d: provenance.dataset_provenance(i)
                for d, i in zip(datasets, dataset_infos, strict=True)
            },
            "models": model_hashes,
            "model_provenance": model_records,
            "model_settings": {m: config["models"][m] for m in models},
        },
    )
    groups = {d: e["group"] for d, e in config["datasets"].items() if e.get("group")}
    section = config["reproduction"]
    checks = reproduction.check(
        long,
        reproduction.load_expected(section["expected"]),
        section["models"],
        reproduction_targets(config),
        section["ok"],
        section["okish"],
    )
    with atomic_path(outputs["reproduction"]) as tmp:
        checks.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.6f")
    notes = board.significance_note(config["significance"], bool(marks))
    subsampled = {
        d: read_json(i).get("subsample") for d, i in zip(datasets, dataset_infos, strict=True)
    }
    for dataset, sample in subsampled.items():
        if sample:
            notes += (
                f"\n\nSUBSAMPLE: {dataset} ran on {sample['documents']:,} of {sample['of']:,} "
                f"documents (every judged document kept, seed {sample['seed']}); its "
                "scores are not comparable with full-corpus figures."
            )
    chosen_by: dict[str, dict[str, str]] = {}
    for path in selections or []:
        selection = read_json(path)
        chosen_by.setdefault(selection["model"], {})[selection["dataset"]] = selection["chosen_by"]
    tuned = {
        m: tuning.describe(config["models"][m]["sweep"], chosen_by.get(m))
        for m in models
        if config["models"][m]["kind"] == "tuned"
    }
    for model, how in tuned.items():
        notes += (
            f"\n\nTUNED: {model}: {how}. With cross-validation each query is scored by "
            f"the point chosen on the other folds (results/tuning/{model}/<dataset>/)."
        )
    extra_sections = [reproduction.markdown(checks, section["ok"], section["okish"])]
    table = board.write_leaderboard(
        long,
        metric,
        models,
        datasets,
        outputs["table"],
        outputs["long"],
        outputs["markdown"],
        board.provenance_summary(content),
        marks=marks,
        notes=notes,
        sections=extra_sections,
        groups=groups,
        tuned=tuned,
    )
    provenance.write_manifest(outputs["manifest"], content)
    log.info("leaderboard (%s):\n%s", metric, table.to_string(float_format="%.4f"))
    return table


# --- the visual report ----------------------------------------------------------------


def _read_intervals(path: str | Path) -> pd.DataFrame:
    return pd.read_csv(
        path, sep="\t", keep_default_na=False, dtype={"dataset": str, "model": str, "metric": str}
    )


def report_leaderboard(
    leaderboard_tsv: str | Path,
    intervals_tsv: str | Path,
    significance_tsv: str | Path,
    models: list[str],
    datasets: list[str],
    config: dict[str, Any],
    out_html: str | Path,
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """The leaderboard as an HTML table and as bars per dataset, with each score's 95%
    bootstrap interval and the leaderboard's significance marks."""
    from sparsebench.comparisons import markers, read_significance
    from sparsebench.leaderboard import significance_note
    from sparsebench.report import figures, tables
    from sparsebench.report.style import save_figure

    metric = config["evaluation"]["primary_metric"]
    settings = config["significance"]
    table = pd.read_csv(
        leaderboard_tsv, sep="\t", index_col="model", dtype={"model": str}, keep_default_na=False
    )
    table = table[[c for c in table.columns if not c.startswith("sig:")]]
    intervals = _read_intervals(intervals_tsv)
    comparisons = read_significance(significance_tsv)
    marks = markers(comparisons, metric, settings["primary_test"])
    notes = [
        significance_note(settings, bool(marks)),
        "Error bars and [low, high]: 95% bootstrap intervals of the mean over the queries "
        f"({settings['resamples']:,} resamples, seed {settings['seed']}).",
    ]
    write_text(out_html, tables.leaderboard_html(table, intervals, marks, metric, notes))
    chart = figures.leaderboard_chart(intervals, marks, models, datasets, metric, " ".join(notes))
    save_figure(chart, out_png, out_svg)


def report_sweep(
    model: str,
    dataset: str,
    surface_tsv: str | Path,
    selection_json: str | Path,
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """The metric surface of a tuned model's grid on one dataset, the chosen point(s)
    framed: on the training split, or the mean over all queries with each fold's choice."""
    from sparsebench.report import figures
    from sparsebench.report.style import save_figure

    selection = read_json(selection_json)
    surface = pd.read_csv(surface_tsv, sep="\t")
    split = selection["choices"][0].get("split")
    column = f"mean_{split}_queries" if split else "mean_all_queries"
    how = f"the {split} queries" if split else f"all queries; {selection['chosen_by']}"
    title = f"{model} on {dataset}: {selection['metric']} over the grid ({how})"
    chart = figures.sweep_chart(
        surface, selection["parameters"], selection["choices"], column, selection["metric"], title
    )
    save_figure(chart, out_png, out_svg)


def report_precision_recall(
    dataset: str,
    models: list[str],
    metrics_files: list[str],
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """Precision-recall curves (11-point interpolated precision) of every model on one
    dataset, from the models' metrics.json files (.../{model}/{dataset}/metrics.json)."""
    from sparsebench.report import data, figures
    from sparsebench.report.style import save_figure

    files = _pairs(models, [dataset], metrics_files)
    ordered = {m: files[(m, dataset)] for m in models if (m, dataset) in files}
    save_figure(
        figures.precision_recall_chart(data.precision_recall(ordered), dataset), out_png, out_svg
    )


def report_query_differences(
    model: str,
    dataset: str,
    model_per_query: str | Path,
    baseline_per_query: str | Path,
    significance_tsv: str | Path,
    config: dict[str, Any],
    out_png: str | Path,
    out_svg: str | Path,
) -> None:
    """The model's per-query differences from the baseline on the primary metric, sorted,
    with the significance stage's verdict on them."""
    from sparsebench.comparisons import read_significance
    from sparsebench.report import data, figures
    from sparsebench.report.style import save_figure

    metric = config["evaluation"]["primary_metric"]
    settings = config["significance"]
    baseline, test = settings["baseline"], settings["primary_test"]
    differences = data.read_query_differences(
        model_per_query, baseline_per_query, metric, f"{model} vs {baseline} on {dataset}"
    )
    summary = f"mean Δ {differences.mean():+.4f}"
    row = data.comparison_row(
        read_significance(significance_tsv), model, baseline, dataset, metric, test
    )
    if row is not None:
        verdict = "significant" if row["significant"] else "not significant"
        summary += (
            f", 95% interval [{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]; {test} "
            f"p = {row['p_adjusted']:.4g} ({settings['correction']} correction): {verdict} "
            f"at alpha {settings['alpha']}"
        )
    chart = figures.query_difference_chart(differences, model, baseline, dataset, metric, summary)
    save_figure(chart, out_png, out_svg)


def report_costs(
    benchmark_files: list[str],
    config: dict[str, Any],
    out_tsv: str | Path,
    out_png: str | Path,
    out_svg: str | Path,
) -> pd.DataFrame:
    """costs.tsv (every job's wall time, CPU time and peak memory, by rule, dataset and
    model) and the figure of each rule's total."""
    from sparsebench import costs
    from sparsebench.report import figures
    from sparsebench.report.style import save_figure

    table = costs.cost_table(benchmark_files, config)
    costs.write_cost_table(table, out_tsv)
    chart = figures.cost_chart(
        costs.rule_costs(table), "Cost of each stage over all datasets and models"
    )
    save_figure(chart, out_png, out_svg)
    log.info("%d jobs, %.1f s of wall time in total", len(table), table["wall_s"].sum())
    return table


def report_dataset_costs(
    costs_tsv: str | Path, dataset: str, out_png: str | Path, out_svg: str | Path
) -> None:
    """The cost of each stage on one dataset, per model (and per shared encoding)."""
    from sparsebench import costs
    from sparsebench.report import figures
    from sparsebench.report.style import save_figure

    rows = costs.dataset_costs(costs.read_cost_table(costs_tsv), dataset)
    save_figure(figures.cost_chart(rows, f"Cost of each stage on {dataset}"), out_png, out_svg)


def report_provenance(
    leaderboard_manifest: str | Path, significance_manifest: str | Path, out_html: str | Path
) -> None:
    """The provenance block: command, versions, dataset and model checksums, settings."""
    from sparsebench.report import tables

    write_text(
        out_html,
        tables.provenance_html(read_json(leaderboard_manifest), read_json(significance_manifest)),
    )
