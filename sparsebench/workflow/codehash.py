"""A digest of the library code one pipeline stage runs, so that editing it reruns the stage.

Snakemake's `code` rerun trigger sees only a rule's own script, and the scripts here are
thin: the work happens in sparsebench. Each rule therefore carries, as a param, a digest
of the code its stage runs. The call graph is followed from the stage function (in the
`stages` module of its subpackage, e.g. sparsebench.encode.stages) through the functions,
classes and constants it uses, across modules and imports (read from the sources, not
imported). The digest covers the text of the stage's own definitions in its module and
the whole text of every other module whose definitions it reaches; a string that is the
name of a sparsebench module (a registry's entry, imported only when asked for) reaches
every definition of that module. So any edit to such a module (as with Snakemake's own
code trigger, comments included) reruns the stages that use it, and only those: an edit
to the metric code reruns evaluation, not encoding.

Every Snakemake start (each dry run, each cluster job) needs the digests of all stages,
and reading the call graph is slow (benchmarks/RESULTS.md,
"Measurements behind the code"). The digests are a function of the package's sources
alone, so they are remembered on disk under the digest of those sources (every module's
path and text): an edit anywhere gives a new key, never a stale digest.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import tempfile
from functools import cache
from pathlib import Path

PACKAGE = "sparsebench"
PACKAGE_DIR = Path(__file__).resolve().parent.parent  # sparsebench/
MODULE_BODY = "<module>"  # top-level statements other than definitions and imports
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)

Node = tuple[str, str]  # (module, top-level name or MODULE_BODY)


def _module_path(module: str) -> Path:
    path = PACKAGE_DIR.joinpath(*module.split(".")[1:])
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


@cache
def _is_module(module: str) -> bool:
    return module.split(".")[0] == PACKAGE and _module_path(module).is_file()


def _is_module_name(value: object) -> bool:
    return isinstance(value, str) and value.startswith(PACKAGE + ".") and _is_module(value)


@cache
def _tree(module: str) -> ast.Module:
    return ast.parse(_module_path(module).read_text(encoding="utf-8"))


def _defined_name(node: ast.stmt) -> str | None:
    """The name a top-level function, class or single-name assignment defines."""
    if isinstance(node, DEFINITIONS):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
    elif isinstance(node, ast.AnnAssign):
        target = node.target
    else:
        return None
    return target.id if isinstance(target, ast.Name) else None


@cache
def _definitions(module: str) -> dict[str, ast.stmt]:
    return {name: node for node in _tree(module).body if (name := _defined_name(node))}


@cache
def _module_bindings(module: str) -> dict[str, Node]:
    """What the module's top-level imports bind to sparsebench code."""
    imports = [n for n in _tree(module).body if isinstance(n, ast.Import | ast.ImportFrom)]
    return _import_bindings(imports)


def _body(module: str) -> list[ast.stmt]:
    """Top-level statements that are neither definitions, imports nor the docstring."""
    statements = [
        node
        for node in _tree(module).body
        if _defined_name(node) is None and not isinstance(node, ast.Import | ast.ImportFrom)
    ]
    docstring = statements and isinstance(statements[0], ast.Expr)
    if docstring and isinstance(statements[0].value, ast.Constant):
        statements = statements[1:]
    return statements


def _import_bindings(statements: list[ast.stmt]) -> dict[str, Node]:
    """Names that imports among `statements` bind to sparsebench code: a module (name
    MODULE_BODY, so that `module.attr` can be resolved) or one of its definitions."""
    bindings: dict[str, Node] = {}
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if _is_module(alias.name):
                        bindings[alias.asname or alias.name] = (alias.name, MODULE_BODY)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    if _is_module(submodule):
                        bindings[alias.asname or alias.name] = (submodule, MODULE_BODY)
                    elif _is_module(node.module):
                        bindings[alias.asname or alias.name] = (node.module, alias.name)
    return bindings


def _resolve(module: str, name: str) -> Node:
    """A name defined in `module`: its definition, or the module's body for a constant."""
    return (module, name) if name in _definitions(module) else (module, MODULE_BODY)


@cache
def _dependencies(node: Node) -> frozenset[Node]:
    module, name = node
    statements = _body(module) if name == MODULE_BODY else [_definitions(module)[name]]
    bindings = {**_module_bindings(module), **_import_bindings(statements)}
    found: set[Node] = {(module, MODULE_BODY)}
    for statement in statements:
        for child in ast.walk(statement):
            if isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name):
                target = bindings.get(child.value.id)
                if target and target[1] == MODULE_BODY:  # module.attr
                    found.add(_resolve(target[0], child.attr))
            # a registry's entry names a module it imports when asked for
            if isinstance(child, ast.Constant) and _is_module_name(child.value):
                found.add((child.value, MODULE_BODY))
                found.update((child.value, name) for name in _definitions(child.value))
            if not isinstance(child, ast.Name):
                continue
            if child.id in bindings:
                found.add(_resolve(*bindings[child.id]))
            elif child.id in _definitions(module):
                found.add((module, child.id))
    # importing a module runs its top-level statements
    found.update((m, MODULE_BODY) for m, _ in bindings.values())
    return frozenset(found)


def stage_module(function: str) -> str:
    """The `stages` module of the subpackage that defines stage `function`."""
    found = [
        module
        for path in sorted(PACKAGE_DIR.glob("*/stages.py"))
        if function in _definitions(module := f"{PACKAGE}.{path.parent.name}.stages")
    ]
    if len(found) != 1:
        where = " and ".join(found) or "no stages module"
        raise KeyError(f"stage {function!r} is defined in {where}: name its module")
    return found[0]


@cache
def stage_code(function: str, module: str | None = None) -> tuple[Node, ...]:
    """Every (module, definition) the stage function reaches, sorted."""
    module = module or stage_module(function)
    if function not in _definitions(module):
        raise KeyError(f"{module} has no function {function!r}")
    reached: set[Node] = set()
    pending = [(module, function)]
    while pending:
        node = pending.pop()
        if node not in reached:
            reached.add(node)
            pending.extend(_dependencies(node) - reached)
    return tuple(sorted(reached))


def stage_modules(function: str, module: str | None = None) -> list[str]:
    """The sparsebench modules (other than `module`) with a function, class or constant
    that the stage reaches."""
    module = module or stage_module(function)
    return sorted({m for m, name in stage_code(function, module) if name != MODULE_BODY} - {module})


def stage_code_digest(function: str, module: str | None = None) -> str:
    """sha256 (hex) of the code that stage `function` of `module` (by default the stages
    module that defines it) runs: the text of the definitions of `module` it reaches and
    the whole text of every other module it uses. Remembered on disk (see above)."""
    module = module or stage_module(function)
    file = _remembered_file()
    remembered = _remembered_digests(file)
    key = f"{module}:{function}"
    if key not in remembered:
        remembered[key] = _computed_digest(function, module)
        _remember(file, remembered)
    return remembered[key]


@cache
def sources_digest() -> str:
    """sha256 of every module of the package (its path and text) and the Python version
    that parses them."""
    digest = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}\n".encode())
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        relative = path.relative_to(PACKAGE_DIR).as_posix()
        digest.update(f"{len(relative)}:{relative}\n".encode() + path.read_bytes())
    return digest.hexdigest()


def cache_dir() -> Path:
    """Where sparsebench remembers what it can recompute: $SPARSEBENCH_CACHE_DIR, else
    $XDG_CACHE_HOME/sparsebench, else ~/.cache/sparsebench."""
    if os.environ.get("SPARSEBENCH_CACHE_DIR"):
        return Path(os.environ["SPARSEBENCH_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sparsebench"


KEPT_DIGEST_FILES = 20  # the digests of this many versions of the sources stay on disk


def _remembered_file() -> Path:
    return cache_dir() / "code-digests" / f"{sources_digest()}.json"


@cache
def _remembered_digests(file: Path) -> dict[str, str]:
    """The digests remembered for these sources ({} when none are, or the file is
    unreadable: they are then computed again)."""
    try:
        remembered = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    valid = isinstance(remembered, dict) and all(
        isinstance(v, str) and len(v) == 64 for v in remembered.values()
    )
    return remembered if valid else {}


def _remember(file: Path, digests: dict[str, str]) -> None:
    """Write the digests atomically (concurrent jobs write the same values); where the
    cache cannot be written, they are simply computed again next time."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=file.parent, suffix=".tmp", delete=False, encoding="utf-8"
        ) as handle:
            json.dump(digests, handle, sort_keys=True)
        os.replace(handle.name, file)
        older = sorted(file.parent.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for stale in older[:-KEPT_DIGEST_FILES]:
            stale.unlink(missing_ok=True)
    except OSError:
        pass


def _computed_digest(function: str, module: str) -> str:
    source = _module_path(module).read_text(encoding="utf-8")
    digest = hashlib.sha256()
    for node_module, name in stage_code(function, module):
        if node_module == module and name != MODULE_BODY:
            segment = ast.get_source_segment(source, _definitions(module)[name])
            digest.update(f"{module}:{name}\n{segment}\n".encode())
    for dependency in stage_modules(function, module):
        digest.update(f"{dependency}\n".encode() + _module_path(dependency).read_bytes())
    return digest.hexdigest()
