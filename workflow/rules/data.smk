# Download and prepare datasets into canonical Parquet + normalised qrels.
from sparsebench.stages import dataset_source


def prepare_inputs(wildcards):
    entry = dataset_config(wildcards)
    if entry["source"] == "beir":
        return {"archive": f"results/downloads/beir/{entry['name']}.zip"}
    root = dataset_source(entry).root
    # the source files are inputs, so touching them reruns this dataset's column
    return {
        "files": [root / "corpus.jsonl", root / "queries.jsonl", root / "qrels" / f"{entry['split']}.tsv"]
    }


def beir_entry(name):
    for entry in config["datasets"].values():
        if entry["source"] == "beir" and entry["name"] == name:
            return entry
    raise WorkflowError(f"no BEIR dataset named {name!r} in the config")


rule download_beir:
    output:
        "results/downloads/beir/{name}.zip",
    params:
        md5=lambda wc: beir_entry(wc.name).get("md5"),
    log:
        "results/logs/download_beir/{name}.log",
    wildcard_constraints:
        name=r"[A-Za-z0-9._-]+",
    retries: 1
    script:
        f"{SCRIPTS}/download_beir.py"


checkpoint prepare:
    input:
        unpack(prepare_inputs),
    output:
        corpus="results/data/{dataset}/corpus.parquet",
        queries="results/data/{dataset}/queries.parquet",
        qrels="results/data/{dataset}/qrels.tsv",
        info="results/data/{dataset}/dataset.json",
    params:
        entry=dataset_config,
    log:
        "results/logs/prepare/{dataset}.log",
    benchmark:
        "results/benchmarks/prepare/{dataset}.tsv"
    script:
        f"{SCRIPTS}/prepare.py"
