"""The rally on the boards tables lay: base and 5-6 player boards, any shape, the best start.

Base boards (19 land hexes of radius 2 in the sea ring 3) and 5-6 player boards
(30 land hexes in rows of 3, 4, 5, 6, 5, 4, 3 in their sea frame) are laid here
from the boxes' inventories at random, placed anywhere on the grid and turned
by any multiple of 60 degrees. The best start is checked against the brute
force of tests/rally/test_rally.py, car by car and group by group.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.cli import main
from isles.models.board import Board
from isles.models.catan import BASE_LAND, BASE_NUMBER_TOKENS, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex, distance, edge, hexagon, ring
from isles.models.rally.rim import (
    board_centre_doubled,
    default_goals,
    is_rim_start,
    opposite_starts,
    rim_sea,
    rim_starts,
    start_group,
    start_groups,
)
from isles.models.rally.rules import player_roads
from isles.models.status import Status
from isles.solvers.rally.graph import build_graph
from isles.solvers.rally.trip import choose_start, plan_route
from tests.rally.test_rally import brute_force, route_key

#: The 5-6 player extension's land (30) and tokens (28), as the issue lists them.
EXTENSION_LAND = {
    Terrain.FOREST: 6,
    Terrain.PASTURE: 6,
    Terrain.FIELDS: 6,
    Terrain.HILLS: 5,
    Terrain.MOUNTAINS: 5,
    Terrain.DESERT: 2,
}
EXTENSION_TOKENS = (2, 2, 12, 12, *(n for n in (3, 4, 5, 6, 8, 9, 10, 11) for _ in range(3)))


def _lay(
    land: list[Hex],
    sea: list[Hex],
    terrains: dict[Terrain, int],
    tokens: tuple[int, ...],
    seed: int,
) -> Board:
    rng = random.Random(seed)
    tiles = [t for t, k in terrains.items() for _ in range(k)]
    numbers = list(tokens)
    rng.shuffle(tiles)
    rng.shuffle(numbers)
    out: dict[Hex, Tile] = {}
    for h, t in zip(land, tiles, strict=True):
        out[h] = Tile(t, None if t is Terrain.DESERT else numbers.pop())
    out.update({h: Tile(Terrain.SEA) for h in sea})
    return Board(out)


def base_board(seed: int = 0) -> Board:
    """A random base board: the base inventory on the hexagon of radius 2, sea ring 3."""
    return _lay(hexagon(2), ring(3), dict(BASE_LAND), BASE_NUMBER_TOKENS, seed)


def _extension_shape(margin: int) -> list[Hex]:
    """Rows of 3, 4, 5, 6, 5, 4, 3 hexes (margin 0), or with a frame of ``margin`` around."""
    m = margin
    return [
        Hex(q, r)
        for r in range(-3 - m, 4 + m)
        for q in range(-3 - m, 3 + m)
        if -3 - m <= q + r <= 2 + m
    ]


def extension_board(seed: int = 0) -> Board:
    """A random 5-6 player board: 30 land hexes in their frame of 22 sea hexes."""
    land = _extension_shape(0)
    sea = [h for h in _extension_shape(1) if h not in set(land)]
    return _lay(land, sea, EXTENSION_LAND, EXTENSION_TOKENS, seed)


def moved(board: Board, turns: int, dq: int, dr: int) -> tuple[Board, Any]:
    """``board`` turned by ``turns`` sixths of a circle and shifted; and the map of hexes."""

    def place(h: tuple[int, int]) -> Hex:
        q, r = h
        for _ in range(turns):
            q, r = -r, q + r
        return Hex(q + dq, r + dr)

    return Board({place(h): t for h, t in board.tiles.items()}), place


# -- the shapes ---------------------------------------------------------------------------


def test_the_shapes_and_inventories() -> None:
    base, extension = base_board(), extension_board()
    assert (len(base.land()), len(base.sea())) == (19, 18)
    assert (len(extension.land()), len(extension.sea())) == (30, 22)
    rows = Counter(h.r for h in extension.land())
    assert [rows[r] for r in sorted(rows)] == [3, 4, 5, 6, 5, 4, 3]
    assert Counter(t.terrain for t in extension.tiles.values() if t.terrain.is_land) == Counter(
        EXTENSION_LAND
    )
    assert len(EXTENSION_TOKENS) == 28
    # The 5-6 player board's centre lies between two hexes: its double is still a hex.
    assert board_centre_doubled(extension) == (-1, 0)


@pytest.mark.parametrize(
    ("board", "groups", "goal_counts"),
    [
        (base_board(3), 18, {3: 6, 4: 12}),
        (extension_board(3), 22, {3: 2, 4: 20}),
    ],
)
def test_start_groups_and_goals_of_the_table_boards(
    board: Board, groups: int, goal_counts: dict[int, int]
) -> None:
    """Four adjacent rim sea hexes per group; the goals next to its exact reflection."""
    rim = rim_sea(board)
    assert set(rim) == set(board.sea()) == set(rim_starts(board))
    assert all(distance(a, b) == 1 for a, b in zip(rim, rim[1:] + rim[:1], strict=True))
    twice_q, twice_r = board_centre_doubled(board)
    counts: Counter[int] = Counter()
    all_groups = start_groups(board)
    assert len(all_groups) == groups
    for group in all_groups:
        assert len(set(group)) == 4 and all(is_rim_start(board, h) for h in group)
        assert all(distance(a, b) == 1 for a, b in itertools.pairwise(group))
        reflected = [Hex(twice_q - h.q, twice_r - h.r) for h in group]
        assert opposite_starts(board, group) == reflected  # symmetric: nothing moved
        goals = default_goals(board, group)
        assert set(goals) == {
            n for h in reflected for n in board.neighbours(h) if board.terrain(n).is_land
        }
        counts[len(goals)] += 1
    assert dict(counts) == goal_counts


@pytest.mark.parametrize("make", [base_board, extension_board])
@pytest.mark.parametrize(("turns", "dq", "dr"), [(1, 0, 0), (2, 7, -3), (3, -40, 11), (5, 1, 1)])
def test_the_rules_do_not_depend_on_where_the_board_lies(
    make: Any, turns: int, dq: int, dr: int
) -> None:
    board = make(5)
    other, place = moved(board, turns, dq, dr)
    for group in start_groups(board):
        # The same groups, hex for hex (a turned board's walk starts elsewhere on the rim).
        assert start_group(other, place(group[0])) == [place(h) for h in group]
        assert sorted(default_goals(other, [place(h) for h in group])) == sorted(
            place(g) for g in default_goals(board, group)
        )
    mine, theirs = choose_start(board), choose_start(other)
    assert mine.route is not None and theirs.route is not None
    assert route_key(mine.route) == route_key(theirs.route)


def test_the_rim_walk_on_the_beginner_board_is_the_ring() -> None:
    rim = rim_sea(base_board())
    assert rim[0] == Hex(3, 0) and set(rim) == set(ring(3))


@st.composite
def shapes(draw: st.DrawFn) -> Board:
    """Any shape: islands, holes, bays; land and sea anywhere."""
    cells = draw(st.lists(st.sampled_from(hexagon(3)), min_size=1, unique=True))
    return Board(
        {h: Tile(Terrain.SEA) if draw(st.booleans()) else Tile(Terrain.DESERT) for h in cells}
    )


@settings(max_examples=300)
@given(shapes())
def test_the_rim_rules_on_any_shape(board: Board) -> None:
    rim = rim_sea(board)
    assert sorted(rim) == sorted(h for h in board.rim() if board.terrain(h) is Terrain.SEA)
    starts = rim_starts(board)
    assert starts == [h for h in rim if is_rim_start(board, h)]
    for s in starts:
        group = start_group(board, s)
        assert group[0] == s and len(set(group)) == len(group) <= 4
        assert all(is_rim_start(board, h) for h in group)
        opposite = opposite_starts(board, group)
        assert len(opposite) == len(group) and all(is_rim_start(board, h) for h in opposite)
        goals = default_goals(board, group)
        assert goals and all(board.terrain(g).is_land for g in goals)
    if not starts:
        with pytest.raises(InvalidInput, match=r"^board: "):
            choose_start(board)


def test_a_group_walks_along_a_bay() -> None:
    """On a board that is not convex, the rim follows the coast, not the angle.

    A U-shaped island in its sea frame: sorted by direction from the centre,
    the frame's rim would jump across the bay; walked along the edge it does not.
    """
    land = [
        *(Hex(q, 0) for q in range(-2, 3)),
        *(Hex(2, r) for r in range(-3, 0)),
        *(Hex(-2, r) for r in range(-3, 0)),
    ]
    frame = {n for h in land for n in ring(1, h) if n not in set(land)}
    board = Board(
        {**{h: Tile(Terrain.FOREST, 3) for h in land}, **dict.fromkeys(frame, Tile(Terrain.SEA))}
    )
    rim = rim_sea(board)
    assert len(rim) == 24 and set(rim) == set(rim_starts(board))
    assert all(distance(a, b) == 1 for a, b in zip(rim, rim[1:] + rim[:1], strict=True))
    for group in start_groups(board):
        assert all(distance(a, b) == 1 for a, b in itertools.pairwise(group))


def test_off_symmetric_boards_the_goals_move_to_the_nearest_rim_start() -> None:
    board = base_board(1)
    tiles = dict(board.tiles)
    tiles.update({h: Tile(Terrain.SEA) for h in ring(4) if h.q >= 0})  # a wider sea on one side
    lopsided = Board(tiles)
    for group in start_groups(lopsided):
        for h, m in zip(group, opposite_starts(lopsided, group), strict=True):
            twice_q, twice_r = board_centre_doubled(lopsided)
            mirror = Hex(twice_q - h.q, twice_r - h.r)
            nearest = min(distance(s, mirror) for s in rim_starts(lopsided))
            assert is_rim_start(lopsided, m) and distance(m, mirror) == nearest


# -- the best start against the brute force ------------------------------------------------


def _best_by_brute_force(board: Board, objective: str, roads: set[Any]) -> Any:
    best = None
    for group in start_groups(board):
        goals = default_goals(board, group)
        for car in group:
            status, key = brute_force(board, car, goals, roads, objective)
            if status == "optimal" and (best is None or key < best):
                best = key
    return best


@pytest.mark.parametrize("objective", ["cards", "expected_turns"])
def test_the_best_start_of_a_base_board_against_brute_force(objective: Any) -> None:
    board = base_board(7)
    roads = {edge((0, -2), (0, -1)), edge((0, 0), (1, 0))}
    choice = choose_start(board, roads=roads, objective=objective)
    assert choice.status is Status.OPTIMAL and choice.route is not None
    assert route_key(choice.route) == _best_by_brute_force(board, objective, roads)
    # Each group's car is the best of its four, as plan_route plans each.
    rg = build_graph(board, roads)
    for plan in choice.groups:
        goals = default_goals(board, plan.group)
        cars = [plan_route(rg, car, goals=goals, objective=objective) for car in plan.group]
        assert route_key(plan.route) == min(route_key(r) for r in cars)
        assert plan.route.goals == tuple(goals)


@settings(max_examples=12)
@given(st.integers(0, 10**6), st.sampled_from(["cards", "turns", "expected_turns", "weighted"]))
def test_the_best_start_of_small_boards_against_brute_force(seed: int, objective: str) -> None:
    rng = random.Random(seed)
    tiles: dict[Hex, Tile] = {}
    for h in hexagon(1):
        t = rng.choice([Terrain.FOREST, Terrain.HILLS, Terrain.DESERT, Terrain.GOLD, Terrain.SEA])
        tiles[h] = Tile(t, None if t in (Terrain.DESERT, Terrain.SEA) else rng.choice([2, 5, 9]))
    tiles.update({h: Tile(Terrain.SEA) for h in ring(2)})
    board = Board(tiles)
    if not board.land():
        return
    choice = choose_start(board, objective=objective)  # type: ignore[arg-type]
    best = _best_by_brute_force(board, objective, set())
    if best is None:
        assert choice.status is Status.UNREACHABLE and choice.route is None
    else:
        assert choice.route is not None and route_key(choice.route) == best


def test_a_budget_and_a_time_limit_for_the_best_start() -> None:
    board = base_board(2)
    poor = choose_start(board, budget={"ore": 1})
    assert poor.status is Status.UNAFFORDABLE and poor.route is not None
    assert poor.route.distance_to_goal == min(
        p.route.distance_to_goal for p in poor.groups if p.route.distance_to_goal is not None
    )
    late = choose_start(board, objective="expected_turns", time_limit=1e-9)
    assert late.status is Status.TIMED_OUT and late.best is None and late.route is None
    one = choose_start(board, group=[(0, -3), (1, -3)])
    assert len(one.groups) == 1 and one.route is not None and one.route.start in {(0, -3), (1, -3)}


# -- the player's roads from the board file ---------------------------------------------------


def test_a_player_plans_with_their_own_roads_from_the_board() -> None:
    board = base_board(4)
    red = [edge((0, -3), (0, -2)), edge((0, -2), (0, -1))]
    board = board.replace(roads={**dict.fromkeys(red, "red"), edge((1, -3), (1, -2)): "blue"})
    assert player_roads(board, "red") == sorted(red)
    with_red = plan_route(board, (0, -3), goals=[(0, -1)], roads=player_roads(board, "red"))
    assert with_red.steps is not None and all(s.halved for s in with_red.steps)
    with pytest.raises(InvalidInput, match=r"^player: 'green' .* blue, red$"):
        player_roads(board, "green")


def _write(board: Board, path: Path) -> str:
    board.save(path)
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_on_table_boards(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for make, groups in [(base_board, 18), (extension_board, 22)]:
        board = make(9)
        name = _write(board, tmp_path / f"{make.__name__}.json")
        code, out, _ = _run(capsys, "rally", "--board", name, "--json")
        answer = json.loads(out)
        assert code == 0 and answer["status"] == "optimal" and len(answer["groups"]) == groups
        best = answer["groups"][answer["best"]]["route"]
        assert best["status"] == "optimal" and best["end"] in best["goals"]
        # --start alone on a rim start: the default goals of the group it starts.
        for start in rim_starts(board):
            code, out, _ = _run(capsys, "rally", "--board", name, f"--start={start}", "--json")
            goals = default_goals(board, start_group(board, start))
            assert code == 0 and json.loads(out)["goals"] == [list(g) for g in goals]
    code, out, _ = _run(capsys, "rally", "--board", name)
    assert code == 0 and "Best start:" in out and "Total:" in out


def test_the_command_with_a_player(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = base_board(4).replace(
        roads={edge((0, -3), (0, -2)): "red", edge((0, -2), (0, -1)): "red"}
    )
    name = _write(board, tmp_path / "roads.json")
    argv = ["rally", "--board", name, "--start", "0,-3", "--goal", "0,-1", "--json"]
    _, by_player, _ = _run(capsys, *argv, "--player", "red")
    _, by_road, _ = _run(capsys, *argv, "--road", "0,-3:0,-2", "--road", "0,-2:0,-1")
    _, alone, _ = _run(capsys, *argv)
    assert json.loads(by_player) == json.loads(by_road)
    assert json.loads(by_player)["total_cards"] < json.loads(alone)["total_cards"]
    code, _, err = _run(capsys, *argv, "--player", "green")
    assert code == 2 and err.startswith("isles rally: error: --player: 'green'") and "red" in err


def test_the_command_refuses_a_board_without_rim_starts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    land = Board({h: Tile(Terrain.FOREST, 3) for h in hexagon(1)})
    code, _, err = _run(capsys, "rally", "--board", _write(land, tmp_path / "land.json"))
    assert code == 2 and err.startswith("isles rally: error: --board: ") and "rim" in err
    code, _, err = _run(capsys, "rally", "--start", "0,-3", "--time-limit", "5")
    assert code == 2 and "--time-limit only with --budget or without --start" in err


def test_the_demo_runs_on_any_board(tmp_path: Path) -> None:
    from isles.commands.rally import rally_on_board

    lines: list[str] = []
    picture = rally_on_board(
        extension_board(1), "5-6 player board", tmp_path / "rally.png", lines.append
    )
    assert picture.exists() and "5-6 player board" in lines[0] and len(lines) == 2 + 22 + 1


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--road", "0,-3:1,-3"], "--road: '0,-3:1,-3' is invalid; expected a side touching land"),
        (["--road", "0,-2:0,-1", "--road", "0,-2:0,-1"], "expected each road once"),
        (["--objective", "weighted", "--value", "ore=1e-400"], "not so small that it reads as 0"),
        (["--value", "ore=1"], "--value: 'ore=1' is invalid; expected --value only with"),
    ],
)
def test_newcomer_rally_inputs_are_refused(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "rally", "--start", "0,-3", *argv)
    assert code == 2 and needle in err, err


#: Boards with no rim start: nothing to start from, nothing to take default goals from.
DEGENERATE_BOARDS = {
    "empty": Board({}),
    "one forest": Board({Hex(0, 0): Tile(Terrain.FOREST, 5)}),
    "one sea": Board({Hex(0, 0): Tile(Terrain.SEA)}),
    "one desert": Board({Hex(0, 0): Tile(Terrain.DESERT)}),
    "only sea": Board({h: Tile(Terrain.SEA) for h in hexagon(2)}),
    "only desert": Board({h: Tile(Terrain.DESERT) for h in hexagon(2)}),
}


@pytest.mark.parametrize("name", list(DEGENERATE_BOARDS))
def test_a_board_without_rim_starts_is_refused_naming_it(name: str) -> None:
    board = DEGENERATE_BOARDS[name]
    assert rim_sea(board) == [] or all(not board.terrain(n).is_land for n in board)
    assert rim_starts(board) == [] and start_groups(board) == []
    assert opposite_starts(board, [(0, 0)]) == []
    with pytest.raises(InvalidInput, match=r"^board: 'no rim start'"):
        choose_start(board)
    with pytest.raises(InvalidInput):  # the car's hex is no start / no goal to go to
        plan_route(board, (9, 9))


def test_the_empty_board_has_no_centre() -> None:
    with pytest.raises(InvalidInput, match=r"^board: 'no hex' is invalid"):
        board_centre_doubled(Board({}))
    with pytest.raises(InvalidInput, match=r"^start: '0,0' is invalid; expected a hex on"):
        plan_route(Board({}), (0, 0), goals=[(0, 0)])


def test_a_lone_land_hex_is_its_own_goal() -> None:
    for tile in (Tile(Terrain.FOREST, 5), Tile(Terrain.DESERT)):
        route = plan_route(Board({Hex(0, 0): tile}), (0, 0), goals=[(0, 0)])
        assert route.reached and route.total_cards == 0


@pytest.mark.parametrize("name", list(DEGENERATE_BOARDS))
@pytest.mark.parametrize("extra", [(), ("--start", "0,0"), ("--group", "0,0")])
def test_the_command_on_a_board_without_rim_starts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, extra: tuple[str, ...]
) -> None:
    path = tmp_path / "board.json"
    DEGENERATE_BOARDS[name].save(path)
    code, out, err = _run(capsys, "rally", "--board", str(path), *extra)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("isles rally: error: --")


def test_the_route_table_keeps_far_hexes_apart_from_their_terrain() -> None:
    """A hex far out (1000,-10) is wider than the table's first guess: its column grows."""
    from isles.commands.rally import format_route

    line = {Hex(q, -10): Tile(Terrain.DESERT) for q in range(995, 1001)}
    route = plan_route(Board(line), (995, -10), goals=[(1000, -10)])
    rows = format_route(route).splitlines()
    assert any("1000,-10 desert" in row for row in rows), rows
