"""What the plan refuses before any job: the config held against what is already on this
machine. The config alone is checked when it is read (sparsebench.workflow.config); here
it meets the files it names, the earlier runs' prepared files and the hub cache:

- a dataset folder without the split asked for;
- more cross-validation folds than a dataset has judged queries, or a training split
  asked for where there is none;
- more partitions than a corpus makes shards;
- with HF_HUB_OFFLINE=1, a hub model or dataset the hub cache lacks, or the idf.json of
  a hub model that `idf: model` weighs queries by.

What only a download shows is checked by the jobs that count it (prepare_corpus the
documents, prepare the judged queries: scripts/prepare*.py), before any encoding job, and
once more where the rules read the counts (workflow/rules/tune.smk, partitions.smk), so
nothing passes unchecked. Each problem is one line naming the key and the model or dataset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sparsebench.core.errors import SparsebenchError
from sparsebench.core.fileio import read_json
from sparsebench.data.sources.registry import source_of
from sparsebench.kinds.base import is_local_path
from sparsebench.workflow.layout import CORPUS, DATA, downloaded_archive
from sparsebench.workflow.plan import Plan

HUB_MODEL_FILES = ("config.json", "tokenizer_config.json", "tokenizer.json")


def preflight_problems(plan: Plan) -> list[str]:
    """Every problem found, one line each (paths are relative to the working directory,
    where results/ is)."""
    return [
        *_split_problems(plan),
        *_fold_problems(plan),
        *_partition_problems(plan),
        *_offline_hub_problems(plan),
    ]


def refusal(problems: list[str]) -> str:
    """What the workflow prints when it will not start: each problem on one line, with no
    traceback (the Snakefile exits with it)."""
    if len(problems) == 1:
        return f"Error: {problems[0]}"
    return f"Error: {len(problems)} problems, found before any job:\n  " + "\n  ".join(problems)


def _split_problems(plan: Plan) -> list[str]:
    """A local folder's missing split, named with the splits there are."""
    problems = []
    for name, entry in plan.datasets.items():
        try:
            source_of(entry).check_files(entry)
        except SparsebenchError as error:
            problems.append(f"config.datasets.{name}: {error}")
    return problems


def dataset_facts(plan: Plan, dataset: str) -> dict[str, Any] | None:
    """The dataset's judged queries and training split (as dataset.json records them),
    when known before its prepare job: read from its files when they are at hand, else
    from the dataset.json an earlier prepare wrote with the same settings; None when only
    a download would tell."""
    from sparsebench.data.facts import judged_facts

    entry = plan.datasets[dataset]
    source = source_of(entry)
    archive = downloaded_archive(entry)
    if source.at_hand(entry, archive):
        try:
            facts = judged_facts(source.reader(entry, archive), entry.get("tuning_split", "auto"))
        except SparsebenchError:
            return None  # unreadable: the prepare job says what is wrong, with its context
        return {"name": dataset, **facts}
    info = Path(DATA.format(dataset=dataset)) / "dataset.json"
    if info.is_file():
        recorded = read_json(info)
        if recorded.get("settings") == entry:
            return recorded
    return None


def _fold_problems(plan: Plan) -> list[str]:
    """Sweeps that cannot choose as configured on a dataset's judged queries."""
    from sparsebench.tune.sweeps import uses_training_split

    problems = []
    for dataset in plan.datasets:
        sweeps = plan.sweeps_on(dataset)
        facts = dataset_facts(plan, dataset) if sweeps else None
        for model, sweep in sweeps.items() if facts else ():
            try:
                uses_training_split(model, sweep, facts)
            except SparsebenchError as error:
                problems.append(str(error))
    return problems


def corpus_documents(plan: Plan, corpus: str, at_most: int) -> int | None:
    """The documents of a corpus, counted up to `at_most`, when known before its
    prepare_corpus job: from the corpus.json an earlier one wrote (a corpus's name is its
    identity's digest), else counted in its files when they are at hand; None when only a
    download would tell (or the corpus is a subsample, drawn by its job)."""
    info = Path(CORPUS.format(corpus=corpus)) / "corpus.json"
    if info.is_file():
        return min(int(read_json(info)["n_docs"]), at_most)
    found = plan.corpora[corpus]
    if found.sample_of:
        return None
    from sparsebench.data.facts import count_documents

    documents = {k: v for k, v in found.identity.items() if k != "expansions"}
    source = source_of(documents)
    archive = downloaded_archive(found.entry)
    if not source.at_hand(found.entry, archive):
        return None
    try:
        return count_documents(source.corpus_reader(documents, archive), at_most)
    except SparsebenchError:
        return None  # unreadable: the prepare_corpus job says what is wrong


def _partition_problems(plan: Plan) -> list[str]:
    """Corpora too small for `retrieval.partitions` (a partition is one shard or more)."""
    if plan.partitions == 1:
        return []
    needed = (plan.partitions - 1) * plan.shard_size + 1  # the documents of that many shards
    problems = []
    for corpus in dict.fromkeys(c for _, c in plan.weighed_corpora):
        documents = corpus_documents(plan, corpus, needed)
        if documents is None or documents >= needed:
            continue
        try:
            plan.partition_groups(corpus, documents)
        except SparsebenchError as error:
            readers = ", ".join(plan.corpora[corpus].datasets)
            problems.append(f"{error} (read by {readers})")
    return problems


def _offline_hub_problems(plan: Plan) -> list[str]:
    """With the hub offline, the hub models and dataset files the cache lacks."""
    hub_models = {
        source: model
        for model, entry in plan.models.items()
        for source in plan.kind(model).model_sources(entry)
        if _hub_id(source)
    }
    hub_datasets = [n for n, e in plan.datasets.items() if source_of(e).hub]
    if not (hub_models or hub_datasets):
        return []
    from sparsebench.data import hubrepo

    if not hubrepo.offline():
        return []
    problems = [
        f"config.models.{model}: {problem}"
        for source, model in hub_models.items()
        if (problem := uncached_model(source))
    ]
    problems += [
        f"config.models.{model}: {problem}"
        for model, source in _hub_idf_sources(plan).items()
        if (problem := uncached_idf(source))
    ]
    for name in hub_datasets:
        try:
            _probe_cache(plan.datasets[name])
        except SparsebenchError as error:
            problems.append(f"config.datasets.{name}: {error}")
    return problems


def uncached_model(repo: str) -> str | None:
    """Why an offline job could not load hub model `repo` (None: the cache holds it)."""
    from huggingface_hub import constants, try_to_load_from_cache

    try:
        if any(isinstance(try_to_load_from_cache(repo, f), str) for f in HUB_MODEL_FILES):
            return None
    except ValueError as error:  # huggingface_hub's HFValidationError
        return f"{repo!r} is neither a folder nor a hub model id: {error}"
    return (
        f"the hub model {repo!r} is not in the hub cache {constants.HF_HUB_CACHE}, and "
        "HF_HUB_OFFLINE=1 keeps it from being fetched: fetch it once online "
        f"(`hf download {repo}`), point HF_HUB_CACHE at a cache that holds it, or name a "
        "local copy (a folder path)"
    )


def _hub_idf_sources(plan: Plan) -> dict[str, str]:
    """model -> the hub model whose idf.json it weighs queries by (`idf: model`)."""
    sources = {
        m: plan.kind(m).weighting(e).get("idf_source")
        for m, e in plan.models.items()
        if e.get("idf") == "model"
    }
    return {model: source for model, source in sources.items() if source and _hub_id(source)}


def _hub_id(source: str) -> bool:
    """A model named by a hub id, not a folder (written as a path, or one that exists)."""
    return not is_local_path(source) and not Path(source).expanduser().exists()


def uncached_idf(repo: str) -> str | None:
    """Why an offline job could not read the idf.json of hub model `repo` (None: the
    cache holds it): loading the model never fetches it."""
    from huggingface_hub import constants, try_to_load_from_cache

    try:
        if isinstance(try_to_load_from_cache(repo, "idf.json"), str):
            return None
    except ValueError:  # not a hub id: uncached_model names it
        return None
    return (
        f"idf: model reads the idf.json of {repo!r}, which the hub cache "
        f"{constants.HF_HUB_CACHE} lacks, and HF_HUB_OFFLINE=1 keeps it from being fetched: "
        f"fetch it once online (`hf download {repo} idf.json`) or name a local copy"
    )


def _probe_cache(entry: dict[str, Any]) -> None:
    """Offline, every hub file the dataset reads must be in the cache: the probe the
    prepare_corpus job makes before a download (hubrepo.probe, offline)."""
    from sparsebench.data.stages import probe_remote_files

    reader = source_of(entry).reader(entry)
    probe_remote_files(reader, [reader])
