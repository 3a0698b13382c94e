# Batched exact top-k retrieval into TREC run files.


# One job searches the whole corpus (retrieval.partitions: 1); with partitions,
# workflow/rules/partitions.smk searches each and merges their runs.
if PARTITIONS == 1:

    rule retrieve:
        message:
            f"retrieve: top-{config['retrieval']['k']} for {{wildcards.model}} on {{wildcards.dataset}}"
        input:
            weights=f"{MODEL_DIR}/postings.npz",  # term-major: one copy of the corpus in memory
            idf=f"{MODEL_DIR}/idf.npy",
            queries=encoded_queries("queries.npz"),
            query_ids=encoded_queries("query_ids.txt"),
            doc_ids=encoded("doc_ids.txt"),
        output:
            run="results/runs/{model}/{dataset}.trec",
        params:
            library=library_code("retrieve.stages.retrieve_run"),
            retrieval=lambda wc: sbparams.retrieval_params(config, wc.dataset),
        threads: 2
        resources:
            mem_mb=lambda wc, input: jobresources.retrieve_memory_mb(input.weights, config),
        wildcard_constraints:
            model=_alternatives(ENCODING_MODELS),
        log:
            "results/logs/retrieve/{model}/{dataset}.log",
        benchmark:
            "results/benchmarks/retrieve/{model}/{dataset}.tsv"
        conda:
            ENV_CPU
        script:
            f"{SCRIPTS}/retrieve.py"


    use rule retrieve as retrieve_tuning with:
        message:
            f"retrieve_tuning: top-{config['retrieval']['k']} for {{wildcards.model}} on "
            "{wildcards.dataset}, training queries"
        input:
            weights=f"{MODEL_DIR}/postings.npz",
            idf=f"{MODEL_DIR}/idf.npy",
            queries=encoded_queries("queries.npz", "tuning"),
            query_ids=encoded_queries("query_ids.txt", "tuning"),
            doc_ids=encoded("doc_ids.txt"),
        output:
            run="results/tuning/runs/{model}/{dataset}.trec",
        log:
            "results/logs/retrieve_tuning/{model}/{dataset}.log",
        benchmark:
            "results/benchmarks/retrieve_tuning/{model}/{dataset}.tsv"


rule import_run:
    """An external run (kind: run) checked against the dataset, beside the others."""
    message:
        "import_run: the external run of {wildcards.model} on {wildcards.dataset}, checked "
        "against the dataset"
    input:
        run=lambda wc: sbparams.run_path(model_config(wc), wc.dataset),
        corpus="results/data/{dataset}/corpus.parquet",
        queries="results/data/{dataset}/queries.parquet",
    output:
        run="results/runs/{model}/{dataset}.trec",
    params:
        library=library_code("retrieve.stages.import_run"),
    wildcard_constraints:
        model=_alternatives(RUN_MODELS),
    log:
        "results/logs/import_run/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/import_run/{model}/{dataset}.tsv"
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/import_run.py"
