# The visual report: figures (PNG, with an SVG copy beside each) and HTML tables under
# results/report/, each marked for `snakemake --report report.html`, which packages
# them into one self-contained page (captions in workflow/report/).
REPORT = layout.REPORT


# light plotting: in the Snakemake process, not as cluster jobs
localrules:
    report_leaderboard,
    report_precision_recall,
    report_query_differences,
    report_efficiency,
    report_costs,
    report_dataset_costs,
    report_provenance,
    report_sweep,


BASELINE = config["significance"]["baseline"]
PRIMARY_METRIC = config["evaluation"]["primary_metric"]
# datasets with at least one evaluated model, and the pairs compared with the baseline
REPORT_DATASETS = [d for d in DATASETS if any(d == covered for _, covered in PAIRS)]
DIFFERENCE_PAIRS = [(m, d) for m, d in PAIRS if m != BASELINE and (BASELINE, d) in PAIRS]
TUNED_PAIRS = [(m, d) for m, d in PAIRS if PLAN.kind(m).run_rule == "tune"]
REPORT_FILES = [
    f"{REPORT}/leaderboard.html",
    f"{REPORT}/leaderboard.png",
    *[f"{REPORT}/precision_recall/{d}.png" for d in REPORT_DATASETS],
    *[f"{REPORT}/query_differences/{m}/{d}.png" for m, d in DIFFERENCE_PAIRS],
    *([f"{REPORT}/efficiency.png"] if any(searched_models(m) for m, _ in PAIRS) else []),
    f"{REPORT}/costs.tsv",
    f"{REPORT}/costs.png",
    *[f"{REPORT}/costs/{d}.png" for d in DATASETS],
    f"{REPORT}/provenance.html",
    *[f"{REPORT}/sweeps/{m}/{d}.png" for m, d in TUNED_PAIRS],
]


def pipeline_job_records(wildcards):
    """Every pipeline job of the plan (the report's own excluded), as cost-table records;
    the shard counts are known once the corpora are prepared, and whether sweeps choose
    on a training split once the datasets are."""
    shards = corpus_shard_counts()
    training = {
        d: bool(read_json(checkpoints.prepare.get(dataset=d).output.info)["tuning_split"])
        for d in DATASETS
    }
    return [job.record() for job in pipeline_jobs(PLAN, shards, training) if job_ran(job)]


def corpus_benchmarks(wildcards):
    """The benchmark files of the jobs known once the corpora are prepared, asked for on
    their own: a job among them whose file a hard kill left unwritten is then redone
    before the jobs that read its outputs start, not beside them once the datasets are
    prepared."""
    jobs = corpus_jobs(PLAN, corpus_shard_counts())
    return [job.benchmark for job in jobs if job_ran(job)]


def corpus_shard_counts():
    return {corpus: corpus_shards(corpus) for corpus in PLAN.corpora}


def job_ran(job):
    """Not a download of an archive the user put in place: it had no job, and asking for
    its benchmark would schedule one (Snakemake would delete the archive first)."""
    return job.rule != "download_beir" or Path(job.benchmark).exists()


rule report_leaderboard:
    message:
        f"report_leaderboard: {PRIMARY_METRIC} of every model as a table and as bars per "
        "dataset with 95% intervals"
    input:
        table="results/leaderboard.tsv",
        intervals="results/intervals.tsv",
        significance="results/significance.tsv",
    output:
        html=report(
            f"{REPORT}/leaderboard.html",
            caption="../report/leaderboard_table.rst",
            category="1. Leaderboard",
            labels={"figure": "table"},
        ),
        png=report(
            f"{REPORT}/leaderboard.png",
            caption="../report/leaderboard_chart.rst",
            category="1. Leaderboard",
            labels={"figure": "bars per dataset"},
        ),
        svg=f"{REPORT}/leaderboard.svg",
    params:
        library=library_code("report.stages.report_leaderboard"),
        metric=PRIMARY_METRIC,
        significance=config["significance"],
        models=REPORTED_MODELS,
        datasets=DATASETS,
    log:
        log_path("report_leaderboard"),
    benchmark:
        benchmark_path("report_leaderboard")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/report_leaderboard.py"


rule report_precision_recall:
    message:
        "report_precision_recall: 11-point precision-recall curves of every model on "
        "{wildcards.dataset}"
    input:
        metrics=lambda wc: [
            f"{layout.EVAL['evaluation'].format(model=m, dataset=d)}/metrics.json"
            for m, d in PAIRS
            if d == wc.dataset
        ],
    output:
        png=report(
            f"{REPORT}/precision_recall/{{dataset}}.png",
            caption="../report/precision_recall.rst",
            category="2. Precision-recall",
            labels={"dataset": "{dataset}"},
        ),
        svg=f"{REPORT}/precision_recall/{{dataset}}.svg",
    params:
        library=library_code("report.stages.report_precision_recall"),
        models=lambda wc: [m for m, d in PAIRS if d == wc.dataset],
    log:
        log_path("report_precision_recall"),
    benchmark:
        benchmark_path("report_precision_recall")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/report_precision_recall.py"


rule report_query_differences:
    message:
        "report_query_differences: {wildcards.model} on {wildcards.dataset} minus "
        f"{BASELINE}, query by query, sorted ({PRIMARY_METRIC})"
    input:
        model="results/eval/{model}/{dataset}/per_query.tsv",
        baseline=f"results/eval/{BASELINE}/{{dataset}}/per_query.tsv",
        significance="results/significance.tsv",
    output:
        png=report(
            f"{REPORT}/query_differences/{{model}}/{{dataset}}.png",
            caption="../report/query_differences.rst",
            category="3. Per-query differences",
            subcategory="{dataset}",
            labels={"model": "{model}"},
        ),
        svg=f"{REPORT}/query_differences/{{model}}/{{dataset}}.svg",
    params:
        library=library_code("report.stages.report_query_differences"),
        metric=PRIMARY_METRIC,
        significance=config["significance"],
    log:
        log_path("report_query_differences"),
    benchmark:
        benchmark_path("report_query_differences")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/report_query_differences.py"


rule report_efficiency:
    message:
        f"report_efficiency: {PRIMARY_METRIC} of every model against its FLOPS and latency"
    input:
        efficiency="results/efficiency.tsv",
        metrics="results/metrics.tsv",
        leaderboard="results/leaderboard.tsv",
    output:
        png=report(
            f"{REPORT}/efficiency.png",
            caption="../report/efficiency.rst",
            category="1. Leaderboard",
            labels={"figure": "effectiveness against cost"},
        ),
        svg=f"{REPORT}/efficiency.svg",
    params:
        library=library_code("report.stages.report_efficiency"),
        metric=PRIMARY_METRIC,
        models=REPORTED_MODELS,
        datasets=DATASETS,
    log:
        log_path("report_efficiency"),
    benchmark:
        benchmark_path("report_efficiency")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/report_efficiency.py"


rule report_costs:
    message:
        "report_costs: wall time and peak memory of every pipeline job, from the benchmark files"
    input:
        corpora=corpus_benchmarks,
        every=lambda wc: [job["benchmark"] for job in pipeline_job_records(wc)],
    output:
        table=report(
            f"{REPORT}/costs.tsv",
            caption="../report/costs_table.rst",
            category="4. Cost of each stage",
            labels={"figure": "every job (table)"},
        ),
        png=report(
            f"{REPORT}/costs.png",
            caption="../report/costs_overview.rst",
            category="4. Cost of each stage",
            labels={"figure": "each rule, all datasets"},
        ),
        svg=f"{REPORT}/costs.svg",
    params:
        library=library_code("report.stages.report_costs"),
        jobs=pipeline_job_records,
    log:
        log_path("report_costs"),
    benchmark:
        benchmark_path("report_costs")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/report_costs.py"


rule report_dataset_costs:
    message:
        "report_dataset_costs: wall time and peak memory of each stage on {wildcards.dataset}, "
        "per model"
    input:
        table=f"{REPORT}/costs.tsv",
    output:
        png=report(
            f"{REPORT}/costs/{{dataset}}.png",
            caption="../report/costs_dataset.rst",
            category="4. Cost of each stage",
            labels={"figure": "{dataset}"},
        ),
        svg=f"{REPORT}/costs/{{dataset}}.svg",
    params:
        library=library_code("report.stages.report_dataset_costs"),
    log:
        log_path("report_dataset_costs"),
    benchmark:
        benchmark_path("report_dataset_costs")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/report_dataset_costs.py"


rule report_provenance:
    message:
        "report_provenance: command, versions, dataset and model checksums and configuration"
    input:
        leaderboard="results/leaderboard.manifest.json",
        significance="results/significance.manifest.json",
    output:
        html=report(
            f"{REPORT}/provenance.html",
            caption="../report/provenance.rst",
            category="5. Provenance",
        ),
    params:
        library=library_code("report.stages.report_provenance"),
    log:
        log_path("report_provenance"),
    benchmark:
        benchmark_path("report_provenance")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/report_provenance.py"


rule report_sweep:
    message:
        "report_sweep: the grid of {wildcards.model} on {wildcards.dataset} and its chosen point"
    input:
        surface="results/tuning/{model}/{dataset}/surface.tsv",
        selection="results/tuning/{model}/{dataset}/selection.json",
    output:
        png=report(
            f"{REPORT}/sweeps/{{model}}/{{dataset}}.png",
            caption="../report/sweep.rst",
            category="6. Tuning",
            subcategory="{model}",
            labels={"dataset": "{dataset}"},
        ),
        svg=f"{REPORT}/sweeps/{{model}}/{{dataset}}.svg",
    params:
        library=library_code("report.stages.report_sweep"),
    log:
        log_path("report_sweep"),
    benchmark:
        benchmark_path("report_sweep")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/report_sweep.py"
