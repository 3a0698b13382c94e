# Metrics per (model x dataset), then the leaderboard over all pairs.


rule evaluate:
    input:
        run="results/runs/{model}/{dataset}.trec",
        qrels="results/data/{dataset}/qrels.tsv",
        info="results/data/{dataset}/dataset.json",
    output:
        metrics="results/eval/{model}/{dataset}/metrics.json",
        per_query="results/eval/{model}/{dataset}/per_query.tsv",
        manifest="results/eval/{model}/{dataset}/manifest.json",
    params:
        library=library_code("evaluate"),
        evaluation=sbconfig.evaluation_params(config),
        model=lambda wc: sbconfig.model_fingerprint(model_config(wc), language(wc)),
    log:
        "results/logs/evaluate/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/evaluate/{model}/{dataset}.tsv"
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/evaluate.py"


use rule evaluate as evaluate_tuning with:
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
    input:
        per_query=pair_files("per_query.tsv"),
    output:
        table="results/significance.tsv",
        markdown="results/significance.md",
        manifest="results/significance.manifest.json",
    params:
        library=library_code("significance"),
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
        library=library_code("leaderboard"),
        metric=config["evaluation"]["primary_metric"],
        models=REPORTED_MODELS,
        datasets=DATASETS,
        reproduction=config["reproduction"],
    log:
        "results/logs/leaderboard.log",
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/leaderboard.py"
