"""The shape of the house, measured from the source: packages, sizes, imports, the catalogue.

Shared by tests/test_house.py (which holds the code to docs/architecture.md) and
printed by ``python -m tests.house`` (the figures of a change's closing note). It
reads the source as text (``ast``): nothing of isles is run but the catalogue's
``__all__``, read by importing the five game modules.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The folders of isles' own code (``isles/`` holds links to the other two).
TOPS = ("models", "solvers", "isles")
#: The games: a package each in ``models/`` and ``solvers/``, a catalogue ``isles.<game>``.
GAMES = ("rally", "plunder", "layout", "lighthouse", "ships")
#: The front ends: they read a question, call the catalogue, format (never a solver).
FRONT_ENDS = (
    "isles.cli",
    "isles.console",
    "isles.options",
    "isles.draw",
    "isles.commands",
    "isles.web",
)

MODULE_LINES = 1000
FUNCTION_LINES = 80


@dataclass
class Module:
    """One module of isles: its dotted name, file, lines and imports."""

    name: str
    path: Path
    lines: int
    tree: ast.Module
    #: (module imported, names, line, at the top of the module, only for type checking)
    imports: list[tuple[str, tuple[str, ...], int, bool, bool]] = field(default_factory=list)

    @property
    def package(self) -> str:
        """``isles.solvers.rally`` for ``isles.solvers.rally.route``; the core is its top."""
        parts = self.name.split(".")
        if len(parts) >= 3 and parts[1] in ("models", "solvers") and parts[2] in GAMES:
            return ".".join(parts[:3])
        return ".".join(parts[:2])

    @property
    def game(self) -> str | None:
        """The game the module belongs to (models and solvers), or None for the core."""
        parts = self.name.split(".")
        if len(parts) >= 3 and parts[1] in ("models", "solvers") and parts[2] in GAMES:
            return parts[2]
        return None


def _dotted(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts if parts[0] == "isles" else ["isles", *parts])


def _top_level_nodes(tree: ast.Module) -> tuple[set[int], set[int]]:
    """Ids of the import nodes at a module's top (``if``/``try`` blocks included), and
    of those under ``if TYPE_CHECKING``."""
    top: set[int] = set()
    typing: set[int] = set()
    for node in tree.body:
        inner = [node] if isinstance(node, ast.Import | ast.ImportFrom) else []
        if isinstance(node, ast.If | ast.Try):
            inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                typing.update(id(n) for n in inner)
        top.update(id(n) for n in inner)
    return top, typing


def modules() -> dict[str, Module]:
    """Every module of isles' own code, by dotted name (``isles.solvers.rally.route``)."""
    found: dict[str, Module] = {}
    for top in TOPS:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).parts
            if rel[0] == "isles" and len(rel) > 1 and (ROOT / "isles" / rel[1]).is_symlink():
                continue
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text)
            module = Module(_dotted(path), path, len(text.splitlines()), tree)
            top_ids, typing_ids = _top_level_nodes(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = tuple(a.name for a in node.names)
                    module.imports.append(
                        (
                            node.module,
                            names,
                            node.lineno,
                            id(node) in top_ids,
                            id(node) in typing_ids,
                        )
                    )
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        module.imports.append(
                            (
                                alias.name,
                                (),
                                node.lineno,
                                id(node) in top_ids,
                                id(node) in typing_ids,
                            )
                        )
            found[module.name] = module
    return found


def _target(
    name: str, imported: str, names: tuple[str, ...], known: dict[str, Module]
) -> list[str]:
    """The modules of isles an import names (``from isles.solvers import rally`` names one)."""
    if not imported.startswith("isles"):
        return []
    out = []
    for n in names or ("",):
        full = f"{imported}.{n}" if n else imported
        candidate = full if full in known else imported
        while candidate and candidate not in known:
            candidate = candidate.rpartition(".")[0]
        if candidate and candidate != name:
            out.append(candidate)
    return out


def import_graph(known: dict[str, Module]) -> dict[str, set[str]]:
    """Module -> the modules of isles it imports, wherever the import stands."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module in known.values():
        for imported, names, _, _, _ in module.imports:
            graph[module.name].update(_target(module.name, imported, names, known))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def late_imports(known: dict[str, Module]) -> Iterator[tuple[str, int, str]]:
    """Imports of isles' own modules made inside a function or class (module, line, what)."""
    for module in known.values():
        for imported, _, line, top, _ in module.imports:
            if imported.startswith("isles") and not top:
                yield module.name, line, imported


def private_imports(
    known: dict[str, Module], *, other_packages: bool = True
) -> Iterator[tuple[str, str, str]]:
    """A private name (``_name``) imported from another package, or with
    ``other_packages=False`` from any other module (module, from, name)."""
    for module in known.values():
        for imported, names, _, _, _ in module.imports:
            targets = set(_target(module.name, imported, names, known))
            if not targets or (
                other_packages and all(known[t].package == module.package for t in targets)
            ):
                continue
            for n in names:
                if n.startswith("_") and not n.startswith("__"):
                    yield module.name, imported, n


def cross_game_imports(known: dict[str, Module]) -> Iterator[tuple[str, str]]:
    """A module of one game importing another game's (module, imported)."""
    graph = import_graph(known)
    for name, targets in graph.items():
        game = known[name].game
        for target in targets:
            other = known[target].game
            if game is not None and other is not None and other != game:
                yield name, target


def front_end_solver_imports(known: dict[str, Module]) -> Iterator[tuple[str, str]]:
    """A front end importing a solver module rather than the catalogue (module, imported)."""
    for name, targets in import_graph(known).items():
        if name.startswith(FRONT_ENDS):
            for target in targets:
                if target.startswith("isles.solvers"):
                    yield name, target


def model_solver_imports(known: dict[str, Module]) -> Iterator[tuple[str, str]]:
    """A model importing a solver or a front end: data flows one way (module, imported)."""
    for name, targets in import_graph(known).items():
        if name.startswith("isles.models"):
            for target in targets:
                if not target.startswith("isles.models"):
                    yield name, target


def long_modules(known: dict[str, Module]) -> list[tuple[int, str]]:
    """Modules over :data:`MODULE_LINES` lines, longest first."""
    return sorted(
        ((m.lines, m.name) for m in known.values() if m.lines > MODULE_LINES), reverse=True
    )


def function_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's lines, its docstring aside."""
    body = node.body
    first = body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        body = body[1:]
    if not body:
        return 0
    end = body[-1].end_lineno or body[-1].lineno
    return end - body[0].lineno + 1


def long_functions(known: dict[str, Module]) -> list[tuple[int, str]]:
    """Functions over :data:`FUNCTION_LINES` lines (docstrings aside), longest first."""
    found = []
    for module in known.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = function_lines(node)
                if n > FUNCTION_LINES:
                    found.append((n, f"{module.name}.{node.name}"))
    return sorted(found, reverse=True)


def catalogue() -> dict[str, list[str]]:
    """Each game module's ``__all__``."""
    return {game: list(importlib.import_module(f"isles.{game}").__all__) for game in GAMES}


def files_per_package(known: dict[str, Module]) -> dict[str, tuple[int, int]]:
    """Package -> (modules, lines)."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for module in known.values():
        out[module.package][0] += 1
        out[module.package][1] += module.lines
    return {k: (v[0], v[1]) for k, v in sorted(out.items())}


def report() -> str:
    """Every figure, as printed by ``python -m tests.house``."""
    known = modules()
    graph = import_graph(known)
    lines = ["packages (modules, lines):"]
    lines += [f"  {p:<28} {n:>3} {k:>7,}" for p, (n, k) in files_per_package(known).items()]
    mods = long_modules(known)
    lines.append(f"modules over {MODULE_LINES} lines: {len(mods)}")
    lines += [f"  {n:>5} {m}" for n, m in mods]
    funcs = long_functions(known)
    lines.append(f"functions over {FUNCTION_LINES} lines (docstrings aside): {len(funcs)}")
    lines += [f"  {n:>5} {f}" for n, f in funcs]
    names = catalogue()
    lines.append(
        f"catalogue names: {sum(map(len, names.values()))} "
        + "("
        + ", ".join(f"{g} {len(v)}" for g, v in names.items())
        + ")"
    )
    found = cycles(graph)
    lines.append(f"import cycles: {len(found)}")
    lines += [f"  {' <-> '.join(c)}" for c in found]
    late = list(late_imports(known))
    inner = [x for x in late if x[0].startswith(("isles.models", "isles.solvers"))]
    lines.append(
        f"late imports of isles' own modules: {len(late)} ({len(inner)} in models and solvers)"
    )
    lines += [f"  {m}:{n} {what}" for m, n, what in inner]
    anywhere = list(private_imports(known, other_packages=False))
    lines.append(
        f"private names imported from another module: {len(anywhere)} "
        f"(in {len({m for m, _, _ in anywhere})} modules)"
    )
    private = list(private_imports(known))
    lines.append(f"private names imported from another package: {len(private)}")
    lines += [f"  {m} <- {f}.{n}" for m, f, n in private]
    cross = sorted(set(cross_game_imports(known)))
    lines.append(f"imports between games: {len(cross)}")
    lines += [f"  {a} -> {b}" for a, b in cross]
    reach = sorted(set(front_end_solver_imports(known)))
    lines.append(f"front ends importing solvers: {len(reach)}")
    lines += [f"  {a} -> {b}" for a, b in reach]
    back = sorted(set(model_solver_imports(known)))
    lines.append(f"models importing solvers or front ends: {len(back)}")
    lines += [f"  {a} -> {b}" for a, b in back]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
