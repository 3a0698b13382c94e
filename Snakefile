# sparsebench: evaluate sparse retrieval models on IR benchmarks, reproducibly.
#
#   snakemake --cores all                                  # everything in config.yaml
#   snakemake --cores all results/eval/bm25/minibeir/metrics.json   # one (model x dataset) pair
#   snakemake --cores all --configfile workflow/presets/beir.yaml    # a real BEIR suite
#
# The DAG: per corpus (the documents one or more datasets read) download -> prepare_corpus
#   -> encode_corpus_shard (xN, per document encoding) -> stack_shards -> term_weights (per
#   model); per dataset prepare -> encode_queries; per (model x dataset) retrieve ->
#   evaluate; all pairs -> significance -> leaderboard -> the visual report
#   (results/report/; `snakemake --report report.html` packages it). The plan of it all:
#   sparsebench.workflow.plan.
import os
import shlex
import sys
from pathlib import Path

from snakemake.utils import min_version

# Plan with the library the jobs run (PYTHONPATH below): the one beside this Snakefile.
sys.path.insert(0, workflow.basedir)

from sparsebench.workflow.config import config_from_files, experiment_settings
from sparsebench.workflow.importpath import import_path
from sparsebench.core.errors import ConfigError
from sparsebench.core.provenance import COMMAND_VARIABLE, other_experiment

min_version("9.1.5")  # params derived from threads are no rerun trigger (rules: untracked)

# A --configfile given on the command line replaces the default experiment instead of
# being merged into it (Snakemake merges by default, which would silently keep the
# default datasets and models in every user's run).
if not workflow.overwrite_configfiles:
    configfile: Path(workflow.basedir) / "config.yaml"


_configfiles = workflow.overwrite_configfiles or [Path(workflow.basedir) / "config.yaml"]
# A custom encoder's module is looked for beside the config file that names it, then in
# this checkout, then in the working directory: here for the plan and through PYTHONPATH
# (below) in the jobs (sparsebench.workflow.importpath).
try:
    _import_path = import_path(workflow.basedir, _configfiles, os.getcwd())
    sys.path[0:0] = _import_path
    _validated = config_from_files(config, _configfiles)
except ConfigError as error:
    sys.exit(f"Error: {error}")  # the message alone: no traceback of this file
config.clear()
config.update(_validated)

os.environ.setdefault(COMMAND_VARIABLE, shlex.join(sys.argv))
# `snakemake --report` packages the files in results/: refuse when they were made by
# another experiment (another --configfile), rather than mix its figures with this one's.
if any(arg == "--report" or arg.startswith("--report=") for arg in sys.argv):
    _other = other_experiment(experiment_settings(config), "results/leaderboard.manifest.json")
    if _other:
        sys.exit(f"Error: cannot package the report: {_other}")
# Jobs import the library from this checkout, installed or not (e.g. in a conda env),
# and a custom encoder module as the plan does.
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (*_import_path, os.environ.get("PYTHONPATH")) if p
)


# Light rules run in the Snakemake process itself, not as cluster jobs: downloads (compute
# nodes often have no internet) and the reports over all pairs (the report's figures:
# workflow/rules/report.smk).
localrules:
    all,
    download_beir,
    significance,
    leaderboard,


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/encode.smk"
include: "workflow/rules/retrieve.smk"


if PARTITIONS > 1:

    include: "workflow/rules/partitions.smk"

include: "workflow/rules/tune.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/report.smk"


report: "workflow/report/workflow.rst"


rule all:
    input:
        "results/leaderboard.tsv",
        "results/leaderboard.md",
        "results/leaderboard.tex",
        "results/efficiency.tsv",
        "results/metrics.tsv",
        "results/significance.md",
        REPORT_TARGETS,
    default_target: True
