"""The device a stage computes on: whether a CUDA device can be used (asked without
importing torch where none can be), the torch device a setting names, and the CPU's
name for the records of speed.

Importing torch is slow (benchmarks/RESULTS.md, "Measurements behind the code"), a cost
paid by every job that only asks. CUDA (and ROCm, which torch also reports as CUDA)
needs the driver's device files: where none exists, the answer is no, and torch is not
imported. Encoders and retrieval backends both choose here, so neither imports the
other.
"""

from __future__ import annotations

import glob
import platform
from pathlib import Path

from sparsebench.core.errors import ConfigError

# NVIDIA's driver, AMD's ROCm driver, and the GPU bridge of WSL 2
DEVICE_FILES = ("/dev/nvidia[0-9]*", "/dev/kfd", "/dev/dxg")


def gpu_device_files() -> list[str]:
    """The GPU driver device files present on this machine."""
    return [path for pattern in DEVICE_FILES for path in glob.glob(pattern)]


def cuda_available() -> bool:
    """torch.cuda.is_available(), answered without torch where no GPU driver is there
    (False too when torch is not installed)."""
    if not gpu_device_files():
        return False
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def select_device(requested: str = "auto"):
    """The torch device of a setting: 'auto' = the first CUDA device when there is one,
    else the CPU; 'cuda[:n]' refused clearly where CUDA is not available."""
    import torch

    if requested == "auto":
        return torch.device("cuda" if cuda_available() else "cpu")
    device = torch.device(requested)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ConfigError(f"device {requested!r} was asked for but CUDA is not available")
    return device


def cpu_name() -> str:
    """The CPU's model name (/proc/cpuinfo on Linux), else what the platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
