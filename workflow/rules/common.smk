# The plan (sparsebench.workflow.plan): every corpus, encoding, model job and path,
# computed once from the validated config. Rules read it by wildcard.
import re

from sparsebench.core.fileio import read_json
from sparsebench.workflow import jobresources
from sparsebench.kinds.run import run_path
from sparsebench.workflow import layout
from sparsebench.workflow.codehash import stage_code_digest
from sparsebench.workflow.jobs import corpus_jobs, pipeline_jobs
from sparsebench.workflow.layout import benchmark_path, log_path
from sparsebench.workflow.plan import Plan
from sparsebench.workflow.preflight import preflight_problems, refusal

PLAN = Plan(config)
# The config against what this machine already holds (dataset files, earlier runs, the hub
# cache): refused here, before any job. Cluster jobs parse this file again: checked once.
if workflow.is_main_process:
    _problems = preflight_problems(PLAN)
    if _problems:
        sys.exit(refusal(_problems))
DATASETS = list(PLAN.datasets)
MODELS = list(PLAN.models)  # with the variants of parameter sweeps
REPORTED_MODELS = PLAN.reported_models  # on the leaderboard: without them
PAIRS = PLAN.evaluated_pairs  # except datasets an external run has no file for
PARTITIONS = PLAN.partitions  # 1: one job weighs and searches a corpus
SCRIPTS = Path(workflow.basedir) / "scripts"
ENV_CPU = str(Path(workflow.basedir) / "envs" / "cpu.yaml")
ENV_GPU = str(Path(workflow.basedir) / "envs" / "gpu.yaml")
ENCODED = layout.ENCODED
ENCODED_QUERIES = layout.ENCODED_QUERIES
CORPUS = layout.CORPUS
DATA = layout.DATA
WEIGHTS = layout.WEIGHTS


def _alternatives(names):
    if not names:
        return "(?!)"  # matches nothing
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


def pair_files(name):
    """results/eval/{model}/{dataset}/{name} of every evaluated pair."""
    return [f"{layout.EVAL['evaluation'].format(model=m, dataset=d)}/{name}" for m, d in PAIRS]


# Wildcards only match planned names, so a typo in a target is reported as such.
wildcard_constraints:
    dataset=_alternatives(DATASETS),
    model=_alternatives(MODELS),
    corpus=_alternatives(PLAN.corpora),
    encoder=_alternatives(PLAN.encodings),
    query_encoder=_alternatives(PLAN.query_encodings),
    queryset="|".join(layout.QUERYSETS),
    shard=r"\d+",


def corpus_info(corpus):
    """corpus.json of a prepared corpus (a checkpoint: its size sets the shard count)."""
    return read_json(checkpoints.prepare_corpus.get(corpus=corpus).output.info)


def corpus_shards(corpus):
    return layout.n_shards(corpus_info(corpus)["n_docs"], PLAN.shard_size)


def shard_files(suffix, shards=None):
    """Input function: every shard of a corpus encoding (or those of `shards(wildcards)`,
    a range); the count is known once the corpus is prepared."""

    def files(wildcards):
        folder = ENCODED.format(encoder=wildcards.encoder, corpus=wildcards.corpus)
        wanted = shards(wildcards) if shards else range(corpus_shards(wildcards.corpus))
        return [f"{folder}/shards/{shard}.{suffix}" for shard in wanted]

    return files


def encoded(name):
    """Input function: a file of the corpus encoding the model searches on the dataset."""
    return lambda wc: PLAN.encoded(wc.model, wc.dataset, name)


def encoded_queries(name, queryset=None):
    """Input function: a file of the model's query encoding of the dataset (the query set
    of the wildcard, or `queryset`)."""
    return lambda wc: PLAN.encoded_queries(
        wc.model, wc.dataset, name, queryset or wc.queryset
    )


def feedback_inputs(wc):
    """Input function: what a model with feedback reads to expand its queries (the corpus's
    term counts, vocabulary and counts); nothing for the others."""
    if PLAN.feedback(wc.model) is None:
        return {}
    return {
        "corpus_npz": PLAN.encoded(wc.model, wc.dataset, "corpus.npz"),
        "vocab": PLAN.encoded(wc.model, wc.dataset, "vocab.txt"),
        "corpus_json": f"{CORPUS.format(corpus=PLAN.corpus_of[wc.dataset])}/corpus.json",
    }


def weights(name):
    """Input function: a file of the model's weighing of the dataset's corpus."""
    return lambda wc: PLAN.weights(wc.model, wc.dataset, name)


def untracked(value):
    """A param the job reads that changes no byte of its outputs (what only changes speed,
    what a job checks early), handed over by the rule without becoming a rerun trigger:
    Snakemake (>= 9.1.5) leaves out of its params trigger every param whose function takes
    the job's `threads` (or input, output, resources), as derived from them. `value`: a
    function of the wildcards and the job's threads."""

    def derived(wildcards, threads):
        return value(wildcards, threads)

    return derived


def library_code(*stages):
    """A param that reruns a rule when the sparsebench code its stages run changes
    (Snakemake's own `code` trigger sees only the thin script). `stages` name the
    functions the rule's script calls, under sparsebench: "encode.stages.term_weights"."""
    digests = []
    for stage in stages:
        where, _, function = f"sparsebench.{stage}".rpartition(".")
        digests.append(stage_code_digest(function, where))
    return digests[0] if len(digests) == 1 else " ".join(digests)
