"""The package's shape: folders that mirror the workflow's rule files, imports without a
circle, and every rule's code digest following the code its script really calls."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

from sparsebench.workflow.codehash import PACKAGE_DIR

REPO = PACKAGE_DIR.parent
RULES = REPO / "workflow" / "rules"
LONG_MODULE = 400  # lines; a longer module states at its top why it is one module
LONG_REASON = "Kept as one module"


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}


def imported_modules(tree: ast.AST) -> set[str]:
    """Every sparsebench module an import anywhere in `tree` names (a name imported from a
    module counts as the module, or as the submodule it is)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "sparsebench")
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level or node.module.split(".")[0] != "sparsebench":
                continue
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
    return found


def import_graph() -> dict[str, set[str]]:
    return {
        name: imported_modules(ast.parse(path.read_text(encoding="utf-8"))) - {name}
        for name, path in MODULES.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_walk_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_circle():
    """Counting imports inside functions too: a lazy import that hides a circle is still
    one."""
    assert find_cycle(import_graph()) is None


def test_every_sparsebench_import_names_a_module_that_exists():
    """The code digests read the sources: an import of a name that is not a module file
    (a moved module, a typo) would drop code from a stage's digest."""
    files = [*MODULES.values(), *REPO.glob("scripts/*.py")]
    missing = {
        f"{path.relative_to(REPO)}: {name}"
        for path in files
        for name in imported_modules(ast.parse(path.read_text(encoding="utf-8")))
        if name not in MODULES
    }
    assert not missing


def test_subpackage_inits_import_nothing():
    """Importing one module of a subpackage loads only what it needs, and a stage's code
    digest never has to follow a re-export."""
    for name, path in MODULES.items():
        if path.name == "__init__.py" and name != "sparsebench":
            tree = ast.parse(path.read_text(encoding="utf-8"))
            assert not imported_modules(tree), name
            assert all(isinstance(n, ast.Expr) for n in tree.body), name


def test_long_modules_say_why():
    for name, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > LONG_MODULE:
            assert LONG_REASON in (ast.get_docstring(ast.parse(text)) or ""), name


def test_each_rule_file_has_its_subpackage():
    for rules in RULES.glob("*.smk"):
        if rules.stem != "common":
            assert (PACKAGE_DIR / rules.stem / "stages.py").is_file(), rules.name


RULE = re.compile(
    r"^[ \t]*(?:rule|checkpoint) (\w+):\n(.*?)(?=^[ \t]*(?:rule|checkpoint) |\Z)", re.M | re.S
)
SCRIPT = re.compile(r'script:\s*f?"[^"]*/(\w+\.py)"')
LIBRARY = re.compile(r"library_code\(([^)]*)\)")


def rules_with_scripts() -> list[tuple[str, str, tuple[str, ...]]]:
    """(rule file: rule, script, the stages its library_code names) of every scripted
    rule."""
    found = []
    for rules in sorted(RULES.glob("*.smk")):
        for name, body in RULE.findall(rules.read_text(encoding="utf-8")):
            script = SCRIPT.search(body)
            if script:
                library = LIBRARY.search(body)
                stages = tuple(re.findall(r'"([\w.]+)"', library.group(1))) if library else ()
                found.append((f"{rules.name}: {name}", script.group(1), stages))
    return found


def called_stages(script: Path) -> set[str]:
    """The sparsebench functions a script calls, as "module.function" under sparsebench."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    bindings: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sparse"):
            for alias in node.names:
                bindings[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    calls = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            if func.value.id in bindings:
                calls.add(f"{bindings[func.value.id]}.{func.attr}")
        elif isinstance(func, ast.Name) and func.id in bindings:
            calls.add(bindings[func.id])
    return {c.removeprefix("sparsebench.") for c in calls}


def test_the_rules_are_read():
    found = rules_with_scripts()
    assert len(found) >= 20
    assert ("encode.smk: term_weights", "term_weights.py", ("encode.stages.term_weights",)) in found


@pytest.mark.parametrize("rule, script, stages", rules_with_scripts())
def test_a_rule_digests_the_stages_its_script_calls(rule, script, stages):
    """rule -> script -> the stage functions: those its library_code param digests, in the
    `stages` module of a subpackage."""
    assert stages, f"{rule} has no library_code param"
    called = {c for c in called_stages(REPO / "scripts" / script) if ".stages." in c}
    assert set(stages) == called, (rule, script)
    assert all(re.fullmatch(r"\w+\.stages\.\w+", stage) for stage in stages), stages


def test_importing_the_errors_loads_nothing_heavy():
    """A command-line tool or a job that only catches sparsebench's errors pays for no
    data library."""
    import subprocess
    import sys

    probe = (
        "import sys, sparsebench.core.errors; "
        "print(sorted(m for m in ('pandas', 'numpy', 'torch', 'pyarrow', 'scipy') "
        "if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"


def folder(module: str) -> str:
    """The subpackage of a module (sparsebench.retrieve.stages -> retrieve), or the
    module itself at the top."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else module


def test_folders_import_each_other_one_way():
    """Layers by folder: no two subpackages import each other; core/ is the floor (it
    imports no other folder), text analysis stands on it alone, the search engine and the
    run files never import the encoders or the workflow, and retrieval never imports the
    encoders (the device choice lives in sparsebench.core.devices)."""
    graph: dict[str, set[str]] = {}
    for name, imports in import_graph().items():
        graph.setdefault(folder(name), set()).update(folder(i) for i in imports)
    for node in graph:
        graph[node].discard(node)
    assert find_cycle(graph) is None, find_cycle(graph)
    assert graph["core"] == set(), graph["core"]
    assert graph["analysis"] == {"core"}, graph["analysis"]
    assert not {"encode", "workflow", "kinds", "retrieve"} & (graph["search"] | graph["runs"])
    assert "encode" not in graph["retrieve"]
    assert "stages" not in {
        m.rsplit(".", 1)[-1] for m in import_graph()["sparsebench.partitions.stages"]
    }


def test_no_module_maps_old_names():
    import sys

    assert not [f for f in sys.meta_path if type(f).__module__.startswith("sparsebench")]


ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"
DECLARED = re.compile(
    r"^[ \t]*(?:(?:rule|checkpoint) (?P<name>\w+):|use rule (?P<base>\w+) as (?P<derived>\w+))",
    re.M,
)
TABLE_HEAD = "| rule file | rules (scripts/ of the same name unless given) | stage functions |"


def rule_table() -> dict[str, tuple[str, str]]:
    """Rule file -> (its rules with their scripts, the stage functions they digest), the
    first columns of ARCHITECTURE.md's "From a rule to its code", made from the rule files."""
    rows = {}
    for rules in sorted(RULES.glob("*.smk")):
        if rules.stem == "common":
            continue
        names, functions = [], {}
        text = rules.read_text(encoding="utf-8")
        bodies = dict(RULE.findall(text))
        for match in DECLARED.finditer(text):
            if match["derived"]:
                names.append(f"{match['derived']} (as {match['base']})")
                continue
            name, body = match["name"], bodies[match["name"]]
            script = SCRIPT.search(body)
            other = script and script.group(1) != f"{name}.py"
            names.append(f"{name} ({script.group(1)})" if other else name)
            library = LIBRARY.search(body)
            for stage in re.findall(r'"([\w.]+)"', library.group(1)) if library else ():
                module, function = stage.rsplit(".", 1)
                functions.setdefault(module.replace(".", "/") + ".py", []).append(function)
        stages = "; ".join(
            f"{module}: {', '.join(dict.fromkeys(found))}" for module, found in functions.items()
        )
        rows[rules.name] = (", ".join(names), stages)
    return rows


def documented_rule_table() -> dict[str, list[str]]:
    lines = ARCHITECTURE.read_text(encoding="utf-8").splitlines()
    start = lines.index(TABLE_HEAD + " the code behind them |")
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return rows


def test_the_architecture_table_follows_the_rule_files():
    """The rules, scripts and stage functions of the table are those of the rule files
    (on a change, paste the rows this test prints); the last column names every module of
    the row's subpackage, and only modules that exist."""
    documented = documented_rule_table()
    made = rule_table()
    expected = "\n".join(
        f"| {name} | {rules} | {stages} |" for name, (rules, stages) in made.items()
    )
    got = {name: tuple(cells[:2]) for name, cells in documented.items() if name in made}
    assert got == made and set(documented) == set(made) | {"common.smk"}, expected
    for name, cells in documented.items():
        behind = cells[-1]
        folders = ["workflow", "kinds"] if name == "common.smk" else [name.removesuffix(".smk")]
        for folder in folders:
            for module in sorted((PACKAGE_DIR / folder).glob("*.py")):
                if module.stem not in ("__init__", "stages"):
                    assert re.search(rf"\b{module.stem}\b", behind), (name, module.name)
        for folder, module in re.findall(r"\b(\w+)/(\w+)\b", behind):
            if (PACKAGE_DIR / folder).is_dir():
                assert (PACKAGE_DIR / folder / f"{module}.py").is_file(), (name, folder, module)


def test_the_tests_mirror_the_package():
    """tests/<subpackage>/ for each subpackage's tests (the workflow's end-to-end runs in
    tests/workflow/), tests/support/ for what tests share and no test at the top but the
    package's own shape and its front doors (api, cli); basenames stay unique, as pytest
    imports test modules by name."""
    tests = REPO / "tests"
    folders = {p.name for p in tests.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
    subpackages = {p.name for p in PACKAGE_DIR.iterdir() if (p / "__init__.py").is_file()}
    assert folders - {"support"} <= subpackages, folders - subpackages - {"support"}
    assert subpackages - {"schemas", "resources"} <= folders, subpackages - folders
    assert not list((tests / "support").glob("test_*.py"))
    helpers = {p.stem for p in tests.glob("*.py")} - {"conftest"}
    assert all(name.startswith("test_") for name in helpers), helpers
    names = [p.name for p in tests.rglob("test_*.py")]
    assert len(names) == len(set(names))


DOC_FILE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*\w+\.(?:py|smk))\b")
DOC_DOTTED = re.compile(r"\bsparsebench(?:\.\w+)+")
FILE_ENDINGS = {
    *("py", "smk", "yaml", "tsv", "md", "png", "svg", "html", "tex", "json", "jsonl", "txt"),
    *("npz", "npy", "trec", "parquet", "gz", "zip", "log", "csv"),
}
DOC_CONSTANT = re.compile(r"\b(\w+)\.([A-Z][A-Z_]{2,})\b|`(\w+)\.(\w+)`")


def stale_names(text: str, code_refs: bool = True) -> list[str]:
    """The files, modules and module constants `text` names that the repository lacks: a
    path must end a tracked path (a bare name, some file's), `sparsebench.x.y[.name]` must
    be a module (and the name defined in it), `module.CONSTANT` a constant of a module of
    that name, and (with `code_refs`, for pages about the code rather than the config)
    `` `module.name` `` a definition of a module file of that name."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    files = listed.stdout.splitlines()
    stale = []
    for name in set(DOC_FILE.findall(text)):
        if not any(f == name or f.endswith("/" + name) for f in files):
            stale.append(name)
    for dotted in set(DOC_DOTTED.findall(text)):
        parts = dotted.split(".")
        found = max(
            (n for n in range(1, len(parts) + 1) if ".".join(parts[:n]) in MODULES), default=0
        )
        rest = parts[found:]
        if (
            not found
            or len(rest) > 1
            or rest
            and not re.search(
                rf"^(?:def|class) {rest[0]}\b|^{rest[0]}\b",
                MODULES[".".join(parts[:found])].read_text(),
                re.M,
            )
        ):
            stale.append(dotted)
    for found_names in set(DOC_CONSTANT.findall(text)):
        module, constant = found_names[0] or found_names[2], found_names[1] or found_names[3]
        if not found_names[0] and (not code_refs or constant in FILE_ENDINGS):
            continue
        paths = [
            p
            for name, p in MODULES.items()
            if name.rsplit(".", 1)[-1] == module and p.name != "__init__.py"
        ]
        defines = rf"^(?:def |class )?{constant}\b"
        if paths and not any(re.search(defines, p.read_text(), re.M) for p in paths):
            stale.append(f"{module}.{constant}")
    return sorted(stale)


def test_stale_names_are_found():
    text = (
        "datasetchecks.py, costs.LAYOUT, sparsebench.encode.params, encode/weighting.py, "
        "`costs.pipeline_benchmarks`, `jobs.pipeline_jobs`, `corpus.jsonl`"
    )
    assert stale_names(text) == [
        "costs.LAYOUT",
        "costs.pipeline_benchmarks",
        "datasetchecks.py",
        "sparsebench.encode.params",
    ]


HAND_WRITTEN_DOCS = ["README.md"] + sorted(
    p.relative_to(REPO).as_posix()
    for p in (REPO / "docs").rglob("*.md")
    if "reference" not in p.parts  # generated from the code (tests/test_docs.py)
)


@pytest.mark.parametrize("doc", HAND_WRITTEN_DOCS)
def test_the_docs_name_only_what_exists(doc):
    """A module, file or constant the docs name that is gone (moved, renamed) fails here."""
    text = (REPO / doc).read_text(encoding="utf-8")
    about_the_code = doc in ("docs/ARCHITECTURE.md", "docs/development.md")
    written = set(re.findall(r'^```\w+ title="([^"]+)"', text, re.M))  # files the page makes
    assert [n for n in stale_names(text, code_refs=about_the_code) if n not in written] == []


MAP_HEAD = "| folder | what it is (its `__init__.py`) | stands on |"


def package_map() -> str:
    """ARCHITECTURE.md's map of the package: each folder's own first sentence and the
    folders it imports, floor by floor from the bottom (a folder stands above all it
    imports)."""
    graph: dict[str, set[str]] = {}
    for name, imports in import_graph().items():
        if name.count(".") >= 2:  # a module of a folder
            graph.setdefault(folder(name), set()).update(
                folder(i) for i in imports if i.count(".") >= 2
            )
    for node in graph:
        graph[node].discard(node)
    floor: dict[str, int] = {}

    def height(node: str) -> int:
        if node not in floor:
            floor[node] = 1 + max((height(n) for n in graph[node]), default=0)
        return floor[node]

    rows = [MAP_HEAD, "|---|---|---|"]
    for node in sorted(graph, key=lambda n: (height(n), n)):
        doc = ast.get_docstring(ast.parse((PACKAGE_DIR / node / "__init__.py").read_text()))
        first = " ".join(doc.split()).split(". ")[0].rstrip(".")
        below = ", ".join(f"{n}/" for n in sorted(graph[node], key=lambda n: (height(n), n)))
        rows.append(f"| {node}/ | {first} | {below or '-'} |")
    return "\n".join(rows)


def test_the_architecture_map_is_made_from_the_package():
    """docs/ARCHITECTURE.md's package map: on a change, paste the table this prints."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    start = text.index(MAP_HEAD)
    shown = text[start : text.index("\n\n", start)]
    assert shown == package_map(), package_map()
