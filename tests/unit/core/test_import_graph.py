"""No import circle and no import upward across the layers of docs/architecture.md.

The graph has an edge A -> B for every `import B` / `from B import x` in module A: at module
level, inside a function (a lazy import is still a dependency) and under ``if TYPE_CHECKING:``
(an annotation is a dependency of the reader). `from pkg import name` points at ``pkg.name``
when that is a module, else at ``pkg``. Importing ``a.b.c`` runs the ``__init__`` of ``a`` and
``a.b`` first, so A also depends on every enclosing package of B that does not enclose A
itself. A circle is a strongly connected component of more than one module (Tarjan).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import biasaudit

SRC = Path(biasaudit.__file__).resolve().parent
ARCHITECTURE = Path(__file__).resolve().parents[3] / "docs" / "architecture.md"


def _modules(root: Path) -> dict[str, Path]:
    found = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                names.append(full if full in modules else node.module)
    resolved = set()
    for name in names:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        while name:
            if name in modules and not f"{module}.".startswith(f"{name}."):
                resolved.add(name)
            name = name.rpartition(".")[0]
    return resolved


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = _modules(root)
    return {m: _imported(m, p, modules) - {m} for m, p in modules.items()}


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


def read_layers(text: str) -> list[tuple[str, list[str]]]:
    """The ```layers block: ``name: unit unit ...`` lines, top layer first; an indented line
    continues the layer above it."""
    block = re.search(r"```layers\n(.*?)```", text, re.S)
    assert block is not None, "docs/architecture.md has no ```layers block"
    layers: list[tuple[str, list[str]]] = []
    for line in block.group(1).splitlines():
        if line.startswith(" ") and layers:
            layers[-1][1].extend(line.split())
            continue
        name, _, units = line.partition(":")
        layers.append((name.strip(), units.split()))
    return layers


def unit_of(module: str) -> str:
    """``pkg`` for the root, ``benchmarks.*`` for a benchmark package, else the top name."""
    parts = module.split(".")
    if len(parts) == 1:
        return parts[0]
    if parts[1] == "benchmarks" and len(parts) > 2:
        return "benchmarks.*"
    return parts[1]


def layer_problems(graph: dict[str, set[str]], layers: list[tuple[str, list[str]]]) -> list[str]:
    rank = {unit: -i for i, (_, units) in enumerate(layers) for unit in units}
    names = {unit: name for name, units in layers for unit in units}
    problems = [
        f"{m}: its unit {unit_of(m)} is in no layer"
        for m in sorted(graph)
        if unit_of(m) not in rank
    ]
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            a, b = unit_of(module), unit_of(target)
            if a in rank and b in rank and rank[b] > rank[a]:
                problems.append(f"{module} ({names[a]}) imports {target} ({names[b]})")
    return problems


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(SRC)


def test_no_import_circle_in_biasaudit(graph: dict[str, set[str]]) -> None:
    assert len(graph) > 150  # the whole package was read
    assert circles(graph) == []


def test_no_import_from_a_lower_layer_to_a_higher_one(graph: dict[str, set[str]]) -> None:
    layers = read_layers(ARCHITECTURE.read_text())
    assert len(layers) >= 10
    assert layer_problems(graph, layers) == []


def test_every_layer_unit_exists() -> None:
    """A unit named in the diagram that is no module is a diagram out of date."""
    present = {unit_of(m) for m in _modules(SRC)}
    declared = {u for _, units in read_layers(ARCHITECTURE.read_text()) for u in units}
    assert declared - present == set()


def test_developers_layout_lists_every_package() -> None:
    layout = (SRC.parents[1] / "DEVELOPERS.md").read_text().split("## Layout", 1)[1]
    layout = layout.split("```")[1]
    units = {unit_of(m) for m in _modules(SRC)} - {"biasaudit", "benchmarks.*", "_version"}
    named = {u for u in units if re.search(rf"^\s+{re.escape(u)}(/|\.py)", layout, re.M)}
    assert units - named == set()


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "pkg"
    for name, text in files.items():
        target = pkg / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return pkg


def test_the_check_finds_a_circle_made_by_a_lazy_or_annotation_import(tmp_path: Path) -> None:
    pkg = _package(
        tmp_path,
        {
            "__init__.py": "",
            "sub/__init__.py": "from pkg.spec import Spec\n",
            "spec.py": "def discover():\n    import pkg.sub\n",
            "plain.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.other\n"
            ),
            "other.py": "import pkg.plain\n",
        },
    )
    assert circles(import_graph(pkg)) == [["pkg.other", "pkg.plain"], ["pkg.spec", "pkg.sub"]]


def test_the_check_counts_the_packages_an_import_runs(tmp_path: Path) -> None:
    """``import pkg.low.leaf`` runs pkg/low/__init__; when that imports back up, a circle."""
    pkg = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low/__init__.py": "from pkg.high import thing\n",
            "low/leaf.py": "",
            "high.py": "import pkg.low.leaf\nthing = 1\n",
        },
    )
    graph = import_graph(pkg)
    assert graph["pkg.high"] == {"pkg.low", "pkg.low.leaf"}
    assert graph["pkg.low.leaf"] == set()  # its own enclosing packages are not an edge
    assert circles(graph) == [["pkg.high", "pkg.low"]]


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    pkg = _package(
        tmp_path,
        {
            "__init__.py": "",
            "core.py": "def f():\n    from pkg.report import view\n",
            "report.py": "import pkg.core\nview = 1\n",
            "stray.py": "",
        },
    )
    layers = [("top", ["report"]), ("bottom", ["core"])]
    assert layer_problems(import_graph(pkg), layers) == [
        "pkg: its unit pkg is in no layer",
        "pkg.stray: its unit stray is in no layer",
        "pkg.core (bottom) imports pkg.report (top)",
    ]


def private_names_taken(root: Path) -> list[str]:
    """``from biasaudit.x import _name`` and ``module._name`` on an imported biasaudit module
    or name, anywhere in `root`: a module taking another's private names."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        imported: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("biasaudit"):
                for alias in node.names:
                    imported.add(alias.asname or alias.name)
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.name} imports {alias.name} from {node.module}")
            elif isinstance(node, ast.Import):
                imported |= {
                    (a.asname or a.name).split(".")[0]
                    for a in node.names
                    if a.name.startswith("biasaudit")
                }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
            ):
                found.append(f"{path.name}:{node.lineno} reads {node.value.id}.{node.attr}")
    return found


def test_no_module_takes_another_modules_private_names() -> None:
    assert private_names_taken(SRC) == []


def test_the_private_name_check_finds_both_forms(tmp_path: Path) -> None:
    pkg = _package(
        tmp_path,
        {
            "a.py": "from biasaudit.x import _hidden, shown\n",
            "b.py": "from biasaudit import parts\nparts._helper()\n",
        },
    )
    assert private_names_taken(pkg) == [
        "a.py imports _hidden from biasaudit.x",
        "b.py:2 reads parts._helper",
    ]
