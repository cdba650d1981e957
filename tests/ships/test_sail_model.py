"""The ships model against the seed's text (004_644cf972d8964df4.txt; docs/ships.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board, beginner_board
from isles.models.catan import NUMBER_TOKENS, Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, edge, edges_between, hexagon, neighbours
from isles.models.ships.coordinates import as_corner, as_edge, parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.encounters import (
    Encounter,
    Outcome,
    cargo_after,
    outcome_rolls,
    outcome_table,
)
from isles.models.ships.limits import (
    CARGO_LIMIT,
    MAX_SHIPS,
    ROLLS,
    SHIP_COST,
    check_players,
    rolls_to_rounds,
)
from isles.models.ships.settlements import (
    harvest,
    placement_edges,
    scoring_ship,
    settlement_edges,
    ship_points,
)
from isles.models.ships.winds import (
    Waters,
    capacity,
    check_ship_edge,
    edge_vertices,
    is_ship_edge,
    pirate_options,
    ship_edges,
    ship_options,
    waters,
    wind_moves,
)


def test_tables_are_the_seeds_numbers() -> None:
    coll = outcome_table(Encounter.COLLISION)
    assert coll == {
        Outcome.SINKS: Fraction(1, 36),  # a 2
        Outcome.LOSES_ALL: Fraction(2, 36),  # a 3
        Outcome.LOSES_TWO: Fraction(3, 36),  # a 4
        Outcome.LOSES_ONE: Fraction(4, 36),  # a 5
        Outcome.UNHARMED: Fraction(26, 36),  # 6 to 12
    }
    pirate = outcome_table(Encounter.PIRATE)
    assert pirate == {
        Outcome.UNHARMED: Fraction(6, 36),  # 2 to 4: the pirate misses the ship
        Outcome.LOSES_ALL: Fraction(27, 36),  # 5 to 10: plundered
        Outcome.SINKS: Fraction(3, 36),  # 11 and 12
    }
    for enc in Encounter:
        assert sum(outcome_table(enc).values()) == 1
        rolls = sorted(n for ns in outcome_rolls(enc).values() for n in ns)
        assert rolls == list(range(2, 13))  # every roll, exactly once


def test_cargo_after_each_outcome() -> None:
    assert [cargo_after(Outcome.LOSES_ONE, c) for c in range(4)] == [0, 0, 1, 2]
    assert [cargo_after(Outcome.LOSES_TWO, c) for c in range(4)] == [0, 0, 0, 1]
    assert [cargo_after(Outcome.LOSES_ALL, c) for c in range(4)] == [0, 0, 0, 0]
    assert [cargo_after(Outcome.UNHARMED, c) for c in range(4)] == [0, 1, 2, 3]
    assert cargo_after(Outcome.SINKS, 2) is None
    with pytest.raises(InvalidInput):
        cargo_after(Outcome.UNHARMED, CARGO_LIMIT + 1)


def test_constants() -> None:
    assert CARGO_LIMIT == 3 and MAX_SHIPS == 3
    assert dict(SHIP_COST) == {Resource.WOOL: 1, Resource.LUMBER: 1, Resource.GRAIN: 1}
    assert [ship_points(n) for n in range(4)] == [0, 0, 1, 2]
    with pytest.raises(InvalidInput):
        ship_points(4)
    assert rolls_to_rounds(10.0, 5) == 2.0
    for bad in (2, 7):
        with pytest.raises(InvalidInput):
            rolls_to_rounds(1.0, bad)


def test_names_in_json_are_snake_case_words() -> None:
    assert [o.value for o in Outcome] == [
        "sinks",
        "loses_all_cargo",
        "loses_2_cards",
        "loses_1_card",
        "unharmed",
    ]
    assert Outcome.LOSES_ONE.label == "loses 1 card"
    assert [w.value for w in Waters] == ["high_sea", "coast"]
    assert [e.value for e in Encounter] == ["collision", "pirate"]


@pytest.mark.parametrize(
    "value",
    [((0, 0), (1, 0)), [[1, 0], [0, 0]], edge((0, 0), (1, 0)), ([0, 0], (1, 0))],
)
def test_as_edge_accepts_pairs_in_any_order(value: object) -> None:
    assert as_edge(value, "start") == edge((0, 0), (1, 0))


@pytest.mark.parametrize(
    "value",
    [
        None,
        "0,0:1,0",
        [[0, 0]],
        [[0, 0], [2, 0]],
        [[0, 0], [0, 0]],
        [[0, 0], [1, True]],
        [[0, 0], [1.0, 0]],
        [[0, 0], [1, 0], [1, -1]],
        {"a": 1},
    ],
)
def test_as_edge_refuses_naming_the_field(value: object) -> None:
    with pytest.raises(InvalidInput, match=r"^start: "):
        as_edge(value, "start")


def test_as_corner() -> None:
    v = as_corner([[1, -1], [0, 0], [1, 0]], "near[0]")
    assert v == parse_settlement("0,0:1,0:1,-1") == as_corner(v)
    for bad in (None, [[0, 0], [1, 0]], [[0, 0], [1, 0], [2, 0]], [[0, 0], [1, 0], "1,-1"]):
        with pytest.raises(InvalidInput, match=r"^near\[0\]: "):
            as_corner(bad, "near[0]")


def test_check_players() -> None:
    assert [check_players(n) for n in (3, 6)] == [3, 6]
    for bad in (2, 7, True, 4.0, "4"):
        with pytest.raises(InvalidInput, match=r"^players: "):
            check_players(bad)


def test_ship_edges_and_waters() -> None:
    b = beginner_board()
    edges = ship_edges(b)
    assert all(is_ship_edge(b, e) for e in edges)
    every = edges_between(b)
    assert set(edges) == {e for e in every if Terrain.SEA in (b.terrain(e.a), b.terrain(e.b))}
    high = edge((0, 3), (1, 2))
    coast = edge((0, 2), (0, 3))
    assert waters(b, high) is Waters.HIGH_SEA and capacity(b, high) == 2
    assert waters(b, coast) is Waters.COAST and capacity(b, coast) == 1
    with pytest.raises(InvalidInput):
        check_ship_edge(b, edge((0, 0), (1, 0)))  # both land
    with pytest.raises(InvalidInput):
        check_ship_edge(b, edge((0, 3), (0, 4)))  # off the board


def test_wind_moves_by_hand() -> None:
    # Sea 0,0 (token 6) and sea 1,0 (token 6), sea 1,-1, land 0,1.
    b = Board(
        {
            Hex(0, 0): Tile(Terrain.SEA, 6),
            Hex(1, 0): Tile(Terrain.SEA, 6),
            Hex(1, -1): Tile(Terrain.SEA, 9),
            Hex(0, 1): Tile(Terrain.HILLS, 4),
        }
    )
    e = edge((0, 0), (1, 0))
    # Both hexes carry the 6: along 0,0 to {0,0;1,-1} or {0,0;0,1}; along 1,0 to
    # {1,0;1,-1} or {1,0;0,1}.
    assert set(wind_moves(b, e, 6)) == {
        edge((0, 0), (1, -1)),
        edge((0, 0), (0, 1)),
        edge((1, 0), (1, -1)),
        edge((1, 0), (0, 1)),
    }
    assert wind_moves(b, e, 7) == () and wind_moves(b, e, 9) == ()
    assert ship_options(b, e, 9) == (e,)  # the wind does not blow there: it stays
    coast = edge((0, 0), (0, 1))
    # The land token 4 never blows; the sea 6 moves it along 0,0 to {0,0;1,0} (the
    # other common neighbour -1,1 is off the board).
    assert wind_moves(b, coast, 4) == ()
    assert ship_options(b, coast, 6) == (e,)
    assert set(ship_options(b, coast, 6, may_stay=True)) == {e, coast}
    # High sea: the variant does not let it stay.
    assert e not in ship_options(b, e, 6, may_stay=True)
    with pytest.raises(InvalidInput):
        wind_moves(b, e, 13)


def test_pirate_moves_on_seven() -> None:
    b = demo_board()
    e = edge((0, 0), (1, 0))  # both sea
    sevens = set(pirate_options(b, e, 7))
    assert sevens == {edge(h, x) for h in (e.a, e.b) for x in _common(e) if x in b}
    assert pirate_options(b, e, 10) == ship_options(b, e, 10)


def _common(e: Edge) -> set[Hex]:
    return set(neighbours(e.a)) & set(neighbours(e.b))


@st.composite
def boards(draw: st.DrawFn) -> Board:
    cells = draw(st.lists(st.sampled_from(hexagon(2)), min_size=2, max_size=12, unique=True))
    tiles = {}
    for h in cells:
        if draw(st.booleans()):
            tiles[h] = Tile(Terrain.SEA, draw(st.none() | st.sampled_from(NUMBER_TOKENS)))
        else:
            tiles[h] = Tile(Terrain.FIELDS, draw(st.sampled_from(NUMBER_TOKENS)))
    return Board(tiles)


@settings(max_examples=50)
@given(board=boards())
def test_every_wind_move_is_one_edge_along_the_rolled_sea_hex_and_reversible(
    board: Board,
) -> None:
    for e in ship_edges(board):
        for n in ROLLS:
            for m in wind_moves(board, e, n):
                shared = set((e.a, e.b)) & set((m.a, m.b))
                assert len(shared) == 1  # one edge along the hex they share
                (h,) = shared
                assert board.terrain(h) is Terrain.SEA and board.number(h) == n
                assert set(edge_vertices(e)) & set(edge_vertices(m))  # adjacent sides
                assert e in wind_moves(board, m, n)  # the same number blows it back
            opts = ship_options(board, e, n, may_stay=True)
            assert opts and (e in opts) == (
                not wind_moves(board, e, n) or waters(board, e) is Waters.COAST
            )


def test_settlements_placement_harvest_points() -> None:
    b = demo_board()
    v = parse_settlement("0,2:0,3:1,2")
    assert [str(e) for e in settlement_edges(b, v)] == ["0,2:0,3", "0,3:1,2"]
    assert len(placement_edges(b, v, "red", {})) == 3  # the high-sea edge too
    road = edge((0, 2), (0, 3))
    assert road not in placement_edges(b, v, "red", {road: "blue"})
    assert road in placement_edges(b, v, "red", {road: "red"})
    with pytest.raises(InvalidInput):
        parse_settlement("0,0:1,0")
    with pytest.raises(InvalidInput):
        parse_settlement("0,0:1,0:3,3")
    # Harvest: hills 5 at 0,3.
    assert harvest(b, road, 5, "red", {}, {}) is Terrain.HILLS
    assert harvest(b, road, 10, "red", {}, {}) is None  # the sea token blows, no card
    assert harvest(b, road, 5, "red", {v: "blue"}, {}) is None
    assert harvest(b, road, 5, "red", {}, {road: "blue"}) is None
    two = {v: "red", parse_settlement("0,3:-1,3:0,2"): "red"}
    assert harvest(b, road, 5, "red", two, {}) is None  # more than one around the hex
    # Points: next to an own building, or an own road touching the edge.
    assert scoring_ship(road, "red", {v: "red"}, {})
    assert not scoring_ship(road, "red", {v: "blue"}, {})
    assert scoring_ship(road, "red", {}, {edge((0, 3), (1, 2)): "red"})
    assert not scoring_ship(road, "red", {}, {edge((-3, 0), (-2, 0)): "red"})


def test_demo_board_follows_the_setup_rules() -> None:
    b = demo_board()
    assert len(b) == 37 and set(b) == set(hexagon(3))
    assert len(b.land()) == 12 and len(b.sea()) == 25
    sea_tokens = [b.number(h) for h in b.sea()]
    assert all(n is not None for n in sea_tokens)
    for h in b.sea():
        for n in b.neighbours(h):
            if b.terrain(n) is Terrain.SEA:
                assert b.number(n) != b.number(h)  # no two adjacent sea hexes alike
    land = set(b.land())
    for h in land:  # no three pairwise adjacent land hexes
        ns = neighbours(h)
        assert not any(ns[i] in land and ns[(i + 1) % 6] in land for i in range(6))
