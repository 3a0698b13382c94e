"""A docs page followed as a reader follows it: its code blocks, in order, in a folder laid
out as the reader's (the clone's top level, `../shared` beside it).

A page's fenced blocks are its steps:

    ```yaml title="scifact.yaml"      a file the reader writes (any language but text)
    ```text title="results/x.md"      what the reader should see in that file: every line
                                       shown is there, in this order (runs of spaces count
                                       as one; a line ending in `...` is a prefix)
    ```bash                            commands the reader types, run by bash -euo pipefail

Any other block is refused, so that a page cannot show a command no test runs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

BLOCK = re.compile(r"^```(\w+)(?: title=\"([^\"]+)\")?\n(.*?)^```\s*$", re.M | re.S)
# what the reader's clone holds at its top level (tutorials run beside these)
CLONE = ("Snakefile", "config.yaml", "workflow", "scripts", "envs", "profiles", "docs")


@dataclass(frozen=True)
class Step:
    kind: str  # "file", "expect" or "run"
    name: str | None
    text: str
    line: int

    def where(self, page: Path) -> str:
        return f"{page.name}:{self.line}"


def steps(page: Path) -> list[Step]:
    """The page's blocks as steps; a block that is none of the three kinds is an error."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        language, title, body = match.groups()
        line = text.count("\n", 0, match.start()) + 1
        if language == "bash" and title is None:
            found.append(Step("run", None, body, line))
        elif language == "text" and title:
            found.append(Step("expect", title, body, line))
        elif title:
            found.append(Step("file", title, body, line))
        else:
            raise AssertionError(f"{page.name}:{line}: a ```{language} block that is not run")
    return found


def reader_folder(root: Path, repo: Path, shared: Path) -> Path:
    """root/clone: the clone's top level (linked), root/shared: the test collections."""
    clone = root / "clone"
    clone.mkdir(parents=True)
    for name in CLONE:
        (clone / name).symlink_to(repo / name)
    (root / "shared").symlink_to(shared)
    return clone


def reader_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a reader whose virtual environment is active, offline."""
    bin_dir = str(Path(sys.executable).parent)
    environment = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "VIRTUAL_ENV": str(Path(bin_dir).parent),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
    }
    return {**environment, **(extra or {})}


def _normal(line: str) -> str:
    return " ".join(line.split())


def check_shown(shown: str, actual: str, where: str) -> None:
    """Every line shown is in the actual text, in order (a line ending in ... a prefix)."""
    lines = [_normal(line) for line in actual.splitlines()]
    at = 0
    for wanted in filter(None, map(_normal, shown.splitlines())):
        prefix = wanted.endswith("...")
        body = wanted[:-3] if prefix else wanted
        for index in range(at, len(lines)):
            if lines[index].startswith(body) if prefix else lines[index] == body:
                at = index + 1
                break
        else:
            raise AssertionError(
                f"{where}: the page shows {wanted!r}, not found (in order) in the output:\n"
                + "\n".join(lines[:60])
            )


def follow(page: Path, folder: Path, environment: dict[str, str], timeout: int = 900) -> list[Step]:
    """Every step of the page in `folder`, in order; the first that fails raises with its
    place on the page and the output's end."""
    done = []
    for step in steps(page):
        target = folder / step.name if step.name else None
        if step.kind == "file":
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step.text, encoding="utf-8")
        elif step.kind == "expect":
            assert target.is_file(), f"{step.where(page)}: {step.name} was not made"
            check_shown(step.text, target.read_text(encoding="utf-8"), step.where(page))
        else:
            ran = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", step.text],
                cwd=folder,
                env=environment,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
            assert ran.returncode == 0, (
                f"{step.where(page)}: exit {ran.returncode}\n{step.text}\n"
                f"stdout:\n{ran.stdout[-3000:]}\nstderr:\n{ran.stderr[-5000:]}"
            )
        done.append(step)
    return done
