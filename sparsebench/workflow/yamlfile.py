"""YAML as the project reads it: a key written twice in one mapping is an error, not the
last entry silently winning (PyYAML's default), and a syntax error names its file and line.
"""

from __future__ import annotations

import os
from typing import Any

import yaml

from sparsebench.core.errors import ConfigError


class UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a mapping with the same key twice."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise ConfigError(
                    f"{key_node.start_mark.name}:{line}: the key {key!r} is written twice in "
                    f"one mapping (first on line {seen[key]}); only one can count, so remove "
                    "or rename one"
                )
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, UniqueKeyLoader.construct_mapping
)


def parse_yaml(text: str, name: str) -> Any:
    """The YAML document in `text` (read from `name`, for the messages)."""
    loader = UniqueKeyLoader(text)
    loader.name = name
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{name}:{mark.line + 1}" if mark else name
        cause = (exc.problem or "") + (f" ({exc.context})" if exc.context else "")
        raise ConfigError(f"{where}: not valid YAML: {cause}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{name}: not valid YAML: {exc}") from None
    finally:
        loader.dispose()


def read_yaml(path: str | os.PathLike) -> Any:
    """A YAML file's content ({} when empty), refusing duplicate keys and naming the file
    and line of any error."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return parse_yaml(text, str(path)) or {}
