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
