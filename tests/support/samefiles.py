"""Comparisons of file contents that fail fast with a short message: the first differing
line and how many lines differ, never a diff of megabytes (pytest's own diff of two
large byte strings can run for longer than the whole suite)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

_SHOWN = 160  # characters of a differing line shown


def _show(lines: list[bytes], index: int) -> str:
    return repr(lines[index][:_SHOWN]) if index < len(lines) else "<end of file>"


def first_difference(actual: bytes | str, expected: bytes | str) -> str | None:
    """None when equal, else where the two first differ and how much differs (linear)."""
    if actual == expected:
        return None
    if isinstance(actual, str):
        actual = actual.encode("utf-8")
    if isinstance(expected, str):
        expected = expected.encode("utf-8")
    ours, theirs = actual.split(b"\n"), expected.split(b"\n")
    pairs = zip(ours, theirs, strict=False)
    differing = sum(a != b for a, b in pairs) + abs(len(ours) - len(theirs))
    shared = min(len(ours), len(theirs))
    first = next((i for i in range(shared) if ours[i] != theirs[i]), shared)
    return (
        f"line {first + 1} differs ({differing} of {max(len(ours), len(theirs))} lines differ): "
        f"{_show(ours, first)} != {_show(theirs, first)}"
    )


def assert_same_bytes(actual: bytes | str, expected: bytes | str, what: str = "contents") -> None:
    __tracebackhide__ = True
    message = first_difference(actual, expected)
    if message is not None:
        raise AssertionError(f"{what}: {message}")


def assert_same_files(actual: Path, expected: Path) -> None:
    __tracebackhide__ = True
    assert_same_bytes(actual.read_bytes(), expected.read_bytes(), f"{actual} vs {expected}")


def assert_same_trees(actual: Mapping[str, bytes], expected: Mapping[str, bytes]) -> None:
    """Two {relative path: contents} maps: the same paths, and each file the same bytes."""
    __tracebackhide__ = True
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    if missing or extra:
        raise AssertionError(f"files differ: missing {missing[:5]}, unexpected {extra[:5]}")
    different = [path for path in sorted(expected) if actual[path] != expected[path]]
    if different:
        path = different[0]
        raise AssertionError(
            f"{len(different)} of {len(expected)} files differ ({', '.join(different[:5])}); "
            f"{path}: {first_difference(actual[path], expected[path])}"
        )
