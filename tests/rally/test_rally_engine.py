"""The array rally engine against the NetworkX planner it replaced, board by board.

The oracle is ``tests/rally/reference.py`` (the planner as it stood before the
arc arrays): on random boards of any shape, anywhere on the grid, with roads,
budgets and every objective, the two give the same answer to the last key of
``to_dict()``, the same cost fields (predecessors included) and the same
NetworkX graph, node by node and arc by arc, in the same order.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.rally.reference as reference
from isles.models.board import Board, beginner_board
from isles.models.catan import NUMBER_TOKENS, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import MAX_COORDINATE, Hex, edges_between, hexagon
from isles.models.rally.rules import OBJECTIVES
from isles.solvers.rally.field import cost_field
from isles.solvers.rally.graph import RallyGraph, build_graph
from isles.solvers.rally.trip import plan_route

RESOURCES = ["lumber", "wool", "grain", "brick", "ore"]


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Any shape (holes, islands), any terrain, shifted anywhere on the grid."""
    radius = draw(st.integers(0, 3))
    cells = draw(st.lists(st.sampled_from(hexagon(radius)), min_size=1, unique=True))
    far = MAX_COORDINATE - radius
    dq, dr = draw(st.sampled_from([(0, 0), (5, -9), (far, -far), (-far, 0)]))
    tiles: dict[Hex, Tile] = {}
    for h in cells:
        terrain = draw(st.sampled_from(list(Terrain)))
        if terrain.produces:
            number: int | None = draw(st.sampled_from(NUMBER_TOKENS))
        elif terrain is Terrain.SEA:
            number = draw(st.none() | st.sampled_from(NUMBER_TOKENS))
        else:
            number = None
        tiles[Hex(h.q + dq, h.r + dr)] = Tile(terrain, number)
    return Board(tiles)


@st.composite
def queries(draw: st.DrawFn) -> dict[str, Any]:
    board = draw(boards())
    hexes = list(board)
    land = board.land()
    # Roads lie on sides touching land, each once (as in a board file).
    edges = [e for e in edges_between(hexes) if any(board.tiles[h].terrain.is_land for h in e)]
    roads = draw(st.lists(st.sampled_from(edges), max_size=6, unique=True)) if edges else []
    objective = draw(st.sampled_from(OBJECTIVES))
    values = None
    if objective == "weighted":
        values = draw(
            st.fixed_dictionaries(
                {r: st.sampled_from([0, Fraction(1, 2), 1, 3]) for r in RESOURCES}
            )
        )
    budget = draw(st.none() | st.fixed_dictionaries({r: st.integers(0, 12) for r in RESOURCES}))
    return {
        "board": board,
        "start": draw(st.sampled_from(hexes)),
        "goals": draw(st.lists(st.sampled_from(land), min_size=1, max_size=3, unique=True))
        if land
        else None,
        "roads": roads,
        "objective": objective,
        "values": values,
        "budget": budget,
    }


def _same_graph(new: RallyGraph, old: Any) -> None:
    assert new.hexes == old.hexes and dict(new.index) == dict(old.index)
    assert new.roads == old.roads
    for name, old_name in (("tail", "_tail"), ("head", "_head"), ("arc_cards", "_cards")):
        assert np.array_equal(getattr(new, name), getattr(old, old_name)), name
    assert list(new.graph.nodes(data=True)) == list(old.graph.nodes(data=True))
    assert list(new.graph.edges(data=True)) == list(old.graph.edges(data=True))


@settings(max_examples=200)
@given(queries())
def test_the_lazy_graph_is_the_networkx_graph_built_arc_by_arc(s: dict[str, Any]) -> None:
    _same_graph(build_graph(s["board"], s["roads"]), reference.build_graph(s["board"], s["roads"]))


@settings(max_examples=300)
@given(queries())
def test_routes_are_those_of_the_networkx_planner(s: dict[str, Any]) -> None:
    if s["goals"] is None:
        return
    kwargs = {k: s[k] for k in ("goals", "roads", "objective", "values", "budget")}
    new = plan_route(s["board"], s["start"], **kwargs).to_dict()
    old = reference.plan_route(s["board"], s["start"], **kwargs).to_dict()
    # A budget search has the declared default time limit (60 s); the reference none.
    assert new.pop("time_limit") == (None if s["budget"] is None else 60.0)
    old.pop("time_limit")
    assert new == old


@settings(max_examples=100)
@given(queries(), st.sampled_from(["cards", "turns"]))
def test_cost_fields_are_those_of_the_networkx_planner(s: dict[str, Any], objective: Any) -> None:
    new = cost_field(build_graph(s["board"], s["roads"]), s["start"], objective)
    old = reference.cost_field(reference.build_graph(s["board"], s["roads"]), s["start"], objective)
    assert new.to_dict() == old.to_dict()
    assert np.array_equal(new.predecessor, old.predecessor)


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_every_rim_start_of_the_beginner_board_as_before(objective: Any) -> None:
    board = beginner_board()
    new_graph, old_graph = build_graph(board), reference.build_graph(board)
    _same_graph(new_graph, old_graph)
    for start in board.sea():
        new = plan_route(new_graph, start, goals=board.land()[:5], objective=objective)
        old = reference.plan_route(old_graph, start, goals=board.land()[:5], objective=objective)
        assert new.to_dict() == old.to_dict()


def test_planning_never_builds_the_networkx_graph() -> None:
    """The graph is the public model, made on first read; the planner reads the arrays."""
    rg = build_graph(beginner_board(), roads=[((0, -1), (0, 0))])
    objective: Any
    for objective in OBJECTIVES:
        plan_route(rg, (0, -3), objective=objective)
        plan_route(rg, (0, -3), objective=objective, budget={"ore": 10, "brick": 6})
    cost_field(rg, (0, -3))
    assert "graph" not in rg.__dict__
    assert rg.graph is rg.graph  # built once, then kept


# -- board files read in bulk ------------------------------------------------------------


@settings(max_examples=100)
@given(boards(), st.randoms(use_true_random=False))
def test_a_board_read_in_bulk_is_the_board_read_entry_by_entry(board: Board, rng: Any) -> None:
    entries = board.to_dict()["hexes"]
    rng.shuffle(entries)
    one_by_one = Board._read_tiles_one_by_one(entries, "board")
    assert Board.from_dict({"hexes": entries}) == one_by_one == board
    assert list(Board.from_dict({"hexes": entries}).tiles) == list(board.tiles)  # board order


@pytest.mark.parametrize(
    "bad",
    [
        {"hex": [0, 0], "terrain": "forest", "number": 7},
        {"hex": [0, 0], "terrain": "forest", "number": 3.0},
        {"hex": [0, 0], "terrain": "forest", "number": True},
        {"hex": [0, 0], "terrain": "desert", "number": 3},
        {"hex": [0, 0], "terrain": "forest"},
        {"hex": [0, 0], "terrain": "lava", "number": 3},
        {"hex": [0, 0, 0], "terrain": "sea"},
        {"hex": [0, True], "terrain": "sea"},
        {"hex": [0, MAX_COORDINATE + 1], "terrain": "sea"},
        {"hex": [0, 0], "terrain": "sea", "extra": 1},
        {"hex": [0, 0]},
        {"hex": [1, -3], "terrain": "sea"},  # given twice
        [0, 0],
    ],
)
def test_a_bad_entry_is_named_as_by_the_entry_by_entry_reader(bad: object) -> None:
    entries = [*beginner_board().to_dict()["hexes"][:5], bad]
    with pytest.raises(InvalidInput) as one_by_one:
        Board._read_tiles_one_by_one(entries, "my.json")
    with pytest.raises(InvalidInput) as read:
        Board.from_dict({"hexes": entries}, "my.json")
    assert str(read.value) == str(one_by_one.value) and "my.json.hexes[5]" in str(read.value)
