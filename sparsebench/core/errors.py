"""Exceptions that carry a message meant for the person running the pipeline.

Every guard against bad input raises one of these, so the workflow scripts can print
the message on its own (no traceback noise) and the tests can match it.
"""


class SparsebenchError(Exception):
    """Base class: an input or setting the user must fix."""


class ConfigError(SparsebenchError):
    """config.yaml is invalid or names something unknown."""


class DataError(SparsebenchError):
    """A dataset, qrels or run file is malformed or inconsistent."""


class DownloadError(SparsebenchError):
    """A download failed or did not match its checksum."""


def describe_os_error(exc: OSError) -> str:
    """An operating system's refusal (a full disk, a quota, a missing or read-only file)
    as one line naming the file, when the error knows it, and the cause."""
    cause = exc.strerror or str(exc)
    files = [str(f) for f in (exc.filename, exc.filename2) if f is not None]
    return f"{' -> '.join(files)}: {cause}" if files else cause
