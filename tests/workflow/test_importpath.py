"""A custom encoder's module is imported from beside the config file that names it, before
a module of the same name in the checkout (sparsebench.workflow.importpath)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sparsebench.core.errors import ConfigError
from sparsebench.workflow.importpath import import_path


def test_the_config_folder_comes_before_the_checkout_and_the_working_directory(tmp_path):
    checkout, experiment, cwd = (tmp_path / n for n in ("checkout", "experiment", "cwd"))
    for folder in (checkout, experiment, cwd):
        folder.mkdir()
    (checkout / "trigrams.py").write_text("raise RuntimeError('the copy in the checkout')\n")
    (experiment / "trigrams.py").write_text("WHERE = 'beside the config'\n")
    path = import_path(checkout, [experiment / "my.yaml"], cwd)
    assert path == [str(experiment), str(checkout), str(cwd)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    probe = [sys.executable, "-c", "import trigrams; print(trigrams.WHERE)"]
    out = subprocess.run(probe, env=env, capture_output=True, text=True, check=True, cwd=cwd)
    assert out.stdout.strip() == "beside the config"


def test_the_checkouts_own_config_keeps_it_once(tmp_path):
    assert import_path(tmp_path, [tmp_path / "config.yaml"], tmp_path) == [str(tmp_path)]


@pytest.mark.parametrize("shadow", ["sparsebench", "sparsebench.py"])
def test_a_config_folder_holding_a_sparsebench_of_its_own_is_refused(tmp_path, shadow):
    experiment = tmp_path / "experiment"
    experiment.mkdir()
    target = experiment / shadow
    target.mkdir() if shadow == "sparsebench" else target.write_text("")
    with pytest.raises(ConfigError, match=f"the config folder {experiment} holds a sparsebench"):
        import_path(tmp_path / "checkout", [experiment / "my.yaml"], tmp_path)
