"""config.yaml validation: defaults filled in, every mistake named with its key path."""

from __future__ import annotations

import pytest
import yaml
from conftest import REPO, write_text

from sparsebench.core.errors import ConfigError
from sparsebench.kinds.registry import kind_of
from sparsebench.workflow.config import load_config_file, validate_config
from sparsebench.workflow.plan import Plan


def encoding(model: dict, side: str = "documents", language: str = "en") -> dict:
    return kind_of(model).encoding(model, side, language)


MINIMAL = {
    "datasets": {"d": {"source": "builtin", "name": "minibeir"}},
    "models": {"bm25": {"kind": "bm25"}},
}


def test_defaults_are_filled_in():
    config = validate_config(MINIMAL)
    model = config["models"]["bm25"]
    assert (model["k1"], model["b"], model["idf"], model["k1_plus_one"]) == (
        0.9,
        0.4,
        "lucene",
        False,
    )
    assert model["analyzer"] == {
        "lowercase": True,
        "stopwords": "auto",
        "stemmer": "auto",
        "tokenizer": "auto",
        "possessive": "auto",
        "lucene": "auto",
    }
    assert encoding(model)["analyzer"] == {"lucene": "en"}  # DefaultEnglishAnalyzer
    assert config["retrieval"]["k"] == 1000
    assert config["evaluation"]["primary_metric"] == "nDCG@10"
    assert config["datasets"]["d"]["split"] == "test"
    assert MINIMAL["models"]["bm25"] == {"kind": "bm25"}  # the input is not modified


def test_beir_self_hit_datasets_default_to_dropping_identical_ids():
    config = validate_config(
        {
            **MINIMAL,
            "datasets": {
                "arguana": {"source": "beir"},
                "quora": {"source": "beir"},
                "scifact": {"source": "beir"},
                "mine": {"source": "beir", "name": "arguana", "ignore_identical_ids": False},
            },
        }
    )
    flags = {n: d["ignore_identical_ids"] for n, d in config["datasets"].items()}
    assert flags == {"arguana": True, "quora": True, "scifact": False, "mine": False}
    assert Plan(config).retrieval_settings("arguana") == {"k": 1000, "ignore_identical_ids": True}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"models": {"x": {"kind": "bm26"}}}, r"config.models.x.kind: unknown model kind 'bm26'"),
        ({"models": {"x": {"kind": "bm25", "k2": 1}}}, r"config.models.x: .*'k2' was unexpected"),
        ({"models": {"x": {"kind": "bm25", "b": 2}}}, r"config.models.x.b: 2 is greater"),
        ({"models": {"x": {"kind": "bm25", "idf": "smart"}}}, r"config.models.x.idf"),
        ({"models": {"x": {"kind": "bm25", "statistics": "anserini"}}}, r"x.statistics"),
        ({"datasets": {"d": {"source": "local"}}}, r"config.datasets.d: 'path' is a required"),
        ({"datasets": {"d": {"source": "ftp"}}}, r"config.datasets.d.source"),
        ({"datasets": {}}, r"config.datasets"),
        ({"retrieval": {"k": 0}}, r"config.retrieval.k"),
        ({"evaluation": {"primary_metric": "NDCG@10"}}, r"primary_metric: unknown metric"),
        ({"models": {"bad/name": {"kind": "bm25"}}}, r"bad/name"),
        ({"colour": "blue"}, r"'colour' was unexpected"),
    ],
)
def test_mistakes_are_reported_with_their_path(change, message):
    with pytest.raises(ConfigError, match=message):
        validate_config({**MINIMAL, **change})


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"kind": "bm25", "k1": 0.9}, {"kind": "bm25", "k1": 1.5}),
        ({"kind": "bm25"}, {"kind": "bm25", "statistics": "lucene"}),
        ({"kind": "splade", "model": "m"}, {"kind": "splade", "model": "m", "top_k": 64}),
        ({"kind": "splade", "model": "m"}, {"kind": "splade", "model": "m", "threshold": 0.5}),
    ],
)
def test_stage_settings_separate_encoding_from_weighting(first, second):
    a = validate_config({**MINIMAL, "models": {"m": first}})["models"]["m"]
    b = validate_config({**MINIMAL, "models": {"m": second}})["models"]["m"]
    assert encoding(a) == encoding(b)
    assert kind_of(a).weighting(a) != kind_of(b).weighting(b)


@pytest.mark.parametrize(
    "path",
    [
        "config.yaml",
        *sorted(str(p.relative_to(REPO)) for p in (REPO / "workflow" / "presets").glob("*.yaml")),
    ],
)
def test_shipped_configs_are_valid(path):
    config = load_config_file(REPO / path)
    assert config["models"] and config["datasets"]
    assert yaml.safe_load((REPO / path).read_text())


def test_a_dataset_counts_relevance_from_its_own_level():
    """TREC DL's published MAP and recall count grades 2-3 (trec_eval -l 2): a dataset's
    relevance_level overrides evaluation.relevance_level for its metric files only."""
    config = validate_config(
        {
            "datasets": {
                "dl": {"source": "builtin", "name": "minibeir", "relevance_level": 2},
                "mini": {"source": "builtin", "name": "minibeir"},
            },
            "models": {"bm25": {"kind": "bm25"}},
        }
    )
    plan = Plan(config)
    assert plan.evaluation_settings("dl")["relevance_level"] == 2
    assert plan.evaluation_settings("mini")["relevance_level"] == 1


def test_relative_paths_are_relative_to_the_config_file(tmp_path):
    """`path: data/mine` in /exp/c.yaml means /exp/data/mine, wherever Snakemake runs
    (--directory) and whatever the current folder; hub ids and URLs are left alone."""
    from sparsebench.workflow.config import load_config_file, resolve_relative_paths

    (tmp_path / "exp" / "data" / "mine").mkdir(parents=True)
    raw = {
        "datasets": {
            "mine": {"source": "local", "path": "data/mine"},
            "abs": {"source": "local", "path": str(tmp_path / "x")},
            "home": {"source": "local", "path": "~/x"},
            "files": {
                "source": "files",
                "corpus": "c.jsonl",
                "queries": "q.jsonl",
                "qrels": "r.tsv",
            },
            "sw": {"source": "miracl", "language": "sw"},
            "mm": {
                "source": "mmarco",
                "language": "pt",
                "corpus": "unicamp-dl/mmarco",
                "qrels": "https://host/qrels.tsv",
                "qrels_md5": "0" * 32,
            },
        },
        "models": {"ext": {"kind": "run", "path": "runs/{dataset}.trec"}, "bm25": {"kind": "bm25"}},
    }
    base = tmp_path / "exp"
    resolved = resolve_relative_paths(raw, base)
    datasets = resolved["datasets"]
    assert datasets["mine"]["path"] == str(base / "data" / "mine")
    assert datasets["abs"]["path"] == str(tmp_path / "x") and datasets["home"]["path"] == "~/x"
    assert datasets["files"]["qrels"] == str(base / "r.tsv")
    assert datasets["mm"]["corpus"] == "unicamp-dl/mmarco"  # a hub id: no such folder here
    assert datasets["mm"]["qrels"] == "https://host/qrels.tsv"
    assert resolved["models"]["ext"]["path"] == str(base / "runs" / "{dataset}.trec")
    assert raw["datasets"]["mine"]["path"] == "data/mine"  # the input is not changed
    configfile = base / "c.yaml"
    configfile.write_text(
        yaml.safe_dump(
            {"datasets": {"mine": raw["datasets"]["mine"]}, "models": {"bm25": {"kind": "bm25"}}}
        )
    )
    assert load_config_file(str(configfile))["datasets"]["mine"]["path"] == str(
        base / "data" / "mine"
    )


def test_tables_of_expected_figures_are_relative_to_the_config_file(tmp_path):
    from sparsebench.workflow.config import load_config_file

    base = tmp_path / "exp"
    (base / "ref").mkdir(parents=True)
    for table in (base / "mine.tsv", base / "ref" / "mine.tsv"):
        table.write_text("dataset\tsystem\tmetric\tvalue\n")
    configfile = base / "c.yaml"
    for expected, wanted in (
        ("mine.tsv", str(base / "mine.tsv")),
        (["beir", "ref/mine.tsv"], ["beir", str(base / "ref" / "mine.tsv")]),
        ("beir", "beir"),
    ):
        configfile.write_text(
            yaml.safe_dump(
                {
                    "datasets": {"mine": {"source": "builtin", "name": "minibeir"}},
                    "models": {"bm25": {"kind": "bm25"}},
                    "reproduction": {"expected": expected},
                }
            )
        )
        assert load_config_file(str(configfile))["reproduction"]["expected"] == wanted


def test_a_missing_table_of_expected_figures_is_refused_before_anything_runs(tmp_path):
    from sparsebench.workflow.config import load_config_file

    configfile = tmp_path / "c.yaml"
    for expected in ("none", ["beir", "ref/missing.tsv"]):
        configfile.write_text(
            yaml.safe_dump(
                {
                    "datasets": {"mine": {"source": "builtin", "name": "minibeir"}},
                    "models": {"bm25": {"kind": "bm25"}},
                    "reproduction": {"expected": expected},
                }
            )
        )
        with pytest.raises(
            ConfigError, match=r"reproduction.expected: no table of expected .*beir"
        ):
            load_config_file(str(configfile))


def test_the_workflow_reads_relative_paths_against_the_config_file(tmp_path):
    from conftest import TINY_DOCS, TINY_QRELS, TINY_QUERIES, write_collection
    from support.snakemake_runs import snakemake

    experiment = tmp_path / "exp"
    write_collection(experiment / "data" / "col", TINY_DOCS, TINY_QUERIES, TINY_QRELS)
    configfile = experiment / "c.yaml"
    configfile.write_text(
        yaml.safe_dump(
            {
                "datasets": {"col": {"source": "local", "path": "data/col"}},
                "models": {"bm25": {"kind": "bm25"}},
            }
        )
    )
    # Snakemake runs in tmp_path/work, started from tmp_path: neither holds data/col
    result = snakemake(tmp_path / "work", "-n", configfile=configfile, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "prepare" in result.stdout


# --- nothing silently wrong: duplicate keys, name clashes, paths, early checks ----------


def test_a_key_written_twice_is_refused_with_file_line_and_key(tmp_path):
    """PyYAML keeps the last of two equal keys without a word: the first model vanishes."""
    configfile = write_text(
        tmp_path / "c.yaml",
        "datasets:\n"
        "  d: {source: builtin, name: minibeir}\n"
        "models:\n"
        "  bm25: {kind: bm25, k1: 0.9}\n"
        "  bm25: {kind: bm25, k1: 1.2}\n",
    )
    expected = rf"{configfile}:5: the key 'bm25' is written twice.*line 4"
    with pytest.raises(ConfigError, match=expected):
        load_config_file(configfile)


def test_presets_and_the_schema_have_no_key_written_twice():
    from sparsebench.workflow.config import load_schema
    from sparsebench.workflow.yamlfile import read_yaml

    assert load_schema()["properties"]
    for path in [REPO / "config.yaml", *(REPO / "workflow" / "presets").glob("*.yaml")]:
        assert read_yaml(path)


def test_the_workflow_refuses_a_key_written_twice(tmp_path):
    from support.snakemake_runs import snakemake

    configfile = write_text(
        tmp_path / "c.yaml",
        "datasets:\n  d: {source: builtin, name: minibeir}\n"
        "models:\n  bm25: {kind: bm25}\n"
        "retrieval:\n  k: 10\n  k: 100\n",
    )
    result = snakemake(tmp_path / "work", "-n", configfile=configfile, check=False)
    assert result.returncode != 0
    assert f"{configfile}:7: the key 'k' is written twice" in result.stdout + result.stderr


MINI = {"source": "builtin", "name": "minibeir"}


@pytest.mark.parametrize("name", ["average", "tuning", "model"])
def test_a_dataset_named_like_a_leaderboard_column_is_refused(name):
    """A dataset `average` vanished from the leaderboard: the average column replaced it."""
    with pytest.raises(ConfigError, match=rf"config.datasets.{name}: the leaderboard has a column"):
        validate_config({**MINIMAL, "datasets": {name: MINI}})


@pytest.mark.parametrize("first", [True, False])
def test_a_dataset_named_like_a_cqadupstack_forum_is_refused(first):
    """`cqadupstack-android` and the forum of that name that cqadupstack expands into
    replaced each other, whichever came last."""
    mine = {"source": "beir", "name": "cqadupstack", "subset": "android", "split": "test"}
    entries = [("cqadupstack-android", mine), ("cqadupstack", {"source": "beir"})]
    datasets = dict(entries if first else entries[::-1])
    expected = (
        r"config.datasets.cqadupstack-android: .*the cqadupstack forum android of cqadupstack"
        r".*same name"
    )
    with pytest.raises(ConfigError, match=expected):
        validate_config({**MINIMAL, "datasets": datasets})


def test_a_group_named_like_a_dataset_is_refused():
    datasets = {"a": {**MINI, "group": "b"}, "b": MINI}
    with pytest.raises(ConfigError, match=r"config.datasets.b: its leaderboard column 'b' is also"):
        validate_config({**MINIMAL, "datasets": datasets})


def test_names_that_differ_only_in_case_are_refused():
    """results/eval/BM25 and results/eval/bm25 are one folder on macOS and Windows."""
    with pytest.raises(ConfigError, match=r"config.models.bm25: differs from 'BM25' only in case"):
        validate_config({**MINIMAL, "models": {"BM25": {"kind": "bm25"}, "bm25": {"kind": "bm25"}}})


def test_variants_of_two_sweeps_with_the_same_name_are_refused():
    models = {
        "a": {"kind": "bm25", "k1": {"grid": [0.9]}, "b": {"grid": [0.4]}},
        "a+k1_0.9": {"kind": "bm25", "b": {"grid": [0.4]}},
    }
    with pytest.raises(ConfigError, match=r"a variant of a\+k1_0.9 and a variant of a have"):
        validate_config({**MINIMAL, "models": models})


def test_more_partitions_than_shards_is_refused():
    """Today 4 partitions of a 1-shard corpus quietly run as 1."""
    config = validate_config(
        {**MINIMAL, "retrieval": {"partitions": 4}, "corpus": {"shard_size": 20}}
    )
    plan = Plan(config)
    corpus = plan.corpus("d").name
    assert (
        len(
            Plan(validate_config({**config, "retrieval": {"partitions": 3}})).partition_groups(
                corpus, 48
            )
        )
        == 3
    )
    expected = r"config.retrieval.partitions: 4 partitions, but the corpus .* makes 3 shard\(s\)"
    with pytest.raises(ConfigError, match=expected):
        plan.partition_groups(corpus, 48)


def test_the_baseline_is_the_first_model_unless_named_and_must_name_one():
    """By default the first model listed; a baseline naming no model is refused whatever
    the number of models (a typo would otherwise be printed under the leaderboard)."""
    two = {**MINIMAL, "models": {"splade": {"kind": "bm25"}, "bm25": {"kind": "bm25"}}}
    assert validate_config(two)["significance"]["baseline"] == "splade"
    for models in (MINIMAL["models"], two["models"]):
        for all_pairs in (False, True):
            config = {**MINIMAL, "models": models}
            config["significance"] = {"baseline": "bm26", "all_pairs": all_pairs}
            with pytest.raises(ConfigError, match="significance.baseline: 'bm26' is not a model"):
                validate_config(config)


def test_one_model_has_no_significance_note_naming_a_baseline():
    from sparsebench.evaluate.leaderboard import significance_note

    settings = validate_config(MINIMAL)["significance"]
    assert significance_note(settings, False, 1) == "One model: no significance test."
    assert "baseline (bm25)" in significance_note(settings, False, 2)


def test_a_run_model_whose_path_names_no_file_is_refused_and_a_partial_one_said(tmp_path, caplog):
    from sparsebench.workflow.config import load_config_file

    config = {
        "datasets": {
            "mini": {"source": "builtin", "name": "minibeir"},
            "again": {"source": "builtin", "name": "minibeir"},
        },
        "models": {
            "bm25": {"kind": "bm25"},
            "pyserini": {"kind": "run", "path": "rns/{dataset}.trec"},
        },
    }
    configfile = write_text(tmp_path / "c.yaml", yaml.safe_dump(config))
    with pytest.raises(
        ConfigError,
        match=r"models.pyserini.path: no run file for any dataset \(looked for .*rns/mini.trec",
    ):
        load_config_file(configfile)
    write_text(tmp_path / "rns" / "mini.trec", "q1 Q0 d1 1 1.0 x\n")
    with caplog.at_level("WARNING"):
        load_config_file(configfile)
    assert (
        "config.models.pyserini.path: no run file for again; pyserini covers only mini"
        in caplog.text
    )
