"""Progress bars that land in the job's log file, for the long loops of any stage.

Kept apart from sparsebench.workflow.logs (which sets up a stage's log and names the
software behind it) so that library code can report progress without importing the
workflow's provenance.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading

from tqdm import tqdm  # imported with the stage, not at its first bar

with contextlib.suppress(ImportError):  # (no termios on Windows)
    # tqdm imports it at the first bar written to a terminal, inside the stage's work
    import termios  # noqa: F401

# Bars write to their own stage's log: a lock between threads is all they need. tqdm's
# default one also makes a multiprocessing lock (importing multiprocessing) at
# the first bar, in the middle of a stage's work.
tqdm.set_lock(threading.RLock())


def _log_stream():
    """The stream of the stage's log file, else stderr."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.FileHandler):
            return handler.stream
    return sys.stderr


def progress(total: int | None, description: str, unit: str = "text", scale: bool = False):
    """A tqdm bar (rate and ETA) in the job's log file, updated at most every 10 s.

    total None counts without an ETA; scale=True prints 1.2M instead of 1200000 (and KiB,
    MiB for unit="B")."""

    return tqdm(
        total=total,
        desc=description,
        file=_log_stream(),
        mininterval=10,
        ascii=True,
        unit=unit,
        unit_scale=scale,
        unit_divisor=1024 if unit == "B" else 1000,
        disable=total == 0,
    )
