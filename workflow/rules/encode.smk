# Encode corpus shards (per document encoding), stack them, then per model: term weights
# and query vectors.


rule encode_corpus_shard:
    message:
        "encode_corpus_shard: documents of shard {wildcards.shard} of {wildcards.dataset} "
        "with the {wildcards.encoder} encoding"
    input:
        corpus="results/data/{dataset}/corpus.parquet",
        model=lambda wc: sbparams.local_model_files(encoder_config(wc), "documents"),
    output:
        npz=f"{ENCODED}/shards/{{shard}}.npz",
        terms=f"{ENCODED}/shards/{{shard}}.terms.txt",
    params:
        library=library_code("encode.stages.encode_corpus_shard"),
        encoding=encoder_params,
        shard_size=SHARD_SIZE,
    threads: lambda wc: 4 if encoder_config(wc)["kind"] == "splade" else 1
    resources:
        # a shard is one job: what it asks for follows the shard size and the encoder
        mem_mb=lambda wc: jobresources.encode_memory_mb(encoder_config(wc), SHARD_SIZE),
        runtime=lambda wc: jobresources.encode_runtime_min(encoder_config(wc), SHARD_SIZE),
        gpu=lambda wc: jobresources.encode_gpus(encoder_config(wc)),
    conda:
        lambda wc: ENV_GPU if encoder_config(wc)["kind"] == "splade" else ENV_CPU
    log:
        "results/logs/encode_corpus_shard/{encoder}/{dataset}/{shard}.log",
    benchmark:
        "results/benchmarks/encode_corpus_shard/{encoder}/{dataset}/{shard}.tsv"
    script:
        f"{SCRIPTS}/encode_corpus_shard.py"


# One job stacks the shards and weighs the whole corpus (retrieval.partitions: 1);
# with partitions, workflow/rules/partitions.smk does it part by part.
if PARTITIONS == 1:

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
        params:
            library=library_code("encode.stages.stack_shards"),
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
            library=library_code("encode.stages.term_weights"),
            weighting=lambda wc: sbparams.weighting_params(model_config(wc)),
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
        "encode_queries: the judged {wildcards.queryset} queries of {wildcards.dataset} with "
        "the {wildcards.query_encoder} encoding"
    input:
        queries="results/data/{dataset}/queries.parquet",
        qrels=lambda wc: QRELS[wc.queryset].format(dataset=wc.dataset),
        vocab=f"{ENCODED}/vocab.txt",
        model=lambda wc: sbparams.local_model_files(query_encoder_config(wc), "queries"),
    output:
        queries=f"{ENCODED_QUERIES}/queries.npz",
        query_ids=f"{ENCODED_QUERIES}/query_ids.txt",
    params:
        library=library_code("encode.stages.encode_queries"),
        encoding=lambda wc: sbparams.encoding_params(
            query_encoder_config(wc), "queries", language(wc)
        ),
    threads: lambda wc: 2 if query_encoder_config(wc)["kind"] == "splade" else 1
    conda:
        lambda wc: ENV_GPU if query_encoder_config(wc)["kind"] == "splade" else ENV_CPU
    log:
        "results/logs/encode_queries/{encoder}/{dataset}/{query_encoder}/{queryset}.log",
    benchmark:
        "results/benchmarks/encode_queries/{encoder}/{dataset}/{query_encoder}/{queryset}.tsv"
    script:
        f"{SCRIPTS}/encode_queries.py"
