# Parameter sweeps: every variant is run like a model; the tuned model's run is the variant
# chosen on the dataset's training queries or, without them, made by cross-validation of
# the variants chosen per fold, each on the queries it was not chosen on.
from sparsebench.tune.sweeps import uses_training_split


def tuning_inputs(wildcards):
    """The variants' per-query scores on the queries the point is chosen on (the training
    split's, or the evaluated ones for cross-validation: known once prepare has run) and
    their runs on the evaluated queries."""
    info = checkpoints.prepare.get(dataset=wildcards.dataset).output.info
    sweep = model_config(wildcards)["sweep"]
    scored = "results/tuning/eval" if uses_training_split(sweep, read_json(info)) else "results/eval"
    variants = sbconfig.sweep_variants(config, wildcards.model)
    return {
        "info": info,
        "per_query": [f"{scored}/{v}/{wildcards.dataset}/per_query.tsv" for v in variants],
        "runs": [f"results/runs/{v}/{wildcards.dataset}.trec" for v in variants],
    }


rule tune:
    message:
        "tune: the point of {wildcards.model} on {wildcards.dataset}, chosen on training queries"
    input:
        unpack(tuning_inputs),
    output:
        run="results/runs/{model}/{dataset}.trec",
        selection="results/tuning/{model}/{dataset}/selection.json",
        surface="results/tuning/{model}/{dataset}/surface.tsv",
    params:
        library=library_code("tune.stages.tune"),
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
