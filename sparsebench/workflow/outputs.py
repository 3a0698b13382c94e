"""Every file the workflow writes under results/: its path (the patterns of
sparsebench.workflow.layout), the rules that write it, what it holds, and the columns of
its table or the top-level keys of its JSON record, taken from the constants its writer
uses where it has them. docs/reference/outputs.md is made from here, and
tests/workflow/test_outputs_registry.py holds a real run's files against it, so that
neither can drift from what the jobs write.

Kept as one module: one registry, listed by the docs in this order and read whole by the
test; split by area, each part would repeat the conditions and helpers it shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from sparsebench.data.corpusfile import CORPUS_SCHEMA
from sparsebench.data.prepare import QUERIES_SCHEMA
from sparsebench.evaluate import columns, comparisons, efficiency, published
from sparsebench.evaluate.coverage import MANIFEST_KEY
from sparsebench.runs.stream import RUN_COLUMNS
from sparsebench.workflow import layout
from sparsebench.workflow.plan import corpus_name, encoding_name

# The configurations that make what a default run does not: an entry's, a field's or a
# rule's `when`.
BEIR = "a dataset of `source: beir` whose archive is not in place yet"
SUBSAMPLE = "a dataset with `subsample:`"
WHOLE = "a corpus read from its source, not a `subsample:`"
SINGLE = "`retrieval.partitions: 1` (the default)"
PARTITIONED = "`retrieval.partitions` above 1"
SWEEP = "a model with a parameter sweep: a `{grid: [...]}` or `{range: [...]}` value"
ON_SPLIT = "a sweep chosen on the dataset's training split: `tune.method` split, or auto with one"
CROSS_VALIDATED = "a sweep chosen by cross-validation: `tune.method` cv, or auto without a split"
IMPORTED = "a model of `kind: run`"
FUSED = "a model of `kind: fusion`"
MULTIFIELD = "a lexical model with `fields:`"
SEARCHED = "a model searched here, not only runs imported or fused"
COMPARED = "a model besides `significance.baseline` on the dataset"
UNGROUPED = "a dataset outside a `group:`, whose column has none"
OPTIMISTIC = "a primary metric with an unjudged=relevant form: not Judged, nor a primed one"
PARTIAL_RUN = "a run that misses judged queries"

# The rules whose jobs only some configurations have (the others run in every experiment).
RULE_WHEN = {
    "download_beir": BEIR,
    "stack_shards": SINGLE,
    "vocabulary": PARTITIONED,
    "term_weights": SINGLE,
    "partition_statistics": PARTITIONED,
    "global_statistics": PARTITIONED,
    "partition_postings": PARTITIONED,
    "retrieve": SINGLE,
    "retrieve_tuning": f"{SINGLE} and {ON_SPLIT}",
    "retrieve_partition": PARTITIONED,
    "merge_runs": PARTITIONED,
    "merge_runs_tuning": f"{PARTITIONED} and {ON_SPLIT}",
    "import_run": IMPORTED,
    "fuse": FUSED,
    "fuse_tuning": f"{FUSED} and {ON_SPLIT}",
    "evaluate_tuning": ON_SPLIT,
    "tune": SWEEP,
}

# what the braces of a path, a column or a key stand for
WILDCARDS = {
    "dataset": "a dataset of the config",
    "model": "a model of the config, a sweep's variants among them",
    "corpus": f"the documents one or more datasets read, named {corpus_name.__doc__}",
    "encoder": f"a document encoding, named {encoding_name.__doc__}",
    "query_encoder": "a query encoding, named likewise",
    "queryset": " or ".join(f"`{q}`" for q in layout.QUERYSETS)
    + " (a training split's queries, for sweeps)",
    "shard": "the number of a shard of `corpus.shard_size` documents, from 0",
    "partition": "the number of a partition of a corpus's shards, from 0",
    "name": "the name of a BEIR archive",
    "metric": "a metric measured: `evaluation.metrics`, or those of `evaluation.cutoffs`",
    "parameter": "a parameter a sweep varies",
    "split": "the training split's name",
    "fold": "the number of a cross-validation fold, from 0",
}

AREAS = {
    "data": "Corpora and data",
    "encodings": "Encodings and models",
    "runs": "Runs",
    "evaluation": "Evaluation",
    "reports": "Leaderboard and reports",
    "logs": "Logs and benchmarks",
}
TABLES = (".tsv", ".parquet", ".trec")  # their fields are columns; a .json's are keys


@dataclass(frozen=True)
class Field:
    """A column of a table or a top-level key of a JSON record: a name, or a pattern whose
    braces stand for names the experiment gives (`sig:{dataset}`: one per dataset);
    `when`: the configuration that adds it (empty: always there)."""

    name: str
    when: str = ""


@dataclass(frozen=True)
class Output:
    """A file under results/: its path pattern, the rules that write it, what it holds,
    its fields (in their order) and the configuration that makes it (empty: every run)."""

    path: str
    rules: tuple[str, ...]
    about: str
    area: str
    fields: tuple[Field, ...] = ()
    when: str = ""

    @property
    def field_kind(self) -> str:
        return "columns" if self.path.endswith(TABLES) else "keys"


def _fields(*names: str | Field) -> tuple[Field, ...]:
    return tuple(n if isinstance(n, Field) else Field(n) for n in names)


def _under(path: str) -> str:
    """A layout path, relative to results/."""
    return path.removeprefix("results/")


def _manifest(*extra: str) -> tuple[Field, ...]:
    """The keys of a stage's manifest (core.provenance.manifest) with its `extra` ones."""
    before = ("stage", "settings", "settings_sha256", "inputs")
    return _fields(*before, *extra, "versions", "command", "host", "started", "finished")


_data = partial(Output, area="data")
_encodings = partial(Output, area="encodings")
_runs = partial(Output, area="runs")
_evaluation = partial(Output, area="evaluation")
_reports = partial(Output, area="reports")


def _figure(stem: str, rule: str, about: str, when: str = "") -> tuple[Output, Output]:
    """A report figure: its PNG, and the SVG copy every figure has beside it."""
    return (
        _reports(f"{stem}.png", (rule,), about, when=when),
        _reports(f"{stem}.svg", (rule,), "the same, as SVG", when=when),
    )


CORPUS = _under(layout.CORPUS)
DATA = _under(layout.DATA)
ENCODED = _under(layout.ENCODED)
QUERIES = _under(layout.ENCODED_QUERIES)
WEIGHTS = _under(layout.WEIGHTS)
PARTITION = _under(layout.PARTITION)
# a cost record of one search (retrieve.costs.cost_record)
COST_KEYS = _fields(
    "schema",
    "documents",
    "terms",
    "postings",
    "index_bytes",
    "document_nonzeros",
    "queries",
    "query_nonzeros",
    "postings_touched",
    "latency_ms",
    "seconds",
    "cpu",
    "cpu_count",
    "threads",
    "backend",
    "device",
    "query_batch_size",
)
MERGED_COST_KEYS = (*COST_KEYS, Field("partitions", PARTITIONED))
# Written inline where constants would rerun costly stages (a module's edit reruns the
# stages that reach it: workflow.codehash): qrels' header (data.qrels.write_qrels) and
# per_query.tsv's (evaluate.metrics.per_query_tsv); and report/costs.tsv's
# (report.costs.COLUMNS, which report/ keeps: it stands on workflow/). The test of this
# registry holds them against a run's files.
QRELS_COLUMNS = _fields("query-id", "corpus-id", "score")
JOB_COST_COLUMNS = _fields(
    *("rule", "dataset", "model", "encoder", "shard", "models"),
    *("wall_s", "cpu_s", "peak_rss_mib", "benchmark"),
)
EVALUATION_KEYS = {
    "metrics.json": _fields("{metric}"),
    "per_query.tsv": _fields("query_id", "metric", "value"),
    "manifest.json": _manifest(
        "model_sha256", "model", "dataset", "n_queries", "metrics", MANIFEST_KEY
    ),
}
EVALUATION_ABOUT = {
    "metrics.json": "the mean of every metric over the judged queries (`evaluation`)",
    "per_query.tsv": "every metric of every judged query, long",
    "manifest.json": "what produced the metrics: settings and their hash, the model's and "
    "the dataset's checksums, the run's, the judged queries it covers, versions, command",
}

DATA_OUTPUTS = [
    _data(
        _under(layout.DOWNLOAD),
        ("download_beir",),
        "a BEIR archive, checked against its md5",
        when=BEIR,
    ),
    _data(
        f"{CORPUS}/corpus.parquet",
        ("prepare_corpus",),
        "the documents, once per corpus however many datasets read them (title null "
        "where the source has none)",
        fields=_fields(*CORPUS_SCHEMA.names),
    ),
    _data(
        f"{CORPUS}/corpus.json",
        ("prepare_corpus",),
        "the corpus's identity, source, counts, empty documents and checksum",
        fields=_fields(
            "name",
            "identity",
            "source",
            "n_docs",
            Field("n_empty_docs", WHOLE),
            Field("empty_doc_ids", WHOLE),
            Field("subsample", SUBSAMPLE),
            "files",
        ),
    ),
    _data(
        f"{DATA}/queries.parquet",
        ("prepare",),
        "the dataset's queries",
        fields=_fields(*QUERIES_SCHEMA.names),
    ),
    _data(
        f"{DATA}/{layout.QRELS['evaluation']}",
        ("prepare",),
        "the judgments of the evaluated split, normalised (BEIR TSV, sorted), checked "
        "against the corpus",
        fields=QRELS_COLUMNS,
    ),
    _data(
        f"{DATA}/{layout.QRELS['tuning']}",
        ("prepare",),
        "the judgments of the training split that sweeps may choose on (`tuning_split`); "
        "a header alone when there is none",
        fields=QRELS_COLUMNS,
    ),
    _data(
        f"{DATA}/dataset.json",
        ("prepare",),
        "the dataset's split, settings, source, corpus, counts, grades, judgments of "
        "documents the corpus lacks (`unknown_judged_documents`: kept or dropped, how many, "
        "the first 100 ids), training split and checksums",
        fields=_fields(
            "name",
            "split",
            "settings",
            "source",
            "corpus",
            "n_queries",
            "n_judged_queries",
            "n_judged_queries_without_relevant",
            "n_qrels",
            "unknown_judged_documents",
            "n_unknown_judged_documents",
            "unknown_judged_document_ids",
            "grades",
            "tuning_split",
            "n_tuning_queries",
            "n_empty_queries",
            "empty_query_ids",
            "files",
        ),
    ),
]

ENCODING_OUTPUTS = [
    _encodings(
        f"{ENCODED}/shards/{{shard}}.npz",
        ("encode_corpus_shard",),
        "one shard of `corpus.shard_size` documents encoded (CSR, shard-local term ids)",
    ),
    _encodings(
        f"{ENCODED}/shards/{{shard}}.terms.txt",
        ("encode_corpus_shard",),
        "the shard's terms, one a line, in the order of its term ids",
    ),
    _encodings(
        f"{ENCODED}/shards/{{shard}}.cost.json",
        ("encode_corpus_shard",),
        "what encoding the shard cost (efficiency.tsv's encoding columns)",
        fields=_fields("documents", "seconds", "load_seconds", "device", "threads", "cpu"),
    ),
    _encodings(
        f"{ENCODED}/corpus.npz",
        ("stack_shards",),
        "the shards stacked into one documents x terms matrix over the union vocabulary",
        when=SINGLE,
    ),
    _encodings(
        f"{ENCODED}/vocab.txt",
        ("stack_shards", "vocabulary"),
        "the corpus encoding's terms, one a line",
    ),
    _encodings(
        f"{ENCODED}/doc_ids.txt",
        ("stack_shards",),
        "the document ids, one a line, in corpus order",
        when=SINGLE,
    ),
    _encodings(
        f"{QUERIES}/queries.npz",
        ("encode_queries",),
        "the judged queries of a query set (`evaluation`, or `tuning`: a training split's) "
        "encoded in the corpus vocabulary",
    ),
    _encodings(f"{QUERIES}/query_ids.txt", ("encode_queries",), "their ids, one a line"),
    _encodings(
        f"{QUERIES}/query_norms.npy",
        ("encode_queries",),
        "each query's L1 and L2 norms before unseen terms drop out (what feedback "
        "scales a query by)",
    ),
    _encodings(
        f"{WEIGHTS}/postings.npz",
        ("term_weights",),
        "the model's document weights, term-major, with the documents' ids",
        when=SINGLE,
    ),
    _encodings(
        f"{WEIGHTS}/idf.npy",
        ("term_weights", "global_statistics"),
        "the weight of every term of the vocabulary in the queries (IDF or ones)",
    ),
    _encodings(
        f"{WEIGHTS}/term_stats.json",
        ("term_weights", "global_statistics"),
        "what the weighing counted: documents, vocabulary, postings, lengths, IDF range",
        fields=_fields(
            "n_docs",
            "statistics",
            "vocabulary",
            "postings",
            "avg_doc_length",
            "idf",
            "idf_min",
            "idf_max",
            "weighting",
            Field("fields", MULTIFIELD),
            Field("partitions", PARTITIONED),
        ),
    ),
    _encodings(
        f"{WEIGHTS}/statistics.npz",
        ("global_statistics",),
        "the corpus statistics, summed over the partitions",
        when=PARTITIONED,
    ),
    _encodings(
        f"{PARTITION}/statistics.npz",
        ("partition_statistics",),
        "document frequencies and lengths of one partition",
        when=PARTITIONED,
    ),
    _encodings(
        f"{PARTITION}/postings.npz",
        ("partition_postings",),
        "one partition's document weights, weighed with the corpus statistics",
        when=PARTITIONED,
    ),
    _encodings(
        f"{PARTITION}/doc_ids.txt",
        ("partition_postings",),
        "the partition's document ids, one a line",
        when=PARTITIONED,
    ),
]

RUN_OUTPUTS = [
    _runs(
        _under(layout.RUN["evaluation"]),
        ("retrieve", "merge_runs", "import_run", "fuse", "tune"),
        "the run: top `retrieval.k` per query, sorted, real ranks (a TREC run, no header)",
        fields=_fields(*RUN_COLUMNS),
    ),
    _runs(
        _under(layout.COST["evaluation"]),
        ("retrieve", "merge_runs"),
        "what the search cost, as the retrieval stage measured it (efficiency.tsv's row)",
        fields=MERGED_COST_KEYS,
    ),
    _runs(
        _under(layout.PARTITION_RUN),
        ("retrieve_partition",),
        "one partition's run, before the merge",
        fields=_fields(*RUN_COLUMNS),
        when=PARTITIONED,
    ),
    _runs(
        _under(layout.PARTITION_COST),
        ("retrieve_partition",),
        "what one partition's search cost",
        fields=COST_KEYS,
        when=PARTITIONED,
    ),
    _runs(
        _under(layout.RUN["tuning"]),
        ("retrieve_tuning", "merge_runs_tuning", "fuse_tuning"),
        "a sweep variant's run of the training split's queries",
        fields=_fields(*RUN_COLUMNS),
        when=ON_SPLIT,
    ),
    _runs(
        _under(layout.COST["tuning"]),
        ("retrieve_tuning", "merge_runs_tuning"),
        "what that search cost",
        fields=MERGED_COST_KEYS,
        when=ON_SPLIT,
    ),
]

EVALUATION_OUTPUTS = [
    *(
        _evaluation(
            f"{_under(layout.EVAL['evaluation'])}/{name}",
            ("evaluate",),
            about,
            fields=EVALUATION_KEYS[name],
        )
        for name, about in EVALUATION_ABOUT.items()
    ),
    *(
        _evaluation(
            f"{_under(layout.EVAL['tuning'])}/{name}",
            ("evaluate_tuning",),
            f"as eval/, of a sweep variant on the training split: {about}",
            fields=EVALUATION_KEYS[name],
            when=ON_SPLIT,
        )
        for name, about in EVALUATION_ABOUT.items()
    ),
    _evaluation(
        f"{_under(layout.TUNING)}/selection.json",
        ("tune",),
        "how the tuned model's point was chosen: per fold (or once, on the training "
        "split) the variant, its point, training and held-out scores",
        fields=_fields(
            "model",
            "dataset",
            "parameters",
            "metric",
            "method",
            "folds",
            "seed",
            "chosen_by",
            "choices",
            Field("held_out_mean_of_folds", CROSS_VALIDATED),
        ),
        when=SWEEP,
    ),
    _evaluation(
        f"{_under(layout.TUNING)}/surface.tsv",
        ("tune",),
        "the tuning metric over the grid: one row per variant, its parameters and means",
        fields=_fields(
            "variant",
            "{parameter}",
            Field("mean_{split}_queries", ON_SPLIT),
            Field("mean_all_queries", CROSS_VALIDATED),
            Field("train_mean_fold{fold}", CROSS_VALIDATED),
        ),
        when=SWEEP,
    ),
    _evaluation(
        "significance.tsv",
        ("significance",),
        "paired tests of every model against the baseline (or every pair), per dataset, "
        "metric and test, corrected",
        fields=_fields(*comparisons.COLUMNS),
    ),
    _evaluation(
        "significance.md",
        ("significance",),
        "the tests as tables, one per dataset, and a summary across datasets",
    ),
    _evaluation(
        "significance.manifest.json",
        ("significance",),
        "what produced the tests: settings, inputs' checksums, models, versions, command",
        fields=_manifest("tests", "correction", "alpha", "resamples", "seed", "models"),
    ),
    _evaluation(
        "intervals.tsv",
        ("significance",),
        "each model's score per dataset and metric with its 95% bootstrap interval",
        fields=_fields(*comparisons.INTERVAL_COLUMNS),
    ),
]


def _per_dataset(*prefixes: str) -> tuple[Field, ...]:
    return _fields(*(f"{prefix}{{dataset}}" for prefix in prefixes))


# what each kind of file of the visual report (layout.REPORT_FILES) shows, its
# fields, and the configuration that makes it
VISUAL_REPORT: dict[str, tuple[str, tuple[Field, ...], str]] = {
    "leaderboard_table": ("the leaderboard table", (), ""),
    "leaderboard": ("the primary metric as bars per dataset with 95% intervals", (), ""),
    "precision_recall": ("11-point precision-recall curves of every model on the dataset", (), ""),
    "query_differences": ("the model minus the baseline, query by query, sorted", (), COMPARED),
    "efficiency": ("the primary metric of every model against its FLOPS and latency", (), SEARCHED),
    "costs_table": (
        "wall time, CPU time and peak memory of every pipeline job, from its benchmark file",
        JOB_COST_COLUMNS,
        "",
    ),
    "costs": ("those costs per rule", (), ""),
    "dataset_costs": ("the costs of each stage on the dataset, per model", (), ""),
    "provenance": ("command, versions, dataset and model checksums and configuration", (), ""),
    "sweep": ("a tuned model's grid and its chosen point", (), SWEEP),
}


def _report_file(
    path: str, figure: bool, about: str, fields: tuple[Field, ...], when: str
) -> tuple[Output, ...]:
    """A file of the visual report (rule visual_report); a figure's PNG with its SVG copy;
    a kind drawn per dataset or pair fills a folder that the job declares, and that
    Snakemake marks with the time it was written."""
    files = (
        _figure(path, "visual_report", about, when)
        if figure
        else (_reports(path, ("visual_report",), about, fields=fields, when=when),)
    )
    folder = layout.report_folder(path)
    if folder is None:
        return files
    stamp = "Snakemake's mark of when the job wrote the folder"
    return (
        *files,
        _reports(f"{folder[0]}/.snakemake_timestamp", ("visual_report",), stamp, when=when),
    )


REPORT_OUTPUTS = [
    _reports(
        "leaderboard.tsv",
        ("leaderboard",),
        "the primary metric, a row per model and a column per dataset (a `group:`'s "
        "datasets: one column, their mean), with the average, the significance marks, "
        "Judged@10, the optimistic score and the costs that repeat exactly",
        fields=(
            *_fields(columns.INDEX, "{dataset}", columns.AVERAGE),
            Field(f"{columns.MARK_PREFIX}{{dataset}}", UNGROUPED),
            *_per_dataset(columns.JUDGED_PREFIX),
            Field(f"{columns.OPTIMISTIC_PREFIX}{{dataset}}", OPTIMISTIC),
            *_per_dataset(*columns.COST_COLUMNS),
            Field(columns.TUNING, SWEEP),
            Field(columns.PARTIAL, PARTIAL_RUN),
        ),
    ),
    _reports(
        "leaderboard.md",
        ("leaderboard",),
        "the leaderboard to read: four decimals, marks, notes, Judged@10, reproduction "
        "and efficiency tables, provenance",
    ),
    _reports(
        "leaderboard.tex",
        ("leaderboard",),
        "the leaderboard for a paper (booktabs, significance letters)",
    ),
    _reports(
        "leaderboard.manifest.json",
        ("leaderboard",),
        "what produced the leaderboard: the experiment's settings, datasets' checksums, "
        "models' settings and their hashes, versions, command",
        fields=_manifest(
            "primary_metric", "datasets", "models", "model_provenance", "model_settings"
        ),
    ),
    _reports(
        "metrics.tsv",
        ("leaderboard",),
        "every metric of every pair, long",
        fields=_fields(*columns.LONG_COLUMNS),
    ),
    _reports(
        "reproduction.tsv",
        ("leaderboard",),
        "every measured figure that has a published counterpart (`reproduction`), held "
        "against it: OK, OKISH, FAIL or not comparable",
        fields=_fields(*published.RESULT_COLUMNS),
    ),
    _reports(
        "efficiency.tsv",
        ("leaderboard",),
        "each searched pair's cost beside its score: index, non-zeros, FLOPS, postings "
        "touched, throughput, latency, encoding speed (a tuned model: its chosen variant's)",
        fields=_fields(*efficiency.COLUMNS),
    ),
    *(
        output
        for kind, (pattern, figure) in layout.REPORT_FILES.items()
        for output in _report_file(_under(pattern), figure, *VISUAL_REPORT[kind])
    ),
]

LOG_OUTPUTS = [
    Output(
        _under(path(rule)),
        (rule,),
        about,
        "logs",
        when=RULE_WHEN.get(rule, ""),
    )
    for rule in layout.RULES
    for path, about in (
        (layout.log_path, "the job's log"),
        (layout.benchmark_path, "Snakemake's benchmark of the job (wall and CPU time, memory)"),
    )
]

OUTPUTS = [
    *DATA_OUTPUTS,
    *ENCODING_OUTPUTS,
    *RUN_OUTPUTS,
    *EVALUATION_OUTPUTS,
    *REPORT_OUTPUTS,
    *LOG_OUTPUTS,
]
