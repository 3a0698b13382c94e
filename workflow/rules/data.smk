# Download collections; prepare each corpus once (Parquet), and each dataset's queries and
# normalised qrels, checked against its corpus.
from sparsebench.data.sources.registry import source_of


def source_inputs(entry, members):
    """The files a dataset entry's `members` (corpus, queries, qrels) are read from, so
    that touching them reruns what they make: a BEIR archive (download_beir fetches it),
    else the local files its source names."""
    archive = layout.downloaded_archive(entry)
    if archive is not None:
        return {"archive": str(archive)}
    return {"files": source_of(entry).input_files(entry, members)}


def corpus_inputs(wildcards):
    """The source files of a corpus; a subsample: the corpus it is drawn from, and the
    judgments it keeps."""
    corpus = PLAN.corpora[wildcards.corpus]
    if corpus.sample_of:
        return {
            "documents": f"{CORPUS.format(corpus=corpus.sample_of)}/corpus.parquet",
            "qrels": f"{DATA.format(dataset=corpus.datasets[0])}/qrels.tsv",
        }
    expansions = corpus.identity.get("expansions")
    return {
        **source_inputs(corpus.entry, ["corpus"]),
        **({"expansions": expansions["path"]} if expansions else {}),
    }


def dataset_inputs(wildcards):
    """The files a dataset's queries and judgments are read from, and the documents its
    judgments are checked against."""
    entry = PLAN.datasets[wildcards.dataset]
    documents = PLAN.corpus(wildcards.dataset).documents
    return {
        **source_inputs(entry, ["queries", "qrels"]),
        "documents": f"{CORPUS.format(corpus=documents)}/corpus.parquet",
    }


rule download_beir:
    message:
        "download_beir: the BEIR archive {wildcards.name}, checked against its md5"
    output:
        layout.DOWNLOAD,
    params:
        library=library_code("data.stages.download_beir"),
        md5=lambda wc: PLAN.beir_entry(wc.name).get("md5"),
        base_url=lambda wc: PLAN.beir_entry(wc.name).get(
            "base_url", config["download"]["beir_base_url"]
        ),
    log:
        log_path("download_beir"),
    benchmark:
        benchmark_path("download_beir")
    wildcard_constraints:
        name=r"[A-Za-z0-9._-]+",
    retries: 1
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/download_beir.py"


checkpoint prepare_corpus:
    message:
        "prepare_corpus: the documents of {wildcards.corpus} into Parquet, ids checked"
    input:
        unpack(corpus_inputs),
    output:
        corpus=f"{CORPUS}/corpus.parquet",
        info=f"{CORPUS}/corpus.json",
    params:
        library=library_code("data.stages.prepare_corpus"),
        identity=lambda wc: PLAN.corpora[wc.corpus].identity,
        # the entries of the datasets that read the documents, whose files are probed
        # before the corpus is fetched: they change no byte
        readers=untracked(lambda wc, threads: PLAN.readers(wc.corpus)),
        # what the count of documents is held against at once (workflow.preflight does
        # it before any job when the documents are at hand)
        partitions=untracked(lambda wc, threads: [PLAN.partitions, PLAN.shard_size]),
    log:
        log_path("prepare_corpus"),
    benchmark:
        benchmark_path("prepare_corpus")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/prepare_corpus.py"


checkpoint prepare:
    message:
        "prepare: the queries and judgments of {wildcards.dataset}, checked against its corpus"
    input:
        unpack(dataset_inputs),
    output:
        queries=f"{DATA}/queries.parquet",
        qrels=f"{DATA}/qrels.tsv",
        tuning_qrels=f"{DATA}/qrels.tuning.tsv",
        info=f"{DATA}/dataset.json",
    # before the encoding jobs ready beside it: what it counts (judged queries, a training
    # split) is checked before the corpus is encoded (workflow/rules/tune.smk)
    priority: 1
    params:
        library=library_code("data.stages.prepare"),
        entry=lambda wc: PLAN.datasets[wc.dataset],
        corpus=lambda wc: PLAN.corpus_of[wc.dataset],
        # the sweeps the judged queries are held against at once (as partitions above)
        sweeps=untracked(lambda wc, threads: PLAN.sweeps_on(wc.dataset)),
    log:
        log_path("prepare"),
    benchmark:
        benchmark_path("prepare")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/prepare.py"
