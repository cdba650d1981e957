"""Axial hex grid and the Catan board model (docs/boards.md), and the board file fuzz."""

import contextlib
import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board, beginner_board
from isles.models.catan import (
    BASE_LAND,
    BASE_NUMBER_TOKENS,
    Building,
    BuildingKind,
    HarbourKind,
    Terrain,
    Tile,
    pips,
    roll_probability,
)
from isles.models.errors import InvalidInput, IslesError
from isles.models.hexgrid import (
    DIRECTIONS,
    Hex,
    distance,
    edge,
    edges_between,
    hexagon,
    neighbours,
    parse_edge,
    parse_hex,
    ring,
    vertex,
    vertices_around,
    vertices_between,
)
from isles.rally import OBJECTIVES, cost_field, plan_route

coords = st.integers(-20, 20)
hexes = st.builds(Hex, coords, coords)


def test_directions_are_the_rules_order() -> None:
    assert [tuple(d) for d in DIRECTIONS] == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)
    assert a.q + a.r + a.s == 0


@given(hexes)
def test_neighbours_are_at_distance_one_and_distinct(h: Hex) -> None:
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)
    # Consecutive neighbours are adjacent: they form the six corners.
    assert all(distance(ns[i], ns[(i + 1) % 6]) == 1 for i in range(6))
    assert len(set(vertices_around(h))) == 6


@given(st.integers(0, 8), hexes)
def test_rings_and_hexagons_by_brute_force(radius: int, center: Hex) -> None:
    box = [
        Hex(center.q + dq, center.r + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
    ]
    expected = {h for h in box if distance(h, center) <= radius}
    assert set(hexagon(radius, center)) == expected
    assert len(hexagon(radius, center)) == 3 * radius * (radius + 1) + 1
    r = ring(radius, center)
    assert len(r) == len(set(r)) == max(1, 6 * radius)
    assert all(distance(h, center) == radius for h in r)
    # The ring is walked in order: consecutive hexes are adjacent.
    if radius:
        assert all(distance(r[i], r[(i + 1) % len(r)]) == 1 for i in range(len(r)))


@pytest.mark.parametrize("radius", [1, 2, 3, 5])
def test_edge_and_vertex_counts_of_hexagons(radius: int) -> None:
    hs = hexagon(radius)
    # Each interior adjacency counted once: 3 per hex minus the rim's missing ones.
    brute_edges = {frozenset((a, b)) for a in hs for b in hs if distance(a, b) == 1}
    assert len(edges_between(hs)) == len(brute_edges)
    brute_vertices = {
        frozenset((a, b, c))
        for a in hs
        for b in neighbours(a)
        for c in neighbours(a)
        if b in hs and c in hs and distance(b, c) == 1
    }
    assert len(vertices_between(hs)) == len(brute_vertices)


def test_edges_and_vertices_are_canonical_and_checked() -> None:
    assert edge((1, 0), (0, 0)) == edge((0, 0), (1, 0))
    assert vertex((0, 0), (1, 0), (1, -1)) == vertex((1, -1), (0, 0), (1, 0))
    with pytest.raises(InvalidInput, match="adjacent"):
        edge((0, 0), (2, 0))
    with pytest.raises(InvalidInput, match="pairwise adjacent"):
        vertex((0, 0), (1, 0), (2, 0))


@pytest.mark.parametrize("text", ["1", "1,2,3", "a,b", "", "1;2"])
def test_parse_hex_rejects(text: str) -> None:
    with pytest.raises(InvalidInput, match="--start"):
        parse_hex(text, "--start")


def test_parse_edge() -> None:
    assert parse_edge("0,0:1,0") == edge((0, 0), (1, 0))
    for bad in ("0,0", "0,0:2,0", "0,0:1,x", "0,0:1,0:2,0"):
        with pytest.raises(InvalidInput):
            parse_edge(bad)


def test_dice() -> None:
    assert sum(roll_probability(n) for n in range(2, 13)) == 1
    # Against counting the 36 outcomes of two dice.
    for n in range(2, 13):
        ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == n)
        assert pips(n) == ways and roll_probability(n) == Fraction(ways, 36)
    with pytest.raises(InvalidInput):
        pips(13)


def test_beginner_board_matches_the_base_inventory() -> None:
    b = beginner_board()
    assert len(b) == 37 and len(b.land()) == 19 and len(b.sea()) == 18
    counts = {t: sum(1 for h in b.land() if b.terrain(h) is t) for t in BASE_LAND}
    assert counts == dict(BASE_LAND)
    assert sorted(b.number(h) or 0 for h in b.land() if b.number(h)) == list(BASE_NUMBER_TOKENS)
    assert b.terrain(Hex(0, 0)) is Terrain.DESERT
    assert set(b.sea()) == set(ring(3))


def test_board_json_round_trip(tmp_path: Path) -> None:
    b = beginner_board()
    assert Board.from_json(b.to_json()) == b
    path = tmp_path / "b.json"
    b.save(path)
    assert Board.load(path) == b
    assert hash(Board.load(path)) == hash(b)


@st.composite
def random_boards(draw: st.DrawFn) -> Board:
    radius = draw(st.integers(0, 3))
    tiles = {}
    for h in hexagon(radius):
        terrain = draw(st.sampled_from(list(Terrain)))
        number = None
        if terrain.produces or (terrain is Terrain.SEA and draw(st.booleans())):
            number = draw(st.sampled_from([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
        tiles[h] = Tile(terrain, number)
    return Board(tiles)


@given(random_boards())
def test_random_board_json_round_trip(board: Board) -> None:
    assert Board.from_json(board.to_json()) == board
    assert Board.from_dict(json.loads(board.to_json())).to_dict() == board.to_dict()


BAD_BOARDS = [
    ('{"hexes": [{"hex": [0, 0], "terrain": "lava", "number": 3}]}', "hexes[0].terrain"),
    ('{"hexes": [{"hex": [0, 0], "terrain": "forest", "number": 7}]}', "number: 7"),
    ('{"hexes": [{"hex": [0, 0], "terrain": "forest", "number": 13}]}', "number: 13"),
    ('{"hexes": [{"hex": [0, 0], "terrain": "forest", "number": 1}]}', "number: 1"),
    ('{"hexes": [{"hex": [0, 0], "terrain": "desert", "number": 6}]}', "no number on a desert"),
    ('{"hexes": [{"hex": [0, 0], "terrain": "hills"}]}', "producing hex"),
    ('{"hexes": [{"hex": [0, 0], "terrain": "gold", "number": null}]}', "producing hex"),
    (
        '{"hexes": [{"hex": [0, 0], "terrain": "sea"}, {"hex": [0, 0], "terrain": "sea"}]}',
        r"hexes\[1\].*already given at hexes\[0\]",
    ),
    ('{"hexes": [{"hex": ["0", 0], "terrain": "sea"}]}', "hexes[0].hex"),
    ('{"hexes": [{"hex": [0, 0, 0], "terrain": "sea"}]}', "hexes[0].hex"),
    ('{"hexes": [{"q": 0, "r": 0, "terrain": "sea"}]}', "unknown key 'q'"),
    ('{"hexes": [{"hex": [0, 0]}]}', "key 'terrain' missing"),
    ('{"hexes": [{"hex": [0, 0], "terrain": "sea", "colour": 1}]}', "colour"),
    ('{"tiles": []}', "hexes"),
    ("[1, 2]", "hexes"),
    ('{"hexes": [', "valid JSON"),
]


@pytest.mark.parametrize(("text", "needle"), BAD_BOARDS)
def test_board_validation_names_the_entry(text: str, needle: str) -> None:
    with pytest.raises(IslesError) as info:
        Board.from_json(text, source="b.json")
    message = str(info.value)
    assert "b.json" in message
    assert needle in message or __import__("re").search(needle, message)


def test_unreadable_board_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="readable"):
        Board.load(tmp_path / "missing.json")


# -- fuzz: any JSON gives a board or an IslesError, never another exception -------------------

KEYS = ["hexes", "hex", "terrain", "number", "q", "r"]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
json_values = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)
# Values that come close to valid ones: the edges of each field's range.
NEAR_MISSES: st.SearchStrategy[object] = st.sampled_from(
    [
        -1, 0, 1, 2, 7, 12, 13, 2.0, True, False, "6", None, 10**30, [], {},
        [0], [0, 0, 0], ["0", 0], [10**7, 0], [0.5, 0], [True, 0], [[0, 0]], [3, -3], [0, 4],
        "lava", "", "Forest", "sea", "desert", "gold", "forest", "hills",
    ]
)  # fmt: skip
SMALL_BOARDS = [
    beginner_board().to_dict(),
    {
        "hexes": [
            {"hex": [0, 0], "terrain": "desert"},
            {"hex": [1, 0], "terrain": "gold", "number": 5},
            {"hex": [0, 1], "terrain": "sea", "number": 6},
            {"hex": [1, -1], "terrain": "sea"},
        ]
    },
]


def _containers(doc: object, out: list[object]) -> list[object]:
    """Every list and object inside ``doc``, ``doc`` first."""
    if isinstance(doc, list | dict):
        out.append(doc)
        for child in doc if isinstance(doc, list) else doc.values():
            _containers(child, out)
    return out


@st.composite
def mutated_boards(draw: st.DrawFn) -> object:
    """A valid board file with one to three random edits: drop, add, change, nest."""
    doc: object = copy.deepcopy(draw(st.sampled_from(SMALL_BOARDS)))
    for _ in range(draw(st.integers(1, 3))):
        places = _containers(doc, [])
        if not places:
            break
        node = draw(st.sampled_from(places))
        value = copy.deepcopy(draw(NEAR_MISSES | json_values))  # never mutate the constants
        action = draw(st.sampled_from(["drop", "add", "change", "nest", "copy"]))
        if isinstance(node, dict):
            keys = sorted(node)
            if action == "add" or not keys:
                node[draw(st.sampled_from(KEYS) | st.text(max_size=4))] = value
                continue
            key = draw(st.sampled_from(keys))
            if action == "drop":
                del node[key]
            elif action == "nest":
                node[key] = draw(st.sampled_from([[node[key]], {"hex": node[key]}]))
            else:
                node[key] = value
        elif isinstance(node, list):
            if action == "add" or not node:
                node.insert(draw(st.integers(0, len(node))), value)
                continue
            i = draw(st.integers(0, len(node) - 1))
            if action == "drop":
                del node[i]
            elif action == "copy":
                node.append(copy.deepcopy(node[i]))
            elif action == "nest":
                node[i] = [node[i]]
            else:
                node[i] = value
    return doc


def _board_or_isles_error(doc: object) -> Board | None:
    try:
        board = Board.from_dict(doc, "fuzz.json")
    except IslesError:
        return None
    assert Board.from_dict(board.to_dict()) == board
    return board


@settings(max_examples=200)
@given(json_values)
def test_fuzz_random_json_is_a_board_or_an_isles_error(doc: object) -> None:
    _board_or_isles_error(doc)
    with contextlib.suppress(IslesError):
        Board.from_json(json.dumps(doc), "fuzz.json")


@settings(max_examples=300)
@given(mutated_boards(), st.data())
def test_fuzz_mutated_board_files_and_a_rally_on_them(doc: object, data: st.DataObject) -> None:
    board = _board_or_isles_error(doc)
    if board is not None:
        _rally_answers_or_refuses(board, data)


@settings(max_examples=100)
@given(random_boards(), st.data())
def test_fuzz_rally_on_random_valid_boards(board: Board, data: st.DataObject) -> None:
    _rally_answers_or_refuses(board, data)


def _rally_answers_or_refuses(board: Board, data: st.DataObject) -> None:
    """A board that reads is one the rally planner answers about, or refuses in its words."""
    if not board:
        return
    start = data.draw(st.sampled_from(list(board)))
    land = board.land()
    named = st.lists(st.sampled_from(land), min_size=1, max_size=2) if land else st.nothing()
    goals = data.draw(st.none() | named)
    objective = data.draw(st.sampled_from(OBJECTIVES))
    budget = data.draw(st.none() | st.just({"ore": 10, "wool": 4}))
    try:
        route = plan_route(board, start, goals, objective=objective, budget=budget)  # type: ignore[arg-type]
    except IslesError:
        return
    json.dumps(route.to_dict(), allow_nan=False)
    json.dumps(cost_field(board, start).to_dict(), allow_nan=False)


# -- harbours, buildings and roads in the board format (docs/boards.md) ----------------

FEATURES = {
    "harbours": [
        {"edge": [[0, -3], [0, -2]], "kind": "generic"},
        {"edge": [[2, -3], [2, -2]], "kind": "wool"},
    ],
    "buildings": [
        {"corner": [[0, -2], [0, -1], [1, -2]], "player": "red", "kind": "city"},
        {"corner": [[-2, 2], [-2, 3], [-1, 2]], "player": "blue"},
    ],
    "roads": [{"edge": [[0, -2], [0, -1]], "player": "red"}],
}


def test_harbours_buildings_and_roads_round_trip() -> None:
    doc = {**beginner_board().to_dict(), **FEATURES}
    board = Board.from_dict(doc)
    assert board.harbours[edge((0, -3), (0, -2))] is HarbourKind.GENERIC
    assert board.harbours[edge((2, -2), (2, -3))].ratio == 2
    assert board.buildings[vertex((1, -2), (0, -1), (0, -2))] == Building("red", BuildingKind.CITY)
    assert board.roads[edge((0, -1), (0, -2))] == "red"
    again = Board.from_dict(board.to_dict())
    assert again == board and again.to_dict() == board.to_dict()
    assert board != beginner_board()
    assert "harbours" not in beginner_board().to_dict()  # a plain board stays a plain file


BAD_FEATURES = [
    ({"harbours": [{"edge": [[0, -2], [0, -1]], "kind": "generic"}]}, "a sea hex and a land hex"),
    ({"harbours": [{"edge": [[0, -3], [1, -3]], "kind": "generic"}]}, "a sea hex and a land hex"),
    ({"harbours": [{"edge": [[0, -4], [0, -3]], "kind": "ore"}]}, "two hexes of the board"),
    ({"harbours": [{"edge": [[0, -3], [0, -2]], "kind": "gold"}]}, "harbours[0].kind"),
    ({"harbours": [{"edge": [[0, -3], [0, -2]]}]}, "key 'kind' missing"),
    (
        {"harbours": [{"edge": [[0, -3], [0, -2]], "kind": "ore"}] * 2},
        "one harbour per side",
    ),
    ({"harbours": [{"edge": [[0, -3], [0, -1]], "kind": "ore"}]}, "harbours[0].edge"),
    ({"buildings": [{"corner": [[0, -3], [1, -4], [0, -4]], "player": "red"}]}, "board"),
    (
        {
            "buildings": [
                {"corner": [[0, -2], [0, -1], [1, -2]], "player": "red"},
                {"corner": [[0, -1], [1, -2], [1, -1]], "player": "blue"},
            ]
        },
        "distance rule",
    ),
    ({"buildings": [{"corner": [[0, -2], [0, -1], [1, -2]], "player": ""}]}, "player"),
    ({"buildings": [{"corner": [[0, -2], [0, -1], [1, -2]], "player": 3}]}, "player"),
    ({"buildings": [{"corner": [[0, -2], [0, -1], [2, -2]], "player": "red"}]}, "corner"),
    ({"roads": [{"edge": [[0, -3], [1, -3]], "player": "red"}]}, "touching land"),
    ({"roads": [{"edge": [[0, -2], [0, -1]], "player": "red", "kind": "x"}]}, "unknown key"),
    ({"bridges": []}, "unknown key 'bridges'"),
]


@pytest.mark.parametrize(("extra", "needle"), BAD_FEATURES)
def test_board_features_are_checked(extra: dict[str, object], needle: str) -> None:
    doc = {**beginner_board().to_dict(), **extra}
    with pytest.raises(InvalidInput) as info:
        Board.from_dict(doc, "b.json")
    assert needle in str(info.value) and "b.json" in str(info.value), str(info.value)
