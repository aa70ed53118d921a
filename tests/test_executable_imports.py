"""Imports in ``executable_rules`` flow one way: actions → engine → oracle → model, with no circle at import time.

Round 1 had a circle between ``abilities.py`` and the action modules. Now the package's modules import, at their
top level, only modules below them; what the engine asks of an action (an effect's handler calling
``actions.explore``) is imported inside the function that asks, when every module is loaded. The graph is read
from the source with ``ast`` (module-level imports only, ``if TYPE_CHECKING:`` blocks left out)."""

from __future__ import annotations

import ast
from pathlib import Path

import executable_rules

ROOT = Path(executable_rules.__file__).parent


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module → the package's modules it imports at its top level."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        deps: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
                continue
            if isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    deps.add(full if full in modules else target)
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names}
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                found.append(path[path.index(dep):] + [dep])
            elif dep not in state:
                visit(dep)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_the_graph_is_read():
    graph = import_graph()
    assert "executable_rules.engine.combat" in graph["executable_rules.actions.attack"]
    assert "executable_rules.model" in graph["executable_rules.engine.mana"]
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]


def test_no_import_circle_in_executable_rules():
    found = cycles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" → ".join(c) for c in found)


def test_the_engine_and_the_grammar_import_no_action_module_at_their_top_level():
    graph = import_graph()
    below = [m for m in graph if m.startswith(("executable_rules.engine", "executable_rules.oracle"))
             or m == "executable_rules.model"]
    assert len(below) > 10
    offending = {m: sorted(d for d in graph[m] if d.startswith("executable_rules.actions")) for m in below}
    assert not {m: d for m, d in offending.items() if d}


def test_executable_rules_never_imports_kb():
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and not node.level:
                assert not (node.module or "").split(".")[0] == "kb", f"{path}: imports {node.module}"
            elif isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "kb" for a in node.names), path
