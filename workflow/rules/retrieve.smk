# Batched exact top-k retrieval into TREC run files.


rule retrieve:
    input:
        weights=f"{ENCODED}/weights.npz",
        idf=f"{ENCODED}/idf.npy",
        queries=f"{ENCODED}/queries.npz",
        query_ids=f"{ENCODED}/query_ids.txt",
        doc_ids=f"{ENCODED}/doc_ids.txt",
    output:
        run="results/runs/{model}/{dataset}.trec",
    params:
        retrieval=lambda wc: sbconfig.retrieval_params(config, wc.dataset),
    log:
        "results/logs/retrieve/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/retrieve/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/retrieve.py"
