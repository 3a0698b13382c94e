# Download and prepare datasets into canonical Parquet + normalised qrels.
from sparsebench.errors import DataError
from sparsebench.data.stages import dataset_source


def prepare_inputs(wildcards):
    """The files a dataset is read from, so that touching them reruns its column."""
    entry = dataset_config(wildcards)
    source = entry["source"]
    if source == "beir":
        return {"archive": f"results/downloads/beir/{entry['name']}.zip"}
    if source == "files":
        return {"files": [entry["corpus"], entry["queries"], entry["qrels"]]}
    if source == "ir_datasets":  # fetched (md5-checked) by ir_datasets in the job
        return {}
    if source in ("miracl", "mmarco"):  # local copies only; hub files are fetched by the job
        keys = ("corpus", "topics", "queries", "qrels")
        folders = [Path(entry[k]).expanduser() for k in keys if k in entry]
        return {"files": [str(p) for f in folders if f.exists()
                          for p in ([f] if f.is_file() else sorted(f.rglob("*"))) if p.is_file()]}
    source = dataset_source(entry)
    try:  # a missing split names the splits there are, not only the missing file
        source.check()
    except DataError as error:
        raise WorkflowError(f"dataset {wildcards.dataset}: {error}") from None
    root = source.root
    return {
        "files": [root / "corpus.jsonl", root / "queries.jsonl", root / "qrels" / f"{entry['split']}.tsv"]
    }


def beir_entry(name):
    for entry in config["datasets"].values():
        if entry["source"] == "beir" and entry["name"] == name:
            return entry
    raise WorkflowError(f"no BEIR dataset named {name!r} in the config")


rule download_beir:
    message:
        "download_beir: the BEIR archive {wildcards.name}, checked against its md5"
    output:
        "results/downloads/beir/{name}.zip",
    params:
        library=library_code("data.stages.download_beir"),
        md5=lambda wc: beir_entry(wc.name).get("md5"),
    log:
        "results/logs/download_beir/{name}.log",
    benchmark:
        "results/benchmarks/download_beir/{name}.tsv"
    wildcard_constraints:
        name=r"[A-Za-z0-9._-]+",
    retries: 1
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/download_beir.py"


checkpoint prepare:
    message:
        "prepare: {wildcards.dataset} into Parquet and normalised qrels, ids and judgments checked"
    input:
        unpack(prepare_inputs),
    output:
        corpus="results/data/{dataset}/corpus.parquet",
        queries="results/data/{dataset}/queries.parquet",
        qrels="results/data/{dataset}/qrels.tsv",
        tuning_qrels="results/data/{dataset}/qrels.tuning.tsv",
        info="results/data/{dataset}/dataset.json",
    params:
        library=library_code("data.stages.prepare"),
        entry=dataset_config,
    log:
        "results/logs/prepare/{dataset}.log",
    benchmark:
        "results/benchmarks/prepare/{dataset}.tsv"
    conda:
        ENV_CPU
    script:
        f"{SCRIPTS}/prepare.py"
