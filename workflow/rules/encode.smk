# Encode corpus shards (per document encoding), stack them, then per model: term weights
# and query vectors.


rule encode_corpus_shard:
    message:
        "encode_corpus_shard: documents of shard {wildcards.shard} of {wildcards.dataset} "
        "with the {wildcards.encoder} encoding"
    input:
        corpus="results/data/{dataset}/corpus.parquet",
        model=lambda wc: sbconfig.local_model_files(encoder_config(wc), "documents"),
    output:
        npz=f"{ENCODED}/shards/{{shard}}.npz",
        terms=f"{ENCODED}/shards/{{shard}}.terms.txt",
    params:
        encoding=encoder_params,
        shard_size=config["corpus"]["shard_size"],
    threads: lambda wc: 4 if encoder_config(wc)["kind"] == "splade" else 1
    resources:
        gpu=lambda wc: int(sbconfig.uses_accelerator(encoder_config(wc))),
    conda:
        lambda wc: ENV_GPU if encoder_config(wc)["kind"] == "splade" else ENV_CPU
    log:
        "results/logs/encode_corpus_shard/{encoder}/{dataset}/{shard}.log",
    benchmark:
        "results/benchmarks/encode_corpus_shard/{encoder}/{dataset}/{shard}.tsv"
    script:
        f"{SCRIPTS}/encode_corpus_shard.py"


rule stack_shards:
    message:
        "stack_shards: the {wildcards.encoder} shards of {wildcards.dataset} into one matrix"
    input:
        npz=shard_files("npz"),
        terms=shard_files("terms.txt"),
        corpus="results/data/{dataset}/corpus.parquet",
    output:
        corpus=f"{ENCODED}/corpus.npz",
        vocab=f"{ENCODED}/vocab.txt",
        doc_ids=f"{ENCODED}/doc_ids.txt",
    conda:
        ENV_CPU
    log:
        "results/logs/stack_shards/{encoder}/{dataset}.log",
    benchmark:
        "results/benchmarks/stack_shards/{encoder}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/stack_shards.py"


rule term_weights:
    message:
        "term_weights: document weights and IDF of {wildcards.model} on {wildcards.dataset}"
    input:
        corpus=encoded("corpus.npz"),
        vocab=encoded("vocab.txt"),
    output:
        weights=f"{MODEL_DIR}/weights.npz",
        postings=f"{MODEL_DIR}/postings.npz",
        idf=f"{MODEL_DIR}/idf.npy",
        stats=f"{MODEL_DIR}/term_stats.json",
    params:
        weighting=lambda wc: sbconfig.weighting_params(model_config(wc)),
    conda:
        ENV_CPU
    log:
        "results/logs/term_weights/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/term_weights/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/term_weights.py"


rule encode_queries:
    message:
        "encode_queries: the judged queries for {wildcards.model} on {wildcards.dataset}"
    input:
        queries="results/data/{dataset}/queries.parquet",
        qrels="results/data/{dataset}/qrels.tsv",
        vocab=encoded("vocab.txt"),
        model=lambda wc: sbconfig.local_model_files(model_config(wc), "queries"),
    output:
        queries=f"{MODEL_DIR}/queries.npz",
        query_ids=f"{MODEL_DIR}/query_ids.txt",
    params:
        encoding=lambda wc: sbconfig.encoding_params(model_config(wc), "queries", language(wc)),
    threads: lambda wc: 2 if model_config(wc)["kind"] == "splade" else 1
    conda:
        lambda wc: ENV_GPU if model_config(wc)["kind"] == "splade" else ENV_CPU
    log:
        "results/logs/encode_queries/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/encode_queries/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/encode_queries.py"
