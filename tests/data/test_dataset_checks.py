"""Dataset entries are checked when the config is read, before any job: each mistake is
one clear line naming the key it concerns."""

from __future__ import annotations

import pytest

from sparsebench.core.errors import ConfigError, DataError
from sparsebench.data.miracl import MIRACL_SPLITS, MiraclSource
from sparsebench.data.mmarco import MmarcoSource
from sparsebench.workflow.config import validate_config


def _validate(**entry):
    return validate_config({"datasets": {"d": entry}, "models": {"bm25": {"kind": "bm25"}}})


@pytest.mark.parametrize("name", ["bioasq", "signal1m", "trec-news", "robust04"])
def test_a_beir_dataset_nobody_may_distribute_says_what_to_do(name):
    with pytest.raises(ConfigError) as error:
        _validate(source="beir", name=name)
    message = str(error.value)
    assert f"config.datasets.d.name: BEIR does not distribute {name}" in message
    assert "`source: local` and `path: <folder>`" in message
    # an archive of one's own, with its md5, is accepted
    _validate(source="beir", name=name, base_url="http://127.0.0.1:1/beir", md5="0" * 32)


def test_an_unknown_beir_name_is_refused_before_any_download():
    with pytest.raises(
        ConfigError, match=r"config.datasets.d.name: no public BEIR archive .*'scifacts'"
    ):
        _validate(source="beir", name="scifacts")


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"language": "xx"}, r"config.datasets.d.language: MIRACL has no language 'xx'"),
        (
            {"language": "sw", "split": "testA"},
            r"config.datasets.d.split: MIRACL sw has no split 'testA' \(did you mean 'test-a'\?\)",
        ),
        (
            {"language": "sw", "split": "test_b"},
            r"MIRACL sw has no split 'test_b' \(did you mean 'test-b'\?\)",
        ),
        (
            {"language": "de", "split": "train"},
            r"MIRACL de has no split 'train'; it has: dev, test-b",
        ),
        (
            {"language": "sw", "split": "test-a"},
            r"config.datasets.d.split: MIRACL sw test-a has topics but no public judgments; "
            "evaluate on train or dev",
        ),
    ],
)
def test_miracl_language_and_split_are_checked(entry, expected):
    with pytest.raises(ConfigError, match=expected):
        _validate(source="miracl", **entry)


def test_every_miracl_language_has_its_dev_split():
    assert len(MIRACL_SPLITS) == 18
    for language in MIRACL_SPLITS:
        assert _validate(source="miracl", language=language)["datasets"]["d"]["split"] == "dev"


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"language": "xx"}, r"config.datasets.d.language: mMARCO has no language 'xx'"),
        (
            {"language": "pt", "query_language": "eng"},
            r"config.datasets.d.query_language: mMARCO has no language 'eng'",
        ),
        (
            {"language": "pt", "split": "test"},
            r"config.datasets.d.split: mMARCO has no split 'test'",
        ),
        (
            {"language": "pt", "split": "train"},
            r"config.datasets.d.qrels: mMARCO train has no default judgments",
        ),
    ],
)
def test_mmarco_languages_and_split_are_checked(entry, expected):
    with pytest.raises(ConfigError, match=expected):
        _validate(source="mmarco", **entry)


def test_every_problem_is_reported_at_once():
    config = {
        "datasets": {
            "a": {"source": "beir", "name": "bioasq"},
            "b": {"source": "miracl", "language": "xx"},
        },
        "models": {"bm25": {"kind": "bm25"}},
    }
    with pytest.raises(ConfigError) as error:
        validate_config(config)
    assert "config.datasets.a.name" in str(error.value)
    assert "config.datasets.b.language" in str(error.value)


def test_the_sources_check_themselves_too():
    """prepare calls check() as well: an entry built without the config is still refused."""
    with pytest.raises(DataError, match="no public judgments"):
        MiraclSource("sw", "test-b").check()
    with pytest.raises(DataError, match="mMARCO has no language 'xx'"):
        MmarcoSource("xx").check()


def test_the_workflow_refuses_before_planning_any_job(tmp_path):
    import yaml
    from support.snakemake_runs import snakemake

    config = {
        "datasets": {
            "bioasq": {"source": "beir"},
            "sw": {"source": "miracl", "language": "sw", "split": "testA"},
        },
        "models": {"bm25": {"kind": "bm25"}},
    }
    configfile = tmp_path / "c.yaml"
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path / "work", "-n", configfile=configfile, check=False)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "config.datasets.bioasq.name: BEIR does not distribute bioasq" in output
    assert (
        "config.datasets.sw.split: MIRACL sw has no split 'testA' (did you mean 'test-a'?)"
        in output
    )
    assert "download_beir" not in result.stdout


def test_each_dataset_finds_its_row_of_the_published_tables():
    from sparsebench.evaluate.reproduction import load_expected
    from sparsebench.evaluate.stages import reproduction_targets

    config = validate_config(
        {
            "datasets": {
                "cqa": {"source": "beir", "name": "cqadupstack"},
                "scifact": {"source": "beir"},
                "sw": {"source": "miracl", "language": "sw"},
                "sw-train": {"source": "miracl", "language": "sw", "split": "train"},
                "dl20": {"source": "ir_datasets", "id": "msmarco-passage/trec-dl-2020/judged"},
                "mine": {"source": "builtin", "name": "minibeir"},
            },
            "models": {"bm25": {"kind": "bm25"}},
            "reproduction": {"datasets": {"mine": "scifact"}},
        }
    )
    rows = reproduction_targets(config)
    assert rows["cqa-android"] == "cqadupstack-android" and len(rows) == 17
    assert rows["scifact"] == "scifact" and rows["sw"] == "miracl-sw"
    assert rows["sw-train"] == "sw-train"  # the published MIRACL figures are dev figures
    assert rows["dl20"] == "msmarco-passage/trec-dl-2020/judged"
    assert rows["mine"] == "scifact"
    published = set(load_expected(["beir", "miracl", "msmarco"])["dataset"])
    assert {r for n, r in rows.items() if n not in ("sw-train", "mine")} <= published
