# Retrieval over a corpus split into partitions (retrieval.partitions > 1): no job holds
# the whole corpus. Per (model x corpus): vocabulary -> partition_statistics (xP) ->
# global_statistics -> partition_postings (xP); per (model x dataset): retrieve_partition
# (xP) -> merge_runs, whose run is byte for byte the single job's
# (sparsebench.partitions.stages).
PARTITION = layout.PARTITION


wildcard_constraints:
    partition=r"\d+",


def partition_groups(corpus):
    """The encoding shards of each partition; the shard count is known once the corpus
    is prepared."""
    return PLAN.partition_groups(corpus, corpus_info(corpus)["n_docs"])


def partition_rows(wildcards):
    """The corpus rows of a partition."""
    shards = partition_groups(wildcards.corpus)[int(wildcards.partition)]
    stop = min(shards.stop * PLAN.shard_size, corpus_info(wildcards.corpus)["n_docs"])
    return {"start": shards.start * PLAN.shard_size, "stop": stop}


def partition_shard_files(suffix):
    """Input function: the model's encoded shards of one partition."""

    def files(wildcards):
        encoder = PLAN.weighed_encoding(wildcards.model, wildcards.corpus)
        folder = f"{ENCODED.format(encoder=encoder, corpus=wildcards.corpus)}/shards"
        shards = partition_groups(wildcards.corpus)[int(wildcards.partition)]
        return [f"{folder}/{shard}.{suffix}" for shard in shards]

    return files


def every_partition(name):
    """Input function: a file of every partition of a (model x corpus)."""

    def files(wildcards):
        count = len(partition_groups(wildcards.corpus))
        folder = WEIGHTS.format(model=wildcards.model, corpus=wildcards.corpus)
        return [f"{folder}/partitions/{p}/{name}" for p in range(count)]

    return files


def partition_runs(queryset, path=layout.PARTITION_RUN):
    """Input function: the run (or another file of `path`) of every partition of the
    dataset's corpus."""

    def files(wildcards):
        count = len(partition_groups(PLAN.corpus_of[wildcards.dataset]))
        return [path.format(partition=p, queryset=queryset, **wildcards) for p in range(count)]

    return files


def partition_file(name):
    """Input function: a file of the partition of the dataset's corpus."""
    return lambda wc: PLAN.weights(wc.model, wc.dataset, f"partitions/{wc.partition}/{name}")


rule vocabulary:
    message:
        "vocabulary: the terms of the {wildcards.encoder} shards of {wildcards.corpus}"
    input:
        terms=shard_files("terms.txt"),
    output:
        vocab=f"{ENCODED}/vocab.txt",
    params:
        library=library_code("partitions.stages.write_vocabulary"),
    conda:
        ENV_CPU
    log:
        log_path("vocabulary"),
    benchmark:
        benchmark_path("vocabulary")
    script:
        f"{SCRIPTS}/vocabulary.py"


rule partition_statistics:
    message:
        "partition_statistics: document frequencies and lengths of partition "
        "{wildcards.partition} of {wildcards.corpus} for {wildcards.model}"
    input:
        npz=partition_shard_files("npz"),
        terms=partition_shard_files("terms.txt"),
        vocab=weighed("vocab.txt"),
    output:
        statistics=f"{PARTITION}/statistics.npz",
    params:
        library=library_code("partitions.stages.partition_statistics"),
        weighting=lambda wc: PLAN.weighting(wc.model),
    resources:
        mem_mb=lambda wc, input: jobresources.matrix_memory_mb(list(input.npz)),
    conda:
        ENV_CPU
    log:
        log_path("partition_statistics"),
    benchmark:
        benchmark_path("partition_statistics")
    script:
        f"{SCRIPTS}/partition_statistics.py"


rule global_statistics:
    message:
        "global_statistics: the corpus statistics and IDF of {wildcards.model} on "
        "{wildcards.corpus}, summed over its partitions"
    input:
        partitions=every_partition("statistics.npz"),
        vocab=weighed("vocab.txt"),
    output:
        statistics=f"{WEIGHTS}/statistics.npz",
        idf=f"{WEIGHTS}/idf.npy",
        stats=f"{WEIGHTS}/term_stats.json",
    params:
        library=library_code("partitions.stages.global_statistics"),
        weighting=lambda wc: PLAN.weighting(wc.model),
    conda:
        ENV_CPU
    log:
        log_path("global_statistics"),
    benchmark:
        benchmark_path("global_statistics")
    script:
        f"{SCRIPTS}/global_statistics.py"


rule partition_postings:
    message:
        "partition_postings: term weights of partition {wildcards.partition} of "
        "{wildcards.corpus} for {wildcards.model}, with the corpus statistics"
    input:
        npz=partition_shard_files("npz"),
        terms=partition_shard_files("terms.txt"),
        vocab=weighed("vocab.txt"),
        corpus=f"{CORPUS}/corpus.parquet",
        statistics=f"{WEIGHTS}/statistics.npz",
    output:
        postings=f"{PARTITION}/postings.npz",
        doc_ids=f"{PARTITION}/doc_ids.txt",
    params:
        library=library_code("partitions.stages.partition_postings"),
        weighting=lambda wc: PLAN.weighting(wc.model),
        rows=partition_rows,
    resources:
        mem_mb=lambda wc, input: jobresources.matrix_memory_mb(list(input.npz)),
    conda:
        ENV_CPU
    log:
        log_path("partition_postings"),
    benchmark:
        benchmark_path("partition_postings")
    script:
        f"{SCRIPTS}/partition_postings.py"


rule retrieve_partition:
    message:
        f"retrieve_partition: top-{PLAN.k} of partition "
        "{wildcards.partition} for {wildcards.model} on {wildcards.dataset}, "
        "{wildcards.queryset} queries"
    input:
        postings=partition_file("postings.npz"),
        idf=weights("idf.npy"),
        queries=encoded_queries("queries.npz"),
        query_ids=encoded_queries("query_ids.txt"),
        doc_ids=partition_file("doc_ids.txt"),
    output:
        run=layout.PARTITION_RUN,
        cost=layout.PARTITION_COST,
    params:
        library=library_code("retrieve.stages.retrieve_run"),
        retrieval=lambda wc: PLAN.retrieval_settings(wc.dataset),
    threads: lambda wc, input: jobresources.search_threads(input.query_ids, input.postings)
    resources:
        mem_mb=lambda wc, input: jobresources.retrieve_memory_mb(
            input.postings, config["retrieval"]["max_block_mb"]
        ),
    wildcard_constraints:
        model=_alternatives(PLAN.models_run_by("retrieve")),
    conda:
        ENV_CPU
    log:
        log_path("retrieve_partition"),
    benchmark:
        benchmark_path("retrieve_partition")
    script:
        f"{SCRIPTS}/retrieve.py"


rule merge_runs:
    message:
        f"merge_runs: the top-{PLAN.k} of {{wildcards.model}} on "
        "{wildcards.dataset} from its partitions' runs"
    input:
        runs=partition_runs("evaluation"),
        costs=partition_runs("evaluation", layout.PARTITION_COST),
        query_ids=encoded_queries("query_ids.txt", "evaluation"),
    output:
        run=layout.RUN["evaluation"],
        cost=layout.COST["evaluation"],
    params:
        library=library_code("partitions.stages.merge_runs"),
        k=PLAN.k,
    wildcard_constraints:
        model=_alternatives(PLAN.models_run_by("retrieve")),
    conda:
        ENV_CPU
    log:
        log_path("merge_runs"),
    benchmark:
        benchmark_path("merge_runs")
    script:
        f"{SCRIPTS}/merge_runs.py"


use rule merge_runs as merge_runs_tuning with:
    message:
        f"merge_runs_tuning: the top-{PLAN.k} of {{wildcards.model}} on "
        "{wildcards.dataset} from its partitions' runs, training queries"
    input:
        runs=partition_runs("tuning"),
        costs=partition_runs("tuning", layout.PARTITION_COST),
        query_ids=encoded_queries("query_ids.txt", "tuning"),
    output:
        run=layout.RUN["tuning"],
        cost=layout.COST["tuning"],
    log:
        log_path("merge_runs_tuning"),
    benchmark:
        benchmark_path("merge_runs_tuning")
