"""Meta-test: the import graph of ``seebench/`` has no cycle and follows the declared layers.

The graph is built from the source with :mod:`ast`: every ``import`` and ``from ... import``
anywhere in a module counts, lazy ones inside functions included. Imports under
``if TYPE_CHECKING:`` are left out: they never run, they only name types for annotations.

The layers, lowest first (``docs/architecture.md`` draws them)::

    base      seebench (the package), errors, extras, events, secrets, home, hookspecs
    services  results, stats, sandbox
    registry  registry, registry_entries
    tasks     tasks
    data      data
    models    models, leaderboard
    scoring   scoring (and scoring/metrics)
    methods   methods (the Method contract: methods/__init__.py, methods/base.py)
    runner    runner
    plugins   methods/<name>/ and suites/<name>/: one unit per folder
    root      cli, plugin_manager, plugin_entry_points, every ``plugin.py`` and a suite's
              command modules

A module may import its own layer and the layers below it, never one above. A plugin unit
(one method or one suite) never imports another plugin unit: a notion two suites share moves
down into the kernel. Only the root imports :mod:`seebench.plugin_manager`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PACKAGE = REPO_ROOT / "seebench"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "base",
        (
            "seebench",
            "seebench.errors",
            "seebench.extras",
            "seebench.events",
            "seebench.secrets",
            "seebench.safe_files",
            "seebench.csv_files",
            "seebench.home",
            "seebench.hookspecs",
            "seebench.lazy_exports",
            "seebench.turns",
        ),
    ),
    ("services", ("seebench.results", "seebench.stats", "seebench.sandbox")),
    ("registry", ("seebench.registry", "seebench.registry_entries", "seebench.plugin_problems")),
    ("tasks", ("seebench.tasks",)),
    ("data", ("seebench.data",)),
    ("models", ("seebench.models", "seebench.leaderboard")),
    ("scoring", ("seebench.scoring",)),
    ("methods", ("seebench.methods",)),
    ("runner", ("seebench.runner",)),
    ("executors", ("seebench.executors",)),
    ("trackers", ("seebench.trackers",)),
    ("plugins", ("seebench.suites", "seebench.view")),  # and methods/<name>/, suites/<name>/
    (
        "root",
        (
            "seebench.cli",
            "seebench.plugin_manager",
            "seebench.plugin_entry_points",
            "seebench.plugin_check",
            "seebench.api",
            "seebench.__main__",
        ),
    ),
)
RANK = {name: rank for rank, (name, _) in enumerate(LAYERS)}

#: a plugin unit: one folder below methods/ or suites/
PLUGIN_UNIT = re.compile(r"^seebench\.(methods|suites)\.([a-z0-9_]+)\.")
#: modules of a suite that are command-line entry points (they run as part of the root)
COMMAND_MODULE = re.compile(r"^seebench\.(suites\.[a-z0-9_.]*|view)(\.cli|\.commands|_cli)$")
#: modules not judged here (none: the study app is its own distribution now)
EXEMPT: tuple[str, ...] = ()
#: scripts of a suite run as ``python -m`` (their own composition root)
SCRIPTS = ("seebench.suites.selu.doc_table",)
#: the one remaining fallback to the process-wide registry, with the reason; keep it short
ALLOWED_PLUGIN_MANAGER_IMPORTS = {
    # the study app (seebench/suites/study, moving to plugins/seebench-study) calls
    # resolve_model(spec) without a registry; remove once it passes one
    "seebench.models": "resolve_model(spec) without a registry",
    # a unit run in a worker process (a local pool or a Ray node) builds that process's registry
    "seebench.executors.worker": "a worker process is its own composition root",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


MODULES = all_modules()


def _owner(name: str) -> str | None:
    """The module that ``name`` (a module or a module's attribute) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of import nodes inside ``if TYPE_CHECKING:`` blocks."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for child in node.body:
                    skipped.update(id(n) for n in ast.walk(child))
    return skipped


def imports_of(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """(imported seebench module, line) for every import in one module, lazy ones included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped = _type_checking_nodes(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [f"{source}.{alias.name}" for alias in node.names]
            # ``from pkg import x`` runs ``pkg/__init__.py`` first: the package is imported too
            if source in MODULES and source != name and MODULES[source].name == "__init__.py":
                targets.append(source)
        else:
            continue
        for target in targets:
            if target.split(".")[0] != "seebench":
                continue
            owner = _owner(target)
            if owner is not None and owner != name:
                yield owner, node.lineno


def build_graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: first line}."""
    graph: dict[str, dict[str, int]] = {}
    for name, path in MODULES.items():
        edges: dict[str, int] = {}
        for target, line in imports_of(name, path):
            edges.setdefault(target, line)
        graph[name] = edges
    return graph


GRAPH = build_graph()


def layer_of(name: str) -> str:
    """The layer a module belongs to (longest declared prefix wins)."""
    if name.endswith(".plugin") or COMMAND_MODULE.match(name) or name in SCRIPTS:
        return "root"
    if unit_of(name) is not None:
        return "plugins"
    best, best_len = None, -1
    for layer, prefixes in LAYERS:
        for prefix in prefixes:
            matches = name == prefix or (prefix != "seebench" and name.startswith(prefix + "."))
            if matches and len(prefix) > best_len:
                best, best_len = layer, len(prefix)
    if best is None:
        raise AssertionError(f"{name}: module in no declared layer; add it to LAYERS")
    return best


def unit_of(name: str) -> str | None:
    """``seebench.suites.selu`` for any module of the selu suite (None outside plugin units)."""
    match = PLUGIN_UNIT.match(name + ".")
    if match is None or name == "seebench.methods.base":
        return None
    return f"seebench.{match.group(1)}.{match.group(2)}"


def _exempt(name: str) -> bool:
    return any(name == e or name.startswith(e + ".") for e in EXEMPT)


def find_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
    return cycles


def layer_violations(graph: dict[str, dict[str, int]]) -> list[str]:
    """One line per import that runs against the layer order."""
    problems = []
    for name, edges in sorted(graph.items()):
        if _exempt(name):
            continue
        source_layer = layer_of(name)
        for target, line in sorted(edges.items()):
            target_layer = layer_of(target)
            where = f"{MODULES[name].relative_to(REPO_ROOT)}:{line}"
            if target == "seebench.plugin_manager" and name in ALLOWED_PLUGIN_MANAGER_IMPORTS:
                continue
            if target == "seebench.plugin_manager" and source_layer != "root":
                problems.append(f"{where}: {name} imports the plugin manager (only the root may)")
            elif RANK[target_layer] > RANK[source_layer]:
                problems.append(
                    f"{where}: {name} ({source_layer}) imports {target} ({target_layer}), "
                    "a higher layer"
                )
            elif (
                source_layer == target_layer == "plugins"
                and unit_of(name) != unit_of(target)
                and not _exempt(target)
            ):
                problems.append(
                    f"{where}: plugin {unit_of(name)} imports another plugin's {target}"
                )
    return problems


def test_every_module_is_in_a_layer():
    for name in MODULES:
        assert layer_of(name) in RANK


def test_the_graph_sees_lazy_imports():
    # tasks/index.py imports its validator inside a function: it must still be an edge
    assert "seebench.tasks.validate" in GRAPH["seebench.tasks.index"]


def test_no_import_cycle():
    cycles = find_cycles(GRAPH)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_imports_follow_the_layers():
    problems = layer_violations(GRAPH)
    assert not problems, "\n".join(problems)


def test_hookimpl_comes_from_the_contract():
    """Plugins import ``hookimpl`` from the hook specifications, not from the loader."""
    offenders = [
        name
        for name, path in MODULES.items()
        if not _exempt(name)
        and "from seebench.plugin_manager import hookimpl" in path.read_text(encoding="utf-8")
    ]
    assert not offenders


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b": 1}, "b": {"a": 2}}, [["a", "b"]]),
        ({"a": {"b": 1}, "b": {"c": 1}, "c": {}}, []),
        ({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}, [["a", "b", "c"]]),
    ],
)
def test_cycle_finder(graph, expected):
    assert find_cycles(graph) == expected


def test_layer_check_catches_an_upward_import():
    graph = {"seebench.tasks.spec": {"seebench.runner.runner": 3}}
    assert layer_violations(graph) and "higher layer" in layer_violations(graph)[0]


def test_layer_check_catches_a_suite_importing_another():
    graph = {"seebench.suites.copilot.x": {"seebench.suites.codegen.y": 3}}
    MODULES.setdefault("seebench.suites.copilot.x", PACKAGE / "x.py")
    try:
        assert "another plugin" in layer_violations(graph)[0]
    finally:
        MODULES.pop("seebench.suites.copilot.x", None)
