"""Model folders of the SPLADE kind (model, doc_model, query_model): relative to the config
file, inputs of their encodings, and a missing folder refused when the config is read."""

from __future__ import annotations

import pytest
import yaml
from conftest import planned_encoding, write_text

from sparsebench.core.errors import ConfigError
from sparsebench.workflow.config import load_config_file

MINI = {"source": "builtin", "name": "minibeir"}


def test_model_folders_are_relative_to_the_config_file_and_hub_ids_stay(tmp_path):
    """The README's `model: ../shared/models/splade-tiny` meant the working directory,
    so it failed under `snakemake --directory`, and only at the encode job."""
    from sparsebench.workflow.config import resolve_relative_paths

    base = tmp_path / "exp"
    (base / "models" / "mine").mkdir(parents=True)
    (tmp_path / "shared" / "tiny").mkdir(parents=True)
    raw = {
        "models": {
            "rel": {"kind": "splade", "model": "../shared/tiny"},
            "bare": {"kind": "splade", "model": "models/mine"},
            "hub": {
                "kind": "splade",
                "doc_model": "naver/efficient",
                "query_model": "./models/mine",
            },
            "home": {"kind": "splade", "model": "~/m"},
        }
    }
    models = resolve_relative_paths(raw, base)["models"]
    assert models["rel"]["model"] == str(tmp_path / "shared" / "tiny")
    assert models["bare"]["model"] == str(base / "models" / "mine")
    assert models["hub"]["doc_model"] == "naver/efficient"  # no such folder: a hub id
    assert models["hub"]["query_model"] == str(base / "models" / "mine")
    assert models["home"]["model"] == "~/m"


def test_a_model_folder_is_an_input_of_its_encoding_wherever_snakemake_runs(tmp_path):
    folder = tmp_path / "exp" / "models" / "tiny"
    write_text(folder / "config.json", "{}")
    models = "{s: {kind: splade, model: ./models/tiny}}"
    encoding = planned_encoding(tmp_path / "exp" / "c.yaml", models)
    assert encoding.settings["model"] == str(folder)
    assert encoding.model_files == (str(folder / "config.json"),)


@pytest.mark.parametrize("key", ["model", "doc_model", "query_model"])
def test_a_missing_local_model_folder_is_seen_when_the_config_is_read(tmp_path, key):
    entry = {"kind": "splade", "model": "naver/splade-v3", key: "./models/nope"}
    configfile = write_text(
        tmp_path / "c.yaml",
        yaml.safe_dump({"datasets": {"d": MINI}, "models": {"s": entry}}),
    )
    expected = rf"config.models.s: no model folder {tmp_path / 'models' / 'nope'} \(a local path"
    with pytest.raises(ConfigError, match=expected):
        load_config_file(configfile)
