# Metrics per (model x dataset), then the leaderboard over all pairs.
COMPARED = (
    "every pair of models"
    if config["significance"]["all_pairs"]
    else f"every model against {config['significance']['baseline']}"
)


rule evaluate:
    message:
        "evaluate: every metric of {wildcards.model} on {wildcards.dataset}, per query and mean"
    input:
        run="results/runs/{model}/{dataset}.trec",
        qrels="results/data/{dataset}/qrels.tsv",
        info="results/data/{dataset}/dataset.json",
    output:
        metrics="results/eval/{model}/{dataset}/metrics.json",
        per_query="results/eval/{model}/{dataset}/per_query.tsv",
        manifest="results/eval/{model}/{dataset}/manifest.json",
    params:
        library=library_code("evaluate.stages.evaluate", "evaluate.stages.evaluation_manifest"),
        evaluation=lambda wc: sbparams.evaluation_params(config, wc.dataset),
        model=lambda wc: sbparams.model_fingerprint(model_config(wc), language(wc)),
    log:
        "results/logs/evaluate/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/evaluate/{model}/{dataset}.tsv"
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/evaluate.py"


use rule evaluate as evaluate_tuning with:
    message:
        "evaluate_tuning: every metric of {wildcards.model} on {wildcards.dataset}, training "
        "queries"
    input:
        run="results/tuning/runs/{model}/{dataset}.trec",
        qrels="results/data/{dataset}/qrels.tuning.tsv",
        info="results/data/{dataset}/dataset.json",
    output:
        metrics="results/tuning/eval/{model}/{dataset}/metrics.json",
        per_query="results/tuning/eval/{model}/{dataset}/per_query.tsv",
        manifest="results/tuning/eval/{model}/{dataset}/manifest.json",
    log:
        "results/logs/evaluate_tuning/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/evaluate_tuning/{model}/{dataset}.tsv"


rule significance:
    message:
        f"significance: paired tests of {COMPARED} on every dataset, and 95% intervals"
    input:
        per_query=pair_files("per_query.tsv"),
    output:
        table="results/significance.tsv",
        markdown="results/significance.md",
        manifest="results/significance.manifest.json",
        intervals="results/intervals.tsv",
    params:
        library=library_code("evaluate.stages.significance"),
        settings=lambda wc: {**config["significance"], "metrics": sbconfig.significance_metrics(config)},
        models=REPORTED_MODELS,
        datasets=DATASETS,
    log:
        "results/logs/significance.log",
    benchmark:
        "results/benchmarks/significance.tsv"
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/significance.py"


rule leaderboard:
    message:
        f"leaderboard: {config['evaluation']['primary_metric']} of every model on every "
        "dataset, with the reproduction check"
    input:
        metrics=pair_files("metrics.json"),
        infos=expand("results/data/{dataset}/dataset.json", dataset=DATASETS),
        significance="results/significance.tsv",
        selections=[
            f"results/tuning/{m}/{d}/selection.json" for m, d in PAIRS if m in TUNED_MODELS
        ],
    output:
        table="results/leaderboard.tsv",
        long="results/metrics.tsv",
        markdown="results/leaderboard.md",
        manifest="results/leaderboard.manifest.json",
        reproduction="results/reproduction.tsv",
    params:
        library=library_code("evaluate.stages.leaderboard"),
        metric=config["evaluation"]["primary_metric"],
        models=REPORTED_MODELS,
        datasets=DATASETS,
        reproduction=config["reproduction"],
    log:
        "results/logs/leaderboard.log",
    benchmark:
        "results/benchmarks/leaderboard.tsv"
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/leaderboard.py"
