# Metrics per (model x dataset), then the significance tests and the leaderboard over all
# pairs.
from sparsebench.workflow.config import experiment_settings, significance_metrics

EXPERIMENT = experiment_settings(config)  # the config without its speed settings
COMPARED = (
    "every pair of models"
    if config["significance"]["all_pairs"]
    else f"every model against {config['significance']['baseline']}"
)


def corpus_file(name):
    """Input function: a file of the dataset's corpus."""
    return lambda wc: f"{CORPUS.format(corpus=PLAN.corpus_of[wc.dataset])}/{name}"


rule evaluate:
    message:
        "evaluate: every metric of {wildcards.model} on {wildcards.dataset}, per query and mean"
    input:
        run=layout.RUN["evaluation"],
        qrels=f"{DATA}/qrels.tsv",
        info=f"{DATA}/dataset.json",
        corpus_info=corpus_file("corpus.json"),
    output:
        metrics=f"{layout.EVAL['evaluation']}/metrics.json",
        per_query=f"{layout.EVAL['evaluation']}/per_query.tsv",
        manifest=f"{layout.EVAL['evaluation']}/manifest.json",
    params:
        library=library_code("evaluate.stages.evaluate", "evaluate.stages.evaluation_manifest"),
        evaluation=lambda wc: PLAN.evaluation_settings(wc.dataset),
        model=lambda wc: EXPERIMENT["models"][wc.model],
        fingerprint=lambda wc: PLAN.fingerprint(wc.model, wc.dataset),
    log:
        log_path("evaluate"),
    benchmark:
        benchmark_path("evaluate")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/evaluate.py"


use rule evaluate as evaluate_tuning with:
    message:
        "evaluate_tuning: every metric of {wildcards.model} on {wildcards.dataset}, training "
        "queries"
    input:
        run=layout.RUN["tuning"],
        qrels=f"{DATA}/qrels.tuning.tsv",
        info=f"{DATA}/dataset.json",
        corpus_info=corpus_file("corpus.json"),
    output:
        metrics=f"{layout.EVAL['tuning']}/metrics.json",
        per_query=f"{layout.EVAL['tuning']}/per_query.tsv",
        manifest=f"{layout.EVAL['tuning']}/manifest.json",
    log:
        log_path("evaluate_tuning"),
    benchmark:
        benchmark_path("evaluate_tuning")


rule significance:
    message:
        f"significance: paired tests of {COMPARED} on every dataset, and 95% intervals"
    input:
        per_query=pair_files("per_query.tsv"),
        manifests=pair_files("manifest.json"),
    output:
        table="results/significance.tsv",
        markdown="results/significance.md",
        manifest="results/significance.manifest.json",
        intervals="results/intervals.tsv",
    params:
        library=library_code("evaluate.stages.significance"),
        settings={**config["significance"], "metrics": significance_metrics(config)},
        pairs=PAIRS,
        models=REPORTED_MODELS,
        datasets=DATASETS,
        experiment=EXPERIMENT,
    log:
        log_path("significance"),
    benchmark:
        benchmark_path("significance")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/significance.py"


def searched_models(model):
    """The models whose searches a model's run comes from: itself, or a tuned model's
    variants; none for runs fused or made elsewhere."""
    run_rule = PLAN.kind(model).run_rule
    searched = PLAN.variants(model) if run_rule == "tune" else [model]
    return [m for m in searched if PLAN.kind(m).run_rule == "retrieve"]


def pair_costs(wildcards):
    """Per evaluated pair ("model/dataset"), the cost records of its efficiency row: its
    search's (each variant's, for a tuned model: the selection names the one its run
    holds) and its corpus's encoding shards'; none for runs fused or made elsewhere. The
    shard counts are known once the corpora are prepared."""
    out = {}
    for model, dataset in PAIRS:
        searched = searched_models(model)
        if not searched:
            continue
        shards = range(corpus_shards(PLAN.corpus_of[dataset]))
        out[f"{model}/{dataset}"] = {
            "searched": {m: layout.COST["evaluation"].format(model=m, dataset=dataset) for m in searched},
            "encoded": {
                m: [PLAN.encoded(m, dataset, f"shards/{i}.cost.json") for i in shards]
                for m in searched
            },
        }
    return out


def pair_cost_files(wildcards):
    """Input function: every file of pair_costs."""
    sources = pair_costs(wildcards).values()
    files = [p for s in sources for p in [*s["searched"].values(), *sum(s["encoded"].values(), [])]]
    return list(dict.fromkeys(files))


rule leaderboard:
    message:
        f"leaderboard: {config['evaluation']['primary_metric']} of every model on every "
        "dataset, with the reproduction check"
    input:
        metrics=pair_files("metrics.json"),
        manifests=pair_files("manifest.json"),
        infos=expand(f"{DATA}/dataset.json", dataset=DATASETS),
        corpus_infos=[f"{CORPUS.format(corpus=PLAN.corpus_of[d])}/corpus.json" for d in DATASETS],
        significance="results/significance.tsv",
        selections=[
            f"{layout.TUNING.format(model=m, dataset=d)}/selection.json"
            for m, d in PAIRS
            if PLAN.kind(m).run_rule == "tune"
        ],
        costs=pair_cost_files,
    output:
        table="results/leaderboard.tsv",
        long="results/metrics.tsv",
        markdown="results/leaderboard.md",
        latex="results/leaderboard.tex",
        manifest="results/leaderboard.manifest.json",
        reproduction="results/reproduction.tsv",
        efficiency="results/efficiency.tsv",
    params:
        library=library_code("evaluate.stages.leaderboard"),
        pairs=PAIRS,
        costs=pair_costs,
        models=REPORTED_MODELS,
        datasets=DATASETS,
        experiment=EXPERIMENT,
        searched=PLAN.searched_pairs,  # how each run searched here was made
    log:
        log_path("leaderboard"),
    benchmark:
        benchmark_path("leaderboard")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/leaderboard.py"
