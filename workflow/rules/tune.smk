# Parameter sweeps: every variant is run like a model; the tuned model's run is the variant
# chosen on the dataset's training queries or, without them, made by cross-validation of
# the variants chosen per fold, each on the queries it was not chosen on.
from sparsebench.tune.sweeps import uses_training_split


def tuning_inputs(wildcards):
    """The variants' per-query scores on the queries the point is chosen on (the training
    split's, or the evaluated ones for cross-validation: known once prepare has run) and
    their runs on the evaluated queries."""
    info = checkpoints.prepare.get(dataset=wildcards.dataset).output.info
    sweep = PLAN.models[wildcards.model]["sweep"]
    scored = "tuning" if uses_training_split(wildcards.model, sweep, read_json(info)) else "evaluation"
    variants = PLAN.variants(wildcards.model)
    return {
        "info": info,
        "per_query": [
            f"{layout.EVAL[scored].format(model=v, dataset=wildcards.dataset)}/per_query.tsv"
            for v in variants
        ],
        "runs": [layout.RUN["evaluation"].format(model=v, dataset=wildcards.dataset) for v in variants],
    }


rule tune:
    message:
        "tune: the point of {wildcards.model} on {wildcards.dataset}, chosen on training queries"
    input:
        unpack(tuning_inputs),
    output:
        run=layout.RUN["evaluation"],
        selection=f"{layout.TUNING}/selection.json",
        surface=f"{layout.TUNING}/surface.tsv",
    params:
        library=library_code("tune.stages.tune"),
        sweep=lambda wc: PLAN.models[wc.model]["sweep"],
    wildcard_constraints:
        model=_alternatives(PLAN.models_run_by("tune")),
    log:
        log_path("tune"),
    benchmark:
        benchmark_path("tune")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/tune.py"
