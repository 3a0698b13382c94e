# The visual report: figures (PNG, with an SVG copy beside each) and HTML tables under
# results/report/, each marked for `snakemake --report report.html`, which packages
# them into one self-contained page (captions in workflow/report/).
REPORT = layout.REPORT


# light plotting: in the Snakemake process, not as a cluster job
localrules:
    visual_report,


from sparsebench.report.contents import ReportContents

PRIMARY_METRIC = config["evaluation"]["primary_metric"]
REPORT_CONTENTS = ReportContents(
    models=tuple(REPORTED_MODELS),
    datasets=tuple(DATASETS),
    pairs=tuple(PAIRS),
    metric=PRIMARY_METRIC,
    significance=config["significance"],
    tuned=tuple((m, d) for m, d in PAIRS if PLAN.kind(m).run_rule == "tune"),
    searched=any(searched_models(m) for m, _ in PAIRS),
)
REPORT_TARGETS = [output.path for output in REPORT_CONTENTS.outputs()]  # for rule all
# how `snakemake --report` files each kind of file: caption (workflow/report/), category,
# subcategory and labels (of the file's wildcards)
REPORT_MARKS = {
    "leaderboard_table": ("leaderboard_table", "1. Leaderboard", None, {"figure": "table"}),
    "leaderboard": ("leaderboard_chart", "1. Leaderboard", None, {"figure": "bars per dataset"}),
    "precision_recall": ("precision_recall", "2. Precision-recall", None, {"dataset": "{dataset}"}),
    "query_differences": (
        "query_differences",
        "3. Per-query differences",
        "{dataset}",
        {"model": "{model}"},
    ),
    "efficiency": (
        "efficiency",
        "1. Leaderboard",
        None,
        {"figure": "effectiveness against cost"},
    ),
    "costs_table": (
        "costs_table",
        "4. Cost of each stage",
        None,
        {"figure": "every job (table)"},
    ),
    "costs": ("costs_overview", "4. Cost of each stage", None, {"figure": "each rule, all datasets"}),
    "dataset_costs": ("costs_dataset", "4. Cost of each stage", None, {"figure": "{dataset}"}),
    "provenance": ("provenance", "5. Provenance", None, None),
    "sweep": ("sweep", "6. Tuning", "{model}", {"dataset": "{dataset}"}),
}


def report_outputs():
    """The report's files and folders, marked for `snakemake --report`: a folder's
    figures are found by their pattern, whose wildcards fill captions and labels."""
    outputs = []
    for output in REPORT_CONTENTS.outputs():
        if output.kind is None:  # an SVG copy
            outputs.append(output.path)
            continue
        caption, category, subcategory, labels = REPORT_MARKS[output.kind]
        marked = report(
            directory(output.path) if output.pattern else output.path,
            patterns=[output.pattern] if output.pattern else [],
            caption=f"../report/{caption}.rst",
            category=category,
            subcategory=subcategory,
            labels=labels,
        )
        outputs.append(marked)
    return outputs


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


rule visual_report:
    message:
        "visual_report: the figures and tables of results/report/ (leaderboard, precision-recall, "
        "per-query differences, efficiency, costs, provenance, sweeps)"
    input:
        **REPORT_CONTENTS.inputs(),
        corpora=corpus_benchmarks,
        every=lambda wc: [job["benchmark"] for job in pipeline_job_records(wc)],
    output:
        report_outputs(),
    threads: 8  # processes drawing figures at once, as many as the cores allow
    params:
        library=library_code("report.stages.write_report"),
        contents=REPORT_CONTENTS.as_settings(),
        jobs=pipeline_job_records,
    log:
        log_path("visual_report"),
    benchmark:
        benchmark_path("visual_report")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/visual_report.py"
