# Names, paths and per-rule settings shared by the rule files.
import re

from sparsebench import config as sbconfig
from sparsebench.fileio import read_json
from sparsebench.stages import n_shards

DATASETS = list(config["datasets"])
MODELS = list(config["models"])
SCRIPTS = Path(workflow.basedir) / "scripts"
ENCODED = "results/encode/{model}/{dataset}"


def _alternatives(names):
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


# Wildcards only match configured names, so a typo in a target is reported as such.
wildcard_constraints:
    dataset=_alternatives(DATASETS),
    model=_alternatives(MODELS),
    shard=r"\d+",


def model_config(wildcards):
    return config["models"][wildcards.model]


def dataset_config(wildcards):
    return config["datasets"][wildcards.dataset]


def shard_files(suffix):
    """Input function: every shard of a corpus; the count is known after prepare."""

    def files(wildcards):
        info = checkpoints.prepare.get(dataset=wildcards.dataset).output.info
        count = n_shards(read_json(info)["n_docs"], config["corpus"]["shard_size"])
        return [
            f"{ENCODED}/shards/{shard}.{suffix}".format(
                model=wildcards.model, dataset=wildcards.dataset, shard=shard
            )
            for shard in range(count)
        ]

    return files
