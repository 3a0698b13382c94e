"""The declared minimum version of every dependency, as pip constraints (`name==floor`):
the floors job (.ci/floors) installs the project with them, so that a floor in
pyproject.toml is a version the tests have passed on, not a guess.

Usage: python .ci/floors.py [EXTRA ...] > constraints.txt
(the core dependencies and those of the extras named; a dependency also pinned exactly
by an extra keeps that pin: torch, whose installable build here is the pinned one).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import tomllib

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*(.*)$")


def floors(extras: list[str]) -> dict[str, str]:
    """{name: constraint} for the core dependencies and the extras': `==floor` where a
    `>=floor` is declared, an exact pin (`==`) kept as it is."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project["optional-dependencies"][extra]
    found: dict[str, str] = {}
    for requirement in requirements:
        match = REQUIREMENT.match(requirement.split(";")[0])
        if match is None:
            raise SystemExit(f"cannot read the requirement {requirement!r}")
        name, specifiers = match[1].lower().replace("_", "-"), match[3]
        pinned = re.search(r"==\s*([^,\s]+)", specifiers)
        floor = re.search(r">=\s*([^,\s]+)", specifiers)
        if pinned:
            found[name] = f"=={pinned[1]}"
        elif floor and not found.get(name, "").startswith("=="):
            found[name] = f"=={floor[1]}"
        elif not pinned and not floor:
            raise SystemExit(f"{requirement!r} declares no minimum version")
    return found


if __name__ == "__main__":
    for name, constraint in sorted(floors(sys.argv[1:]).items()):
        print(f"{name}{constraint}")
