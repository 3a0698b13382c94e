# Parameter sweeps: every variant is run and evaluated like a model; the tuned model's run
# is made of the variants chosen by cross-validation, each on queries it was not chosen on.


def variant_files(pattern):
    """Input function: one file per variant of the tuned model, in grid order."""

    def files(wildcards):
        return [
            pattern.format(model=variant, dataset=wildcards.dataset)
            for variant in sbconfig.sweep_variants(config, wildcards.model)
        ]

    return files


rule tune:
    input:
        per_query=variant_files("results/eval/{model}/{dataset}/per_query.tsv"),
        runs=variant_files("results/runs/{model}/{dataset}.trec"),
    output:
        run="results/runs/{model}/{dataset}.trec",
        selection="results/tuning/{model}/{dataset}/selection.json",
        surface="results/tuning/{model}/{dataset}/surface.tsv",
    params:
        library=library_code("tune"),
        sweep=lambda wc: model_config(wc)["sweep"],
    wildcard_constraints:
        model=_alternatives(TUNED_MODELS),
    log:
        "results/logs/tune/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/tune/{model}/{dataset}.tsv"
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/tune.py"
