# Retrieval over a corpus split into partitions (retrieval.partitions > 1): no job holds
# the whole corpus. Per (model x dataset): vocabulary -> partition_statistics (xP) ->
# global_statistics -> partition_postings (xP) -> retrieve_partition (xP) -> merge_runs,
# whose run is byte for byte the single job's (sparsebench.partitions.stages).
from sparsebench.partitions.stages import partition_shards

PARTITION_DIR = f"{MODEL_DIR}/partitions/{{partition}}"


wildcard_constraints:
    partition=r"\d+",


def partition_groups(wildcards):
    """The encoding shards of each partition; the shard count is known after prepare."""
    info = read_json(checkpoints.prepare.get(dataset=wildcards.dataset).output.info)
    return partition_shards(n_shards(info["n_docs"], SHARD_SIZE), PARTITIONS)


def partition_rows(wildcards):
    """The corpus rows of a partition."""
    info = read_json(checkpoints.prepare.get(dataset=wildcards.dataset).output.info)
    shards = partition_groups(wildcards)[int(wildcards.partition)]
    stop = min(shards.stop * SHARD_SIZE, info["n_docs"])
    return {"start": shards.start * SHARD_SIZE, "stop": stop}


def partition_shard_files(suffix):
    """Input function: the model's encoded shards of one partition."""

    def files(wildcards):
        encoder = sbparams.encoder_id(model_config(wildcards), language(wildcards))
        shards = partition_groups(wildcards)[int(wildcards.partition)]
        folder = f"results/encode/{encoder}/{wildcards.dataset}/shards"
        return [f"{folder}/{shard}.{suffix}" for shard in shards]

    return files


def every_partition(name):
    """Input function: a file of every partition of a (model x dataset)."""

    def files(wildcards):
        folder = MODEL_DIR.format(model=wildcards.model, dataset=wildcards.dataset)
        count = len(partition_groups(wildcards))
        return [f"{folder}/partitions/{p}/{name}".format(**wildcards) for p in range(count)]

    return files


def partition_queries(name):
    """Input function: a file of the query encoding of the partition's query set."""

    def path(wildcards):
        return encoded_queries(name, wildcards.queryset)(wildcards)

    return path


rule vocabulary:
    message:
        "vocabulary: the terms of the {wildcards.encoder} shards of {wildcards.dataset}"
    input:
        terms=shard_files("terms.txt"),
    output:
        vocab=f"{ENCODED}/vocab.txt",
    params:
        library=library_code("partitions.stages.write_vocabulary"),
    conda:
        ENV_CPU
    log:
        "results/logs/vocabulary/{encoder}/{dataset}.log",
    benchmark:
        "results/benchmarks/vocabulary/{encoder}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/vocabulary.py"


rule partition_statistics:
    message:
        "partition_statistics: document frequencies and lengths of partition "
        "{wildcards.partition} of {wildcards.dataset} for {wildcards.model}"
    input:
        npz=partition_shard_files("npz"),
        terms=partition_shard_files("terms.txt"),
        vocab=encoded("vocab.txt"),
    output:
        statistics=f"{PARTITION_DIR}/statistics.npz",
    params:
        library=library_code("partitions.stages.partition_statistics"),
        weighting=lambda wc: sbparams.weighting_params(model_config(wc)),
    resources:
        mem_mb=lambda wc, input: jobresources.partition_memory_mb(list(input.npz)),
    conda:
        ENV_CPU
    log:
        "results/logs/partition_statistics/{model}/{dataset}/{partition}.log",
    benchmark:
        "results/benchmarks/partition_statistics/{model}/{dataset}/{partition}.tsv"
    script:
        f"{SCRIPTS}/partition_statistics.py"


rule global_statistics:
    message:
        "global_statistics: the corpus statistics and IDF of {wildcards.model} on "
        "{wildcards.dataset}, summed over its partitions"
    input:
        partitions=every_partition("statistics.npz"),
        vocab=encoded("vocab.txt"),
    output:
        statistics=f"{MODEL_DIR}/statistics.npz",
        idf=f"{MODEL_DIR}/idf.npy",
        stats=f"{MODEL_DIR}/term_stats.json",
    params:
        library=library_code("partitions.stages.global_statistics"),
        weighting=lambda wc: sbparams.weighting_params(model_config(wc)),
    conda:
        ENV_CPU
    log:
        "results/logs/global_statistics/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/global_statistics/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/global_statistics.py"


rule partition_postings:
    message:
        "partition_postings: term weights of partition {wildcards.partition} of "
        "{wildcards.dataset} for {wildcards.model}, with the corpus statistics"
    input:
        npz=partition_shard_files("npz"),
        terms=partition_shard_files("terms.txt"),
        vocab=encoded("vocab.txt"),
        corpus="results/data/{dataset}/corpus.parquet",
        statistics=f"{MODEL_DIR}/statistics.npz",
    output:
        postings=f"{PARTITION_DIR}/postings.npz",
        doc_ids=f"{PARTITION_DIR}/doc_ids.txt",
    params:
        library=library_code("partitions.stages.partition_postings"),
        weighting=lambda wc: sbparams.weighting_params(model_config(wc)),
        rows=partition_rows,
    resources:
        mem_mb=lambda wc, input: jobresources.partition_memory_mb(list(input.npz)),
    conda:
        ENV_CPU
    log:
        "results/logs/partition_postings/{model}/{dataset}/{partition}.log",
    benchmark:
        "results/benchmarks/partition_postings/{model}/{dataset}/{partition}.tsv"
    script:
        f"{SCRIPTS}/partition_postings.py"


rule retrieve_partition:
    message:
        f"retrieve_partition: top-{config['retrieval']['k']} of partition "
        "{wildcards.partition} for {wildcards.model} on {wildcards.dataset}, "
        "{wildcards.queryset} queries"
    input:
        weights=f"{PARTITION_DIR}/postings.npz",
        idf=f"{MODEL_DIR}/idf.npy",
        queries=partition_queries("queries.npz"),
        query_ids=partition_queries("query_ids.txt"),
        doc_ids=f"{PARTITION_DIR}/doc_ids.txt",
    output:
        run=f"{PARTITION_DIR}/{{queryset}}.trec",
    params:
        library=library_code("retrieve.stages.retrieve_run"),
        retrieval=lambda wc: sbparams.retrieval_params(config, wc.dataset),
    threads: 2
    resources:
        mem_mb=lambda wc, input: jobresources.retrieve_memory_mb(input.weights, config),
    wildcard_constraints:
        model=_alternatives(ENCODING_MODELS),
    conda:
        ENV_CPU
    log:
        "results/logs/retrieve_partition/{model}/{dataset}/{partition}/{queryset}.log",
    benchmark:
        "results/benchmarks/retrieve_partition/{model}/{dataset}/{partition}/{queryset}.tsv"
    script:
        f"{SCRIPTS}/retrieve.py"


rule merge_runs:
    message:
        f"merge_runs: the top-{config['retrieval']['k']} of {{wildcards.model}} on "
        "{wildcards.dataset} from its partitions' runs"
    input:
        runs=every_partition("evaluation.trec"),
        query_ids=encoded_queries("query_ids.txt"),
    output:
        run="results/runs/{model}/{dataset}.trec",
    params:
        library=library_code("partitions.stages.merge_runs"),
        k=config["retrieval"]["k"],
    wildcard_constraints:
        model=_alternatives(ENCODING_MODELS),
    conda:
        ENV_CPU
    log:
        "results/logs/merge_runs/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/merge_runs/{model}/{dataset}.tsv"
    script:
        f"{SCRIPTS}/merge_runs.py"


use rule merge_runs as merge_runs_tuning with:
    message:
        f"merge_runs_tuning: the top-{config['retrieval']['k']} of {{wildcards.model}} on "
        "{wildcards.dataset} from its partitions' runs, training queries"
    input:
        runs=every_partition("tuning.trec"),
        query_ids=encoded_queries("query_ids.txt", "tuning"),
    output:
        run="results/tuning/runs/{model}/{dataset}.trec",
    log:
        "results/logs/merge_runs_tuning/{model}/{dataset}.log",
    benchmark:
        "results/benchmarks/merge_runs_tuning/{model}/{dataset}.tsv"
