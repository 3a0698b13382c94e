# Names, paths and per-rule settings shared by the rule files.
import re

from sparsebench.workflow import config as sbconfig
from sparsebench.workflow import params as sbparams
from sparsebench.workflow import jobresources
from sparsebench.workflow.codehash import stage_code_digest
from sparsebench.fileio import read_json
from sparsebench.encode.stages import n_shards

DATASETS = list(config["datasets"])
MODELS = list(config["models"])  # with the variants of parameter sweeps
REPORTED_MODELS = sbconfig.reported_models(config)  # on the leaderboard: without them
RUN_MODELS = [m for m, entry in config["models"].items() if entry["kind"] == "run"]
TUNED_MODELS = [m for m, entry in config["models"].items() if entry["kind"] == "tuned"]
ENCODING_MODELS = [m for m in MODELS if m not in RUN_MODELS + TUNED_MODELS]
# every reported (model x dataset) pair, except datasets an external run has no file for
PAIRS = sbparams.covered_pairs(config)
ENCODERS = sorted(sbparams.encoders(config))
QUERY_ENCODERS = sorted(sbparams.encoders(config, "queries"))
SHARD_SIZE = config["corpus"]["shard_size"]
PARTITIONS = config["retrieval"]["partitions"]  # 1: one job weighs and searches a corpus
SCRIPTS = Path(workflow.basedir) / "scripts"
ENV_CPU = str(Path(workflow.basedir) / "envs" / "cpu.yaml")
ENV_GPU = str(Path(workflow.basedir) / "envs" / "gpu.yaml")
# Document encodings are shared by every model that encodes documents the same way;
# everything from the term weights on belongs to one model.
ENCODED = "results/encode/{encoder}/{dataset}"
# queryset: the evaluated queries, or the training split's (parameter sweeps tune on it)
ENCODED_QUERIES = "results/encode/{encoder}/{dataset}/queries/{query_encoder}/{queryset}"
QRELS = {
    "evaluation": "results/data/{dataset}/qrels.tsv",
    "tuning": "results/data/{dataset}/qrels.tuning.tsv",
}
MODEL_DIR = "results/models/{model}/{dataset}"


def _alternatives(names):
    if not names:
        return "(?!)"  # matches nothing
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


def pair_files(name):
    """results/eval/{model}/{dataset}/{name} of every evaluated pair."""
    return [f"results/eval/{m}/{d}/{name}" for m, d in PAIRS]


# Wildcards only match configured names, so a typo in a target is reported as such.
wildcard_constraints:
    dataset=_alternatives(DATASETS),
    model=_alternatives(MODELS),
    encoder=_alternatives(ENCODERS),
    query_encoder=_alternatives(QUERY_ENCODERS),
    queryset="evaluation|tuning",
    shard=r"\d+",


def model_config(wildcards):
    return config["models"][wildcards.model]


def dataset_config(wildcards):
    return config["datasets"][wildcards.dataset]


def language(wildcards):
    return sbparams.dataset_language(config, wildcards.dataset)


def encoder_config(wildcards):
    return sbparams.encoder_model(config, wildcards.encoder)


def query_encoder_config(wildcards):
    return sbparams.encoder_model(config, wildcards.query_encoder, "queries")


def encoder_params(wildcards):
    model, encoder_language = sbparams.encoders(config)[wildcards.encoder]
    return sbparams.encoding_params(model, "documents", encoder_language)


def encoded(name):
    """Input function: a file of the document encoding the model uses."""

    def path(wildcards):
        encoder = sbparams.encoder_id(model_config(wildcards), language(wildcards))
        return f"results/encode/{encoder}/{wildcards.dataset}/{name}"

    return path


def encoded_queries(name, queryset="evaluation"):
    """Input function: a file of the query encoding the model uses."""

    def path(wildcards):
        model, lang = model_config(wildcards), language(wildcards)
        folder = ENCODED_QUERIES.format(
            encoder=sbparams.encoder_id(model, lang),
            dataset=wildcards.dataset,
            query_encoder=sbparams.encoder_id(model, lang, "queries"),
            queryset=queryset,
        )
        return f"{folder}/{name}"

    return path


def shard_files(suffix):
    """Input function: every shard of a corpus; the count is known after prepare."""

    def files(wildcards):
        info = checkpoints.prepare.get(dataset=wildcards.dataset).output.info
        count = n_shards(read_json(info)["n_docs"], SHARD_SIZE)
        return [
            f"{ENCODED}/shards/{shard}.{suffix}".format(
                encoder=wildcards.encoder, dataset=wildcards.dataset, shard=shard
            )
            for shard in range(count)
        ]

    return files


def library_code(*stages):
    """A param that reruns a rule when the sparsebench code its stages run changes
    (Snakemake's own `code` trigger sees only the thin script). `stages` name the
    functions the rule's script calls, under sparsebench: "encode.stages.term_weights"."""
    digests = []
    for stage in stages:
        where, _, function = f"sparsebench.{stage}".rpartition(".")
        digests.append(stage_code_digest(function, where))
    return digests[0] if len(digests) == 1 else " ".join(digests)
