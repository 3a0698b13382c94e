"""Logging for pipeline stages: to the job's log file and to stderr, errors without noise."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from sparsebench.core import provenance
from sparsebench.core.errors import SparsebenchError, describe_os_error

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


@contextlib.contextmanager
def stage_logging(
    log_path: str | Path | None, stage: str, end_process: bool = False
) -> Iterator[logging.Logger]:
    """Send log records to `log_path` and stderr; turn a SparsebenchError or an OSError
    (a full disk) into a clear one-line message and exit status 1 instead of a traceback.

    end_process (a Snakemake job's script, whose process has nothing left to do): once
    the stage has succeeded, close the log and end the process at once, exit status 0,
    without the interpreter's teardown. That teardown runs native libraries' static
    destructors, where Arrow's thread pools can abort a finished job ("terminate called
    without an active exception", SIGABRT, apache/arrow#34314; seen once here in
    prepare_corpus after its last line), and Snakemake then deletes its outputs."""
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w", encoding="utf-8"))
    logging.basicConfig(level=logging.INFO, format=_FORMAT, handlers=handlers, force=True)
    logger = logging.getLogger(f"sparsebench.{stage}")
    versions = provenance.package_versions()
    logger.info(
        "stage %s; %s; command: %s",
        stage,
        ", ".join(f"{k} {v}" for k, v in versions.items()),
        provenance.command_line(),
    )
    try:
        yield logger
    except SparsebenchError as exc:
        logger.error("%s failed: %s", stage, exc)
        logging.shutdown()
        raise SystemExit(1) from None
    except OSError as exc:  # a full disk, a quota, a read-only folder: the user's to fix
        logger.error("%s failed: %s", stage, describe_os_error(exc))
        logging.shutdown()
        raise SystemExit(1) from None
    if end_process:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
