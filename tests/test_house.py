"""The shape of the house (docs/architecture.md), held against the code.

Measured by tests/house.py from the source itself: a package per game in
``models/`` and ``solvers/``, data flowing one way, no cycles and no late
imports of isles' own modules, no private name borrowed across packages, small
modules and functions, and a catalogue of one documented name per question.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import typing
from typing import Any

import pytest

from tests import house

KNOWN = house.modules()
GRAPH = house.import_graph(KNOWN)

#: Names each game's catalogue may hold at most (120 in all): what a user calls, the
#: questions, the answers and their parts, the model types a user builds or passes.
BUDGET = {"rally": 21, "plunder": 33, "layout": 21, "lighthouse": 23, "ships": 22}
#: Modules over 1,000 lines there may be at most, and functions over 80 lines.
MAX_LONG_MODULES = 4
MAX_LONG_FUNCTIONS = 6
#: What a function over 80 lines says of itself: it is a kernel whose loop stays whole.
WHOLE = "must stay whole"


@pytest.mark.parametrize("game", house.GAMES)
def test_each_game_is_a_package_on_both_sides(game: str) -> None:
    for side in ("models", "solvers"):
        assert f"isles.{side}.{game}" in KNOWN, f"{side}/{game}/ is no package"
    assert f"isles.models.{game}.questions" in KNOWN
    names = [m for m in KNOWN if m.startswith(("isles.models.", "isles.solvers."))]
    flat = [m for m in names if m.count(".") == 2 and m.split(".")[2].startswith(f"{game}_")]
    assert not flat, f"modules named after the game outside its package: {flat}"


@pytest.mark.parametrize("side", ["models", "solvers"])
@pytest.mark.parametrize("game", house.GAMES)
def test_each_package_maps_its_modules(game: str, side: str) -> None:
    """A newcomer finds a module from its package's docstring: every one is named there."""
    package = KNOWN[f"isles.{side}.{game}"]
    text = ast.get_docstring(package.tree) or ""
    prefix = f"isles.{side}.{game}."
    unnamed = [
        name.removeprefix(prefix)
        for name in KNOWN
        if name.startswith(prefix) and name.removeprefix(prefix) not in text
    ]
    assert unnamed == [], f"{side}/{game}/__init__.py does not name {unnamed}"


def test_no_import_cycle() -> None:
    assert house.cycles(GRAPH) == []


def test_models_and_solvers_import_at_the_top() -> None:
    late = [
        x for x in house.late_imports(KNOWN) if x[0].startswith(("isles.models", "isles.solvers"))
    ]
    assert late == []


def test_no_private_name_is_borrowed_from_another_package() -> None:
    assert list(house.private_imports(KNOWN)) == []


def test_the_games_never_import_each_other() -> None:
    assert sorted(set(house.cross_game_imports(KNOWN))) == []


def test_data_flows_one_way() -> None:
    assert sorted(set(house.model_solver_imports(KNOWN))) == []
    assert sorted(set(house.front_end_solver_imports(KNOWN))) == []
    solvers_up = sorted(
        (a, b)
        for a, targets in GRAPH.items()
        if a.startswith("isles.solvers")
        for b in targets
        if not b.startswith(("isles.solvers", "isles.models"))
    )
    assert solvers_up == []


def test_modules_stay_small() -> None:
    long = house.long_modules(KNOWN)
    assert len(long) <= MAX_LONG_MODULES, long


def test_functions_stay_small_but_for_kernels_that_say_why() -> None:
    long = house.long_functions(KNOWN)
    assert len(long) <= MAX_LONG_FUNCTIONS, long
    for _, where in long:
        module_name, _, name = where.rpartition(".")
        module = KNOWN[module_name]
        node = next(
            n
            for n in ast.walk(module.tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name
        )
        lines = module.path.read_text(encoding="utf-8").splitlines()
        around = "\n".join(lines[max(0, node.lineno - 4) : node.end_lineno])
        assert WHOLE in around, f"{where}: over 80 lines; a kernel says why it {WHOLE}"


def test_the_catalogue_is_small() -> None:
    names = house.catalogue()
    for game, listed in names.items():
        assert len(listed) <= BUDGET[game], (game, len(listed))
    assert sum(map(len, names.values())) <= 120


def _public_callables(game: str) -> list[tuple[str, Any]]:
    module = importlib.import_module(f"isles.{game}")
    return [(n, getattr(module, n)) for n in module.__all__]


@pytest.mark.parametrize("game", house.GAMES)
def test_every_catalogue_name_is_documented(game: str) -> None:
    module = importlib.import_module(f"isles.{game}")
    assert module.__doc__
    for name, value in _public_callables(game):
        assert name in module.__doc__, f"isles.{game}.{name} is not listed in the catalogue's text"
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"isles.{game}.{name} has no docstring"


@pytest.mark.parametrize("game", house.GAMES)
def test_one_name_per_question(game: str) -> None:
    """No catalogue function takes a question object: isles.answer answers those."""
    from isles.models.contract import Question

    for name, value in _public_callables(game):
        if not inspect.isfunction(value):
            continue
        hints = typing.get_type_hints(value)
        for parameter, hint in hints.items():
            if parameter == "return":
                continue
            kinds = typing.get_args(hint) or (hint,)
            taken = [k for k in kinds if inspect.isclass(k) and issubclass(k, Question)]
            assert not taken, f"isles.{game}.{name}({parameter}) takes a question: {taken}"


@pytest.mark.parametrize("game", house.GAMES)
def test_public_signatures_are_typed_exactly(game: str) -> None:
    for name, value in _public_callables(game):
        if not inspect.isfunction(value):
            continue
        for parameter, hint in typing.get_type_hints(value).items():
            assert "Any" not in str(hint), f"isles.{game}.{name}({parameter}): {hint}"
