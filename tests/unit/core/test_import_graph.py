"""No import circle in src/biasaudit.

The graph has an edge A -> B for every `import B` / `from B import x` in module A, at module
level or inside a function (a lazy import is still a dependency), except under
``if TYPE_CHECKING:`` (annotations only). `from pkg import name` points at ``pkg.name`` when
that is a module, else at ``pkg``. A circle is a strongly connected component of more than
one module (Tarjan's algorithm).
"""

from __future__ import annotations

import ast
from pathlib import Path

import biasaudit

SRC = Path(biasaudit.__file__).resolve().parent


def _modules(root: Path) -> dict[str, Path]:
    found = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(path: Path, modules: dict[str, Path]) -> set[str]:
    names: list[str] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                continue
            if isinstance(child, ast.Import):
                names.extend(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    full = f"{child.module}.{alias.name}"
                    names.append(full if full in modules else child.module)
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    resolved = set()
    for name in names:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        if name:
            resolved.add(name)
    return resolved


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = _modules(root)
    return {m: _imported(p, modules) - {m} for m, p in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_no_import_circle_in_biasaudit() -> None:
    graph = import_graph(SRC)
    assert len(graph) > 150  # the whole package was read
    assert circles(graph) == []


def test_the_check_finds_a_circle_made_by_a_lazy_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from pkg.spec import Spec\n")
    (pkg / "spec.py").write_text("def discover():\n    import pkg.sub\n")
    (pkg / "plain.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.spec\n"
    )
    assert circles(import_graph(pkg)) == [["pkg.spec", "pkg.sub"]]
    assert import_graph(pkg)["pkg.plain"] == set()  # annotation-only imports are no edge
