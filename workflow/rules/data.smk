# Download collections; prepare each corpus once (Parquet), and each dataset's queries and
# normalised qrels, checked against its corpus.
from sparsebench.core.errors import DataError
from sparsebench.data.stages import dataset_source


def local_files(paths):
    """The files of local paths (a file, or every file below a folder); hub ids give none."""
    found = []
    for path in (Path(p).expanduser() for p in paths):
        if path.is_file():
            found.append(str(path))
        elif path.is_dir():
            found += [str(p) for p in sorted(path.rglob("*")) if p.is_file()]
    return found


def source_inputs(entry, members):
    """The files a dataset entry's `members` (corpus, queries, qrels) are read from, so
    that touching them reruns what they make."""
    source = entry["source"]
    if source == "beir":
        return {"archive": layout.DOWNLOAD.format(name=entry["name"])}
    if source == "files":
        return {"files": [entry[m] for m in members]}
    if source == "ir_datasets":  # fetched (md5-checked) by ir_datasets in the job
        return {}
    if source in ("miracl", "mmarco"):  # local copies only; hub files are fetched by the job
        keys = {"corpus": ["corpus"], "queries": ["topics", "queries"], "qrels": ["qrels"]}
        return {"files": local_files(entry[k] for m in members for k in keys[m] if k in entry)}
    found = dataset_source(entry)
    return {"files": [found.member_file(m) for m in members]}


def corpus_inputs(wildcards):
    """The source files of a corpus; a subsample: the corpus it is drawn from, and the
    judgments it keeps."""
    corpus = PLAN.corpora[wildcards.corpus]
    if corpus.sample_of:
        return {
            "documents": f"{CORPUS.format(corpus=corpus.sample_of)}/corpus.parquet",
            "qrels": f"{DATA.format(dataset=corpus.datasets[0])}/qrels.tsv",
        }
    return source_inputs(corpus.entry, ["corpus"])


def dataset_inputs(wildcards):
    """The files a dataset's queries and judgments are read from, and the documents its
    judgments are checked against."""
    entry = PLAN.datasets[wildcards.dataset]
    if entry["source"] in ("builtin", "local"):
        try:  # a missing split names the splits there are, not only the missing file
            dataset_source(entry).check()
        except DataError as error:
            raise WorkflowError(f"dataset {wildcards.dataset}: {error}") from None
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
    params:
        library=library_code("data.stages.prepare"),
        entry=lambda wc: PLAN.datasets[wc.dataset],
        corpus=lambda wc: PLAN.corpus_of[wc.dataset],
    log:
        log_path("prepare"),
    benchmark:
        benchmark_path("prepare")
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/prepare.py"
