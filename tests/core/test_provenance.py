"""What a manifest records of a model: a local folder's files by checksum (its modules'
configs among them), a hub model by the commit that loading it reads."""

from __future__ import annotations

import hashlib

from sparsebench.core.provenance import model_provenance


def _snapshot(base, commit, content):
    folder = base / "snapshots" / commit
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(content)


def test_a_hub_model_is_recorded_at_the_commit_main_resolves_to(tmp_path, monkeypatch):
    """Two snapshots in the cache, main at the one whose hash sorts first: that one is
    what transformers loads, so that one is recorded."""
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    base = tmp_path / "models--org--model"
    loaded, other = "1" * 40, "f" * 40
    _snapshot(base, loaded, "{}")
    _snapshot(base, other, "{}")
    (base / "refs").mkdir()
    (base / "refs" / "main").write_text(loaded)
    record = model_provenance(["org/model", "org/absent"], {})
    assert record["org/model"] == {"hub_id": "org/model", "revision": loaded}
    assert record["org/absent"] == {"hub_id": "org/absent", "revision": None}


def test_a_folders_module_configs_are_recorded_beside_its_files(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "1_SpladePooling").mkdir()
    pooling = '{"activation_function": "log1p_relu"}'
    (tmp_path / "1_SpladePooling" / "config.json").write_text(pooling)
    files = model_provenance([str(tmp_path)], {})[str(tmp_path)]
    assert sorted(files) == ["1_SpladePooling/config.json", "config.json"]
    assert files["1_SpladePooling/config.json"].endswith(
        hashlib.sha256(pooling.encode()).hexdigest()
    )
