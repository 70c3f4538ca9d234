"""The package order of docs/architecture.md, checked on every import of every project module (issue 18).

Each ``.py`` file of a project package (and ``run_eval.py``) is read with ``ast``; every import counts, at
module level or inside a function, ``from . import`` included, and so does a module named by a string
(``importlib.import_module("pkg.mod")``, or a ``"pkg.mod"`` / ``"pkg.mod:attr"`` literal that names an
existing project module, the form the registries import lazily). Each edge between two top-level packages
must be one that ``MAY_IMPORT`` allows. Tests, benchmarks and scripts may import anything.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package -> the project packages it may import (besides itself). The order, lowest first:
# schemas, lambdapy < generators < verifiers; lambdapy < elenchos (data side) < builder < harness < run_eval.py.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "schemas": frozenset(),
    "lambdapy": frozenset({"schemas"}),
    "generators": frozenset({"schemas"}),
    "verifiers": frozenset({"generators", "schemas"}),
    "elenchos": frozenset({"lambdapy", "schemas"}),
    "builder": frozenset({"generators", "verifiers", "elenchos", "schemas"}),
    "harness": frozenset({"builder", "elenchos", "verifiers", "generators", "lambdapy", "schemas"}),
    "run_eval.py": frozenset({"harness", "builder", "elenchos", "verifiers", "generators", "lambdapy", "schemas"}),
}
PACKAGES = tuple(p for p in MAY_IMPORT if not p.endswith(".py"))
# The one exception the issue allows: ``python -m generators elenchos`` hands over to the Elenchos generation
# command, imported inside the function that runs it (so importing ``generators`` never loads ``elenchos``).
FUNCTION_LEVEL_EXCEPTIONS = {("generators/elenchos_cli.py", "elenchos")}
# Leaf modules that import nothing from the project, so every package may use them: the one way files are written
# and read safely (``generators.safefs``) and the one bound on worker processes (``generators.limits``).
LEAF_MODULES = frozenset({"generators.safefs", "generators.limits"})

_IMPORTERS = {"import_module", "__import__"}
_MODULE_STRING = re.compile(r"([a-z_][a-z0-9_]*)((?:\.[a-z_][a-z0-9_]*)*)(?::[A-Za-z_]\w*)?")


@dataclass(frozen=True)
class Edge:
    path: str  # relative to the repository root
    line: int
    source: str  # the importing package (or "run_eval.py")
    target: str  # the imported top-level project package
    module: str  # the module as written
    how: str  # "import", "import in a function", "import_module", "string"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.source} -> {self.target} ({self.how} {self.module})"


def project_files() -> list[Path]:
    files = [ROOT / "run_eval.py"]
    for package in PACKAGES:
        files += sorted((ROOT / package).rglob("*.py"))
    return files


def source_of(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return rel.parts[0] if len(rel.parts) > 1 else rel.name


def names_module(dotted: str, root: Path = ROOT) -> bool:
    """Whether ``dotted`` (``pkg.sub.mod``) is a module or package of this repository."""
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


class _EdgeFinder(ast.NodeVisitor):
    def __init__(self, rel: str, source: str, root: Path) -> None:
        self.rel, self.source, self.root = rel, source, root
        self.depth = 0  # > 0 inside a function or lambda
        self.seen: set[int] = set()  # string constants already counted as an import_module argument
        self.edges: list[Edge] = []

    def _add(self, node: ast.AST, module: str, how: str) -> None:
        target = module.split(".")[0]
        if target in PACKAGES and target != self.source:
            if how == "import" and self.depth:
                how = "import in a function"
            self.edges.append(Edge(self.rel, node.lineno, self.source, target, module, how))

    def _function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(node, alias.name, "import")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module:  # a relative import stays inside its own package
            self._add(node, node.module, "import")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in _IMPORTERS and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            self.seen.add(id(node.args[0]))
            self._add(node, node.args[0].value, "import_module")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if id(node) in self.seen or not isinstance(node.value, str):
            return
        if m := _MODULE_STRING.fullmatch(node.value):
            dotted = m.group(1) + m.group(2)
            if (m.group(2) or ":" in node.value) and names_module(dotted, self.root):
                self._add(node, node.value, "string")


def edges_of(text: str, rel: str, source: str, root: Path = ROOT) -> list[Edge]:
    finder = _EdgeFinder(rel, source, root)
    finder.visit(ast.parse(text, filename=rel))
    return finder.edges


def forbidden(edge: Edge) -> bool:
    excepted = (edge.path, edge.target) in FUNCTION_LEVEL_EXCEPTIONS and edge.how == "import in a function"
    leaf = edge.module.split(":")[0] in LEAF_MODULES
    return edge.target not in MAY_IMPORT[edge.source] and not excepted and not leaf


def all_edges() -> list[Edge]:
    edges = []
    for path in project_files():
        rel = path.relative_to(ROOT).as_posix()
        edges += edges_of(path.read_text(encoding="utf-8"), rel, source_of(path))
    return edges


def test_every_import_follows_the_package_order() -> None:
    bad = [str(e) for e in all_edges() if forbidden(e)]
    allowed = "\n".join(f"  {p} -> {', '.join(sorted(t)) or '(nothing)'}" for p, t in MAY_IMPORT.items())
    assert not bad, (f"{len(bad)} import(s) break the package order of docs/architecture.md:\n  "
                     + "\n  ".join(bad) + f"\nallowed:\n{allowed}")


def test_the_order_has_no_cycle() -> None:
    done: set[str] = set()
    remaining = dict(MAY_IMPORT)
    while remaining:
        ready = [p for p, deps in remaining.items() if deps <= done]
        assert ready, f"MAY_IMPORT has a cycle among {sorted(remaining)}"
        for p in ready:
            done.add(p)
            del remaining[p]


def test_every_top_level_package_is_in_the_order() -> None:
    found = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests", "benchmarks", "scripts"}
    assert found <= set(PACKAGES), f"packages missing from MAY_IMPORT: {sorted(found - set(PACKAGES))}"


@pytest.mark.parametrize(("code", "expected"), [
    ("import harness.registry\n", ["import harness.registry"]),
    ("from harness import errors\n", ["import harness"]),
    ("def f():\n    from harness.errors import HarnessError\n", ["import in a function harness.errors"]),
    ("g = lambda: __import__('harness.errors')\n", ["import_module harness.errors"]),
    ("import importlib\nm = importlib.import_module('harness.registry')\n", ["import_module harness.registry"]),
    ("TARGET = 'harness.registry:load'\n", ["string harness.registry:load"]),
    ("from . import sibling\nfrom .x import y\nimport json\nimport generators\n", []),
    ("NOTE = 'harness'\nOTHER = 'harness.no_such_module'\n", []),
])
def test_the_finder_sees_every_kind_of_import(code: str, expected: list[str]) -> None:
    edges = edges_of(code, "generators/x.py", "generators")
    assert [f"{e.how} {e.module}" for e in edges] == expected
    assert all(e.line >= 1 and e.target == "harness" for e in edges)


def test_the_exception_holds_only_inside_a_function() -> None:
    inside = edges_of("def main():\n    from elenchos.cli import main\n", "generators/elenchos_cli.py", "generators")
    top = edges_of("from elenchos.cli import main\n", "generators/elenchos_cli.py", "generators")
    elsewhere = edges_of("def main():\n    import elenchos\n", "generators/other.py", "generators")
    assert [forbidden(e) for e in inside + top + elsewhere] == [False, True, True]


def test_leaf_modules_import_nothing_from_the_project() -> None:
    for module in sorted(LEAF_MODULES):
        rel = module.replace(".", "/") + ".py"
        edges = edges_of((ROOT / rel).read_text(encoding="utf-8"), rel, module.split(".")[0])
        assert [str(e) for e in edges] == []
