# Batched exact top-k retrieval into TREC run files; external runs imported beside them.
from dataclasses import asdict


# One job searches the whole corpus (retrieval.partitions: 1); with partitions,
# workflow/rules/partitions.smk searches each and merges their runs.
if PARTITIONS == 1:

    rule retrieve:
        message:
            f"retrieve: top-{PLAN.k} for {{wildcards.model}} on {{wildcards.dataset}}"
        input:
            unpack(feedback_inputs),
            postings=weights("postings.npz"),
            idf=weights("idf.npy"),
            queries=encoded_queries("queries.npz", "evaluation"),
            query_ids=encoded_queries("query_ids.txt", "evaluation"),
            query_norms=encoded_queries("query_norms.npy", "evaluation"),
            doc_ids=encoded("doc_ids.txt"),
        output:
            run=layout.RUN["evaluation"],
            cost=layout.COST["evaluation"],
        params:
            library=library_code("retrieve.stages.retrieve_run"),
            retrieval=lambda wc: PLAN.retrieval_settings(wc.dataset),
            feedback=lambda wc: PLAN.feedback(wc.model),
        threads: lambda wc, input: jobresources.search_threads(input.query_ids, input.postings)
        resources:
            mem_mb=lambda wc, input: jobresources.retrieve_memory_mb(
                input.postings, config["retrieval"]["max_block_mb"]
            ),
        wildcard_constraints:
            model=_alternatives(PLAN.models_run_by("retrieve")),
        log:
            log_path("retrieve"),
        benchmark:
            benchmark_path("retrieve")
        conda:
            ENV_CPU
        script:
            f"{SCRIPTS}/retrieve.py"


    use rule retrieve as retrieve_tuning with:
        message:
            f"retrieve_tuning: top-{PLAN.k} for {{wildcards.model}} on "
            "{wildcards.dataset}, training queries"
        input:
            unpack(feedback_inputs),
            postings=weights("postings.npz"),
            idf=weights("idf.npy"),
            queries=encoded_queries("queries.npz", "tuning"),
            query_ids=encoded_queries("query_ids.txt", "tuning"),
            query_norms=encoded_queries("query_norms.npy", "tuning"),
            doc_ids=encoded("doc_ids.txt"),
        output:
            run=layout.RUN["tuning"],
            cost=layout.COST["tuning"],
        log:
            log_path("retrieve_tuning"),
        benchmark:
            benchmark_path("retrieve_tuning")


rule import_run:
    """An external run (kind: run) checked against the dataset, beside the others."""
    message:
        "import_run: the external run of {wildcards.model} on {wildcards.dataset}, checked "
        "against the dataset"
    input:
        run=lambda wc: run_path(PLAN.models[wc.model], wc.dataset),
        corpus=lambda wc: f"{CORPUS.format(corpus=PLAN.corpus_of[wc.dataset])}/corpus.parquet",
        queries=f"{DATA}/queries.parquet",
    output:
        run=layout.RUN["evaluation"],
    params:
        library=library_code("runs.stages.import_run"),
    wildcard_constraints:
        model=_alternatives(PLAN.models_run_by("import_run")),
    log:
        log_path("import_run"),
    benchmark:
        benchmark_path("import_run")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/import_run.py"


rule fuse:
    """A fusion model's run: its members' runs of the dataset, fused."""
    message:
        "fuse: {wildcards.model} on {wildcards.dataset}, from its members' runs"
    input:
        runs=lambda wc: [
            layout.RUN["evaluation"].format(model=m, dataset=wc.dataset)
            for m in PLAN.fusion(wc.model).runs
        ],
    output:
        run=layout.RUN["evaluation"],
    params:
        library=library_code("runs.stages.fuse_runs"),
        # the fields of the plan's Fusion: a param Snakemake compares (an object would
        # silently be no rerun trigger)
        fusion=lambda wc: asdict(PLAN.fusion(wc.model)),
        k=PLAN.k,
    wildcard_constraints:
        model=_alternatives(PLAN.models_run_by("fuse")),
    log:
        log_path("fuse"),
    benchmark:
        benchmark_path("fuse")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/fuse.py"


use rule fuse as fuse_tuning with:
    message:
        "fuse_tuning: {wildcards.model} on {wildcards.dataset}, training queries"
    input:
        runs=lambda wc: [
            layout.RUN["tuning"].format(model=m, dataset=wc.dataset)
            for m in PLAN.fusion(wc.model).runs
        ],
    output:
        run=layout.RUN["tuning"],
    log:
        log_path("fuse_tuning"),
    benchmark:
        benchmark_path("fuse_tuning")
