# Encode corpus shards, stack them, weight terms, encode queries.


rule encode_corpus_shard:
    input:
        corpus="results/data/{dataset}/corpus.parquet",
    output:
        npz=f"{ENCODED}/shards/{{shard}}.npz",
        terms=f"{ENCODED}/shards/{{shard}}.terms.txt",
    params:
        encoding=lambda wc: sbconfig.encoding_params(model_config(wc)),
        shard_size=config["corpus"]["shard_size"],
    log:
        "results/logs/encode_corpus_shard/{model}/{dataset}/{shard}.log",
    benchmark:
        "results/benchmarks/encode_corpus_shard/{model}/{dataset}/{shard}.tsv"
    script:
        f"{SCRIPTS}/encode_corpus_shard.py"


rule stack_shards:
    input:
        npz=shard_files("npz"),
        terms=shard_files("terms.txt"),
        corpus="results/data/{dataset}/corpus.parquet",
    output:
        corpus=f"{ENCODED}/corpus.npz",
        vocab=f"{ENCODED}/vocab.txt",
        doc_ids=f"{ENCODED}/doc_ids.txt",
    log:
        "results/logs/stack_shards/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/stack_shards/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/stack_shards.py"


rule term_weights:
    input:
        corpus=f"{ENCODED}/corpus.npz",
    output:
        weights=f"{ENCODED}/weights.npz",
        idf=f"{ENCODED}/idf.npy",
        stats=f"{ENCODED}/term_stats.json",
    params:
        weighting=lambda wc: sbconfig.weighting_params(model_config(wc)),
    log:
        "results/logs/term_weights/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/term_weights/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/term_weights.py"


rule encode_queries:
    input:
        queries="results/data/{dataset}/queries.parquet",
        qrels="results/data/{dataset}/qrels.tsv",
        vocab=f"{ENCODED}/vocab.txt",
    output:
        queries=f"{ENCODED}/queries.npz",
        query_ids=f"{ENCODED}/query_ids.txt",
    params:
        encoding=lambda wc: sbconfig.encoding_params(model_config(wc)),
    log:
        "results/logs/encode_queries/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/encode_queries/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/encode_queries.py"
