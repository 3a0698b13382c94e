# Batched exact top-k retrieval into TREC run files.


rule retrieve:
    input:
        weights=f"{MODEL_DIR}/postings.npz",  # term-major: one copy of the corpus in memory
        idf=f"{MODEL_DIR}/idf.npy",
        queries=f"{MODEL_DIR}/queries.npz",
        query_ids=f"{MODEL_DIR}/query_ids.txt",
        doc_ids=encoded("doc_ids.txt"),
    output:
        run="results/runs/{model}/{dataset}.trec",
    params:
        retrieval=lambda wc: sbconfig.retrieval_params(config, wc.dataset),
    threads: 2
    resources:
        mem_mb=lambda wc, input: sbconfig.retrieve_memory_mb(input.weights, config),
    log:
        "results/logs/retrieve/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/retrieve/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/retrieve.py"
