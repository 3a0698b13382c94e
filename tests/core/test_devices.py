"""CUDA detection: torch's answer, without importing torch where no GPU driver exists."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sparsebench.core import devices as accelerators
from sparsebench.retrieve import stages

torch = pytest.importorskip("torch")


def test_agrees_with_torch():
    assert accelerators.cuda_available() == torch.cuda.is_available()
    expected = "torch" if torch.cuda.is_available() else "scipy"
    assert stages.backend_name("auto", "auto") == expected
    assert stages.backend_name("auto", "cpu") == "scipy"


def test_a_device_file_defers_to_torch(tmp_path, monkeypatch):
    (tmp_path / "nvidia0").touch()
    monkeypatch.setattr(accelerators, "DEVICE_FILES", (str(tmp_path / "nvidia[0-9]*"),))
    assert accelerators.gpu_device_files() == [str(tmp_path / "nvidia0")]
    assert accelerators.cuda_available() == torch.cuda.is_available()


def test_no_driver_means_no_cuda_and_no_torch_import():
    code = (
        "import sys\n"
        "from sparsebench.core import devices as accelerators\n"
        "accelerators.DEVICE_FILES = ()\n"
        "print(accelerators.cuda_available(), 'torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
