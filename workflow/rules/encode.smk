# Encode each corpus once per document encoding, shard by shard, and stack the shards;
# weigh it once per model; encode each dataset's queries in the corpus vocabulary.


def encoding_of(wildcards):
    """The document encoding the wildcards name (sparsebench.workflow.plan.Encoding)."""
    return PLAN.encodings[wildcards.encoder]


def query_encoding_of(wildcards):
    return PLAN.query_encodings[wildcards.query_encoder]


def shard_threads(wildcards):
    """An encode job's threads: its encoding's, or one for a small shard
    (jobresources.encode_threads)."""
    encoding = encoding_of(wildcards)
    corpus_json = f"{CORPUS.format(corpus=wildcards.corpus)}/corpus.json"
    documents = jobresources.shard_documents(corpus_json, int(wildcards.shard), PLAN.shard_size)
    return jobresources.encode_threads(encoding.threads, documents, encoding.model_files)


def query_threads(wildcards):
    """A query encoding job's threads: as shard_threads, by its queries."""
    encoding = query_encoding_of(wildcards)
    dataset_json = f"{DATA.format(dataset=wildcards.dataset)}/dataset.json"
    queries = jobresources.judged_queries(dataset_json, wildcards.queryset)
    return jobresources.encode_threads(encoding.threads, queries, encoding.model_files)


def weighed(name):
    """Input function: a file of the corpus encoding the model weighs."""

    def path(wildcards):
        encoder = PLAN.weighed_encoding(wildcards.model, wildcards.corpus)
        return f"{ENCODED.format(encoder=encoder, corpus=wildcards.corpus)}/{name}"

    return path


rule encode_corpus_shard:
    message:
        "encode_corpus_shard: documents of shard {wildcards.shard} of {wildcards.corpus} "
        "with the {wildcards.encoder} encoding"
    input:
        corpus=f"{CORPUS}/corpus.parquet",
        model=lambda wc: encoding_of(wc).model_files,
    output:
        npz=f"{ENCODED}/shards/{{shard}}.npz",
        terms=f"{ENCODED}/shards/{{shard}}.terms.txt",
        cost=f"{ENCODED}/shards/{{shard}}.cost.json",
    params:
        library=library_code("encode.stages.encode_corpus_shard"),
        encoding=lambda wc: encoding_of(wc).settings,
        shard_size=PLAN.shard_size,
        # batch size, device and threads change speed, not vectors: no rerun trigger
        runtime=untracked(lambda wc, threads: {**encoding_of(wc).runtime, "threads": threads}),
    threads: shard_threads
    resources:
        # a shard is one job: what it asks for follows the shard size and the encoder
        mem_mb=lambda wc: jobresources.encode_memory_mb(encoding_of(wc).hardware, PLAN.shard_size),
        runtime=lambda wc: jobresources.encode_runtime_min(encoding_of(wc).hardware, PLAN.shard_size),
        gpu=lambda wc: jobresources.encode_gpus(encoding_of(wc).hardware),
    conda:
        lambda wc: ENV_CPU if encoding_of(wc).hardware == "lexical" else ENV_GPU
    log:
        log_path("encode_corpus_shard"),
    benchmark:
        benchmark_path("encode_corpus_shard")
    script:
        f"{SCRIPTS}/encode_corpus_shard.py"


# One job stacks the shards and weighs the whole corpus (retrieval.partitions: 1);
# with partitions, workflow/rules/partitions.smk does it part by part.
if PARTITIONS == 1:

    rule stack_shards:
        message:
            "stack_shards: the {wildcards.encoder} shards of {wildcards.corpus} into one matrix"
        input:
            npz=shard_files("npz"),
            terms=shard_files("terms.txt"),
            corpus=f"{CORPUS}/corpus.parquet",
        output:
            corpus=f"{ENCODED}/corpus.npz",
            vocab=f"{ENCODED}/vocab.txt",
            doc_ids=f"{ENCODED}/doc_ids.txt",
        params:
            library=library_code("encode.stages.stack_shards"),
        resources:
            mem_mb=lambda wc, input: jobresources.matrix_memory_mb(list(input.npz)),
        conda:
            ENV_CPU
        log:
            log_path("stack_shards"),
        benchmark:
            benchmark_path("stack_shards")
        script:
            f"{SCRIPTS}/stack_shards.py"


    rule term_weights:
        message:
            "term_weights: document weights and IDF of {wildcards.model} on {wildcards.corpus}"
        input:
            corpus=weighed("corpus.npz"),
            vocab=weighed("vocab.txt"),
            doc_ids=weighed("doc_ids.txt"),
        output:
            postings=f"{WEIGHTS}/postings.npz",
            idf=f"{WEIGHTS}/idf.npy",
            stats=f"{WEIGHTS}/term_stats.json",
        params:
            library=library_code("encode.stages.term_weights"),
            weighting=lambda wc: PLAN.weighting(wc.model),
        resources:
            mem_mb=lambda wc, input: jobresources.matrix_memory_mb([input.corpus]),
        conda:
            ENV_CPU
        log:
            log_path("term_weights"),
        benchmark:
            benchmark_path("term_weights")
        script:
            f"{SCRIPTS}/term_weights.py"


rule encode_queries:
    message:
        "encode_queries: the judged {wildcards.queryset} queries of {wildcards.dataset} with "
        "the {wildcards.query_encoder} encoding"
    input:
        queries=f"{DATA}/queries.parquet",
        qrels=lambda wc: f"{DATA.format(dataset=wc.dataset)}/{layout.QRELS[wc.queryset]}",
        vocab=f"{ENCODED}/vocab.txt",
        model=lambda wc: query_encoding_of(wc).model_files,
    output:
        queries=f"{ENCODED_QUERIES}/queries.npz",
        query_ids=f"{ENCODED_QUERIES}/query_ids.txt",
        norms=f"{ENCODED_QUERIES}/query_norms.npy",
    params:
        library=library_code("encode.stages.encode_queries"),
        encoding=lambda wc: query_encoding_of(wc).settings,
        runtime=untracked(
            lambda wc, threads: {**query_encoding_of(wc).runtime, "threads": threads}
        ),
    threads: query_threads
    conda:
        lambda wc: ENV_CPU if query_encoding_of(wc).hardware == "lexical" else ENV_GPU
    log:
        log_path("encode_queries"),
    benchmark:
        benchmark_path("encode_queries")
    script:
        f"{SCRIPTS}/encode_queries.py"
