"""Car rally rules and route planner against an independent brute force.

The oracle walks every simple path (depth-first, pruned only where the keys so
far plus a lower bound on the rest already exceed the best goal found; the
bound is a Bellman-Ford over the whole board, ignoring budgets) and prices each
move straight from the tiles, without the library's rules module: ``n`` cards,
``(n + 1) // 2`` across an own road, deserts free, and a desert exit succeeding
with the counted 2d6 outcomes.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board, beginner_board
from isles.models.catan import NUMBER_TOKENS, Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, distance, edge, edges_between, hexagon, ring
from isles.models.rally.questions import Trip
from isles.models.rally.rim import default_goals, is_rim_start, rim_sea, start_group
from isles.models.rally.rules import MAX_CARD_VALUE, desert_exit_probability, entry_cost
from isles.models.status import Status
from isles.solvers.rally.field import cost_field
from isles.solvers.rally.graph import build_graph
from isles.solvers.rally.route import Route
from isles.solvers.rally.trip import plan_route

PRODUCE = {
    Terrain.FOREST: "lumber",
    Terrain.PASTURE: "wool",
    Terrain.FIELDS: "grain",
    Terrain.HILLS: "brick",
    Terrain.MOUNTAINS: "ore",
}
RESOURCES = ["lumber", "wool", "grain", "brick", "ore"]


# -- the rules' own examples ------------------------------------------------------------


def test_seed_examples() -> None:
    # "une voiture qui veut se déplacer dans un hexagone de forêt numéroté 3 doit payer 3 bois"
    cost = entry_cost(Tile(Terrain.FOREST, 3))
    assert (cost.resource, cost.cards, cost.halved) == (Resource.LUMBER, 3, False)
    # "un champ de blé numéroté 5 et traverse une route du propriétaire: 3 blés"
    cost = entry_cost(Tile(Terrain.FIELDS, 5), own_road=True)
    assert (cost.resource, cost.cards, cost.halved) == (Resource.GRAIN, 3, True)
    assert entry_cost(Tile(Terrain.DESERT)).cards == 0
    gold = entry_cost(Tile(Terrain.GOLD, 9), own_road=True)
    assert (gold.resource, gold.cards) == (None, 5)
    with pytest.raises(InvalidInput, match="sea"):
        entry_cost(Tile(Terrain.SEA))


@pytest.mark.parametrize("n", NUMBER_TOKENS)
def test_desert_exit_odds_for_every_number(n: int) -> None:
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= n)
    assert desert_exit_probability(Tile(Terrain.FOREST, n)) == Fraction(ways, 36)
    assert desert_exit_probability(Tile(Terrain.DESERT)) == 1


def test_default_goals_on_the_beginner_board() -> None:
    board = beginner_board()
    rim = rim_sea(board)
    assert set(rim) == set(ring(3))
    # Consecutive rim hexes are neighbours: groups are four adjacent sea hexes.
    assert all(distance(rim[i], rim[(i + 1) % 18]) == 1 for i in range(18))
    sizes = []
    for i in range(18):
        group = start_group(board, rim[i])
        assert group[0] == rim[i] and len(set(group)) == 4
        goals = default_goals(board, group)
        reflected = {Hex(-h.q, -h.r) for h in group}
        assert all(any(distance(g, r) == 1 for r in reflected) for g in goals)
        assert all(board.terrain(g).is_land for g in goals)
        sizes.append(len(goals))
    assert set(sizes) == {3, 4}  # docs/rally.md: 3 or 4 goals, by where the group lies


# -- the brute force --------------------------------------------------------------------


def _move(board: Board, roads: set[Edge], u: Hex, v: Hex) -> tuple[int, str | None, Fraction]:
    """(cards, resource or 'any' or None, success chance of one try), from the tiles."""
    tile = board[v]
    n = tile.number if tile.terrain is not Terrain.DESERT else None
    cards = 0 if n is None else ((n + 1) // 2 if edge(u, v) in roads else n)
    resource = None if n is None else PRODUCE.get(tile.terrain, "any")
    p = Fraction(1)
    if board.terrain(u) is Terrain.DESERT and n is not None:
        p = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= n), 36)
    return cards, resource, p


def _gold_cost(
    spent: dict[str, int], anys: list[int], budget: dict[str, int] | None, val: dict[str, Fraction]
) -> Fraction | None:
    """Least value of paying the gold steps ``anys`` (each from one resource) within the
    budget beside ``spent``; None when no way to pay fits."""
    best: Fraction | None = None
    for choice in itertools.product(RESOURCES, repeat=len(anys)):
        total = dict(spent)
        for r, c in zip(choice, anys, strict=True):
            total[r] = total.get(r, 0) + c
        if budget is None or all(total.get(r, 0) <= budget.get(r, 0) for r in RESOURCES):
            cost = sum((val[r] * c for r, c in zip(choice, anys, strict=True)), Fraction(0))
            if best is None or cost < best:
                best = cost
    return best


Totals = tuple[int, int, Fraction, Fraction]  # cards, moves, expected turns, weighted


def _rest_bounds(
    board: Board, goals: Sequence[Hex], roads: set[Edge], val: dict[str, Fraction], key: Any
) -> dict[Hex, Totals]:
    """Bellman-Ford: per hex, the totals of the least-key walk to a goal (any budget, gold
    at its cheapest value). Keys are sums of the totals, compared lexicographically,
    so the least key of a walk from ``u`` is a lower bound on any route's rest."""
    cheapest = min(val.values())
    rest: dict[Hex, Totals] = {g: (0, 0, Fraction(0), Fraction(0)) for g in goals}
    for _ in range(len(board)):
        changed = False
        for u in board:
            for v in board.neighbours(u):
                if v not in rest or board.terrain(v) is Terrain.SEA:
                    continue
                c, res, p = _move(board, roads, u, v)
                w = cheapest * c if res == "any" else val[res] * c if res in val else Fraction(0)
                a, b, e, x = rest[v]
                totals = (a + c, b + 1, e + 1 / p, x + w)
                if u not in rest or key(*totals) < key(*rest[u]):
                    rest[u] = totals
                    changed = True
        if not changed:
            break
    return rest


def brute_force(
    board: Board,
    start: Hex,
    goals: Sequence[Hex],
    roads: set[Edge],
    objective: str,
    values: dict[str, Fraction] | None = None,
    budget: dict[str, int] | None = None,
) -> tuple[str, Any]:
    """('optimal', best key) or ('unreachable', None) or ('unaffordable', (dist, key))."""
    values = values or {}
    val = {r: values.get(r, Fraction(1)) for r in RESOURCES}
    goal_set = set(goals)
    best: list[Any] = [None]
    closest: list[Any] = [None]

    def key(cards: int, moves: int, expected: Fraction, weighted: Fraction) -> tuple[Any, ...]:
        return {
            "cards": (cards, moves, expected),
            "turns": (moves, cards, expected),
            "expected_turns": (expected, cards, moves),
            "weighted": (weighted, moves, expected),
        }[objective]

    rest = _rest_bounds(board, goals, roads, val, key)
    zero: Totals = (0, 0, Fraction(0), Fraction(0))

    def walk(
        path: list[Hex],
        cards: int,
        expected: Fraction,
        weighted: Fraction,
        spent: dict[str, int],
        anys: list[int],
    ) -> None:
        u = path[-1]
        gold = _gold_cost(spent, anys, budget, val)
        if gold is None:  # cannot pay for this path within the budget
            return
        k = key(cards, len(path) - 1, expected, weighted + gold)
        if best[0] is not None:
            if u not in rest:
                return
            a, b, e, x = rest[u]
            if key(cards + a, len(path) - 1 + b, expected + e, weighted + gold + x) > best[0]:
                return
        if budget is not None:
            d = min(distance(u, g) for g in goals)
            if closest[0] is None or (d, k) < closest[0]:
                closest[0] = (d, k)
        if u in goal_set:
            if best[0] is None or k < best[0]:
                best[0] = k
            return
        # Most promising first (by the bound), so that pruning starts early.
        for v in sorted(
            board.neighbours(u), key=lambda v: (v not in rest, key(*rest.get(v, zero)))
        ):
            if v in path or board.terrain(v) is Terrain.SEA:
                continue
            c, res, p = _move(board, roads, u, v)
            s2, a2 = dict(spent), list(anys)
            if res == "any":
                a2.append(c)
            elif res is not None:
                s2[res] = s2.get(res, 0) + c
            w = val[res] * c if res in val else Fraction(0)
            walk([*path, v], cards + c, expected + 1 / p, weighted + w, s2, a2)

    walk([start], 0, Fraction(0), Fraction(0), {}, [])
    if best[0] is not None:
        return "optimal", best[0]
    if budget is not None and brute_force(board, start, goals, roads, objective)[0] == "optimal":
        return "unaffordable", closest[0]
    return "unreachable", None


def route_key(route: Route) -> tuple[Any, ...]:
    return {
        "cards": (route.total_cards, route.turns, route.expected_turns),
        "turns": (route.turns, route.total_cards, route.expected_turns),
        "expected_turns": (route.expected_turns, route.total_cards, route.turns),
        "weighted": (route.value, route.turns, route.expected_turns),
    }[route.objective]


def check_route(board: Board, roads: set[Edge], route: Route) -> None:
    """The route is a legal walk whose reported totals are its real costs."""
    path = route.path
    assert path is not None and route.steps is not None and route.cards is not None
    assert path[0] == route.start
    assert all(distance(a, b) == 1 for a, b in itertools.pairwise(path))
    assert all(board.terrain(h) is not Terrain.SEA for h in path[1:])
    cards = 0
    expected = Fraction(0)
    for (u, v), step in zip(itertools.pairwise(path), route.steps, strict=True):
        c, res, p = _move(board, roads, u, v)
        assert step.hex == v and step.cards == c
        if res not in (None, "any"):
            assert step.resource is not None and step.resource.value == res
        cards += c
        expected += 1 / p
    assert cards == route.total_cards == sum(route.cards.values())
    assert expected == route.expected_turns
    assert route.turns == len(path) - 1
    if route.budget is not None:
        assert all(route.cards.get(r, 0) <= route.budget.get(r, 0) for r in RESOURCES)
    answer = json.loads(json.dumps(route.to_dict(), allow_nan=False))
    assert answer["total_cards"] == route.total_cards and answer["end"] == list(path[-1])


OBJECTIVES = ["cards", "turns", "expected_turns", "weighted"]
VALUES = {"ore": Fraction(2), "wool": Fraction(1, 2), "grain": Fraction(3, 2)}


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_beginner_board_every_rim_start_against_brute_force(objective: str) -> None:
    board = beginner_board()
    rg = build_graph(board)
    for start in rim_sea(board):
        goals = default_goals(board, start_group(board, start))
        values = VALUES if objective == "weighted" else None
        route = plan_route(rg, start, objective=objective, values=values)  # type: ignore[arg-type]
        status, best = brute_force(
            board,
            start,
            goals,
            set(),
            objective,
            {k: Fraction(v) for k, v in (values or {}).items()},
        )
        assert route.status == status == "optimal"
        assert route_key(route) == best
        assert route.end in goals
        check_route(board, set(), route)


def test_beginner_board_with_roads_and_budgets_against_brute_force() -> None:
    board = beginner_board()
    roads = {edge((0, -2), (0, -1)), edge((0, -1), (0, 0)), edge((1, 0), (1, 1))}
    budgets = [
        {"ore": 10, "brick": 3, "lumber": 3, "wool": 5},
        {"ore": 10, "brick": 3, "lumber": 2, "wool": 5},
        {"ore": 8, "wool": 19, "grain": 19},
        {"lumber": 4},
    ]
    for budget in budgets:
        for objective in OBJECTIVES:
            route = plan_route(
                board,
                (0, -3),
                roads=roads,
                objective=objective,  # type: ignore[arg-type]
                budget=budget,
            )
            goals = list(route.goals)
            status, best = brute_force(board, Hex(0, -3), goals, roads, objective, budget=budget)
            assert route.status == status, (budget, objective)
            check_route(board, roads, route)
            if status == "optimal":
                assert route_key(route) == best
            else:
                d = route.distance_to_goal
                assert (d, route_key(route)) == best


# -- random small boards ----------------------------------------------------------------

LAND = [
    Terrain.FOREST,
    Terrain.PASTURE,
    Terrain.FIELDS,
    Terrain.HILLS,
    Terrain.MOUNTAINS,
    Terrain.DESERT,
    Terrain.DESERT,
    Terrain.GOLD,
    Terrain.SEA,
]


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    radius = draw(st.integers(1, 2))
    tiles: dict[Hex, Tile] = {}
    for h in hexagon(radius):
        t = draw(st.sampled_from(LAND))
        n = draw(st.sampled_from(NUMBER_TOKENS)) if t.produces else None
        tiles[h] = Tile(t, n)
    for h in ring(radius + 1):
        tiles[h] = Tile(Terrain.SEA)
    board = Board(tiles)
    hexes = list(board)
    land = board.land()
    if not land:
        land = [hexes[0]]
        tiles[hexes[0]] = Tile(Terrain.DESERT)
        board = Board(tiles)
    start = draw(st.sampled_from(hexes))
    goals = draw(st.lists(st.sampled_from(land), min_size=1, max_size=3, unique=True))
    sides = [e for e in edges_between(hexes) if any(board.tiles[h].terrain.is_land for h in e)]
    roads = set(draw(st.lists(st.sampled_from(sides), max_size=8))) if sides else set()
    budget = draw(st.none() | st.fixed_dictionaries({r: st.integers(0, 14) for r in RESOURCES}))
    values = draw(
        st.fixed_dictionaries(
            {
                r: st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3)])
                for r in RESOURCES
            }
        )
    )
    objective = draw(st.sampled_from(OBJECTIVES))
    return {
        "board": board,
        "start": start,
        "goals": goals,
        "roads": roads,
        "budget": budget,
        "values": values,
        "objective": objective,
    }


@settings(max_examples=150)
@given(scenarios())
def test_random_boards_against_brute_force(s: dict[str, Any]) -> None:
    board, roads, objective = s["board"], s["roads"], s["objective"]
    values = s["values"] if objective == "weighted" else None
    route = plan_route(
        board,
        s["start"],
        goals=s["goals"],
        roads=roads,
        objective=objective,
        values=values,
        budget=s["budget"],
    )
    status, best = brute_force(board, s["start"], s["goals"], roads, objective, values, s["budget"])
    assert route.status == status
    if status == "unreachable":
        return
    check_route(board, roads, route)
    if status == "optimal":
        assert route.end in s["goals"]
        assert route_key(route) == best
    else:
        d = route.distance_to_goal
        assert (d, route_key(route)) == best


@settings(max_examples=60)
@given(scenarios())
def test_cost_field_agrees_with_the_exact_dijkstra(s: dict[str, Any]) -> None:
    """The CSR fast path and the Fraction heap agree on the (cards, moves) optimum."""
    rg = build_graph(s["board"], s["roads"])
    f = cost_field(rg, s["start"], "cards")
    for g in s["goals"]:
        exact = plan_route(rg, s["start"], goals=[g], objective="weighted")  # all values 1
        i = rg.index[g]
        if exact.status == "optimal":
            assert (int(f.cards[i]), int(f.moves[i])) == (exact.total_cards, exact.turns)
        else:
            assert f.moves[i] == -1


def test_the_same_query_gives_the_same_route() -> None:
    board = beginner_board()
    routes = {plan_route(board, (0, -3)).path for _ in range(3)}
    assert len(routes) == 1


def test_bad_parameters() -> None:
    board = beginner_board()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"start": (9, 9)}, "start"),
        ({"start": (0, -3), "goals": [(0, 3)]}, "goals[0]"),
        ({"start": (0, -3), "goals": [(7, 7)]}, "goals[0]"),
        ({"start": (0, -3), "objective": "fastest"}, "objective"),
        ({"start": (0, -3), "budget": {"gold": 1}}, "budget"),
        ({"start": (0, -3), "budget": {"ore": -1}}, "budget.ore"),
        ({"start": (0, -3), "objective": "weighted", "values": {"ore": -2}}, "values.ore"),
        ({"start": (0, -3), "objective": "weighted", "values": {"ore": float("nan")}}, "ore"),
        ({"start": (0, -3), "objective": "weighted", "values": {"ore": 1e309}}, "ore"),
        ({"start": (0, -3), "values": {"ore": 2}}, "only with objective = 'weighted'"),
        ({"start": (0, -3), "time_limit": 5.0}, "time_limit only with budget or without start"),
        ({"start": "0,-3"}, "start"),
        ({"start": (0, -3, 1)}, "start"),
        ({"start": (0, -3), "goals": ["0,0"]}, "goals[0]"),
        ({"start": (0, -3), "roads": [(0, 0)]}, "roads[0]"),
        ({"start": (0, -3), "group": [(0, 0)]}, "group[0]"),
        ({"start": (0, -3), "roads": [((0, 0), (2, 0))]}, "roads[0]"),
        ({"start": (0, -3), "roads": [((3, 0), (4, 0))]}, "roads[0]"),
    ]
    for kwargs, field in cases:
        with pytest.raises(InvalidInput, match=__import__("re").escape(field)):
            plan_route(board, **kwargs)


def test_gold_is_payable_from_any_resource_under_a_budget() -> None:
    """Regression: weighted + budget once paid gold only in the least valued resource."""
    tiles = dict(beginner_board().tiles)
    tiles[Hex(1, -2)] = Tile(Terrain.GOLD, 2)
    board = Board(tiles)
    for objective in OBJECTIVES:
        route = plan_route(
            board,
            (1, -3),
            goals=[(1, -2)],
            objective=objective,  # type: ignore[arg-type]
            budget={"wool": 2},
        )
        assert route.status == "optimal" and route.cards == {"wool": 2}


def test_off_centre_boards_reflect_through_their_centre() -> None:
    board = beginner_board()
    shifted = Board({Hex(h.q + 4, h.r - 2): t for h, t in board.tiles.items()})
    for start in rim_sea(board):
        moved = Hex(start.q + 4, start.r - 2)
        goals = default_goals(board, start_group(board, start))
        shifted_goals = default_goals(shifted, start_group(shifted, moved))
        assert shifted_goals == [Hex(g.q + 4, g.r - 2) for g in goals]
        assert plan_route(shifted, moved).total_cards == plan_route(board, start).total_cards


def test_cards_ties_go_to_the_fewest_expected_turns() -> None:
    """Regression: two 24-card, 5-move routes from 0,-3; the desert one takes 16 turns."""
    route = plan_route(beginner_board(), (0, -3))
    assert (route.total_cards, route.turns, route.expected_turns) == (24, 5, Fraction(5))
    assert route.path is not None and Hex(0, 0) not in route.path


def test_budget_search_reports_its_time_limit() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_rally import generated_board

    rg = build_graph(generated_board(12, seed=3))
    budget = dict.fromkeys(RESOURCES, 19)  # the most the bank holds
    route = plan_route(
        rg, (0, -12), goals=[(0, 11)], objective="expected_turns", budget=budget, time_limit=1e-6
    )
    assert route.status == "timed_out" and route.path is None and route.total_cards is None
    assert route.time_limit == 1e-6 and route.to_dict()["time_limit"] == 1e-6


def test_a_budget_search_shows_a_deadline_bar(capsys: pytest.CaptureFixture[str]) -> None:
    """A newcomer's rally ``--budget`` search on a big board ran on a terminal and showed
    nothing: ``progress=True`` writes a bar at once, None off a terminal writes nothing."""
    import sys
    from pathlib import Path

    import isles

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_rally import generated_board

    rg = build_graph(generated_board(12, seed=3))
    trip = Trip.read(
        {
            "board": rg,
            "start": (0, -12),
            "goals": [(0, 11)],
            "objective": "expected_turns",
            "budget": dict.fromkeys(["brick", "lumber", "wool", "grain", "ore"], 19),
            "time_limit": 0.05,
        }
    )
    route = isles.answer(trip, progress=True)
    assert route.status == "timed_out"
    err = capsys.readouterr().err
    assert "budget search" in err and " s" in err
    isles.answer(trip)  # None, off a terminal: nothing
    assert capsys.readouterr().err == ""


# -- issue 9: checked inputs, answers that say what they are -------------------------------


@pytest.mark.parametrize(
    "value", [1e308, float("inf"), float("nan"), -1, -0.5, 10**6 + 1, Fraction(-1, 3), True, "2"]
)
def test_card_values_are_finite_and_in_range(value: Any) -> None:
    """Issue 9, case 1: a value that could overflow the route's total is refused by name."""
    with pytest.raises(InvalidInput, match=r"^values\.ore: .* expected a number in 0\.\.1000000"):
        plan_route(beginner_board(), (0, -3), objective="weighted", values={"ore": value})


def test_largest_card_values_still_give_an_exact_finite_answer() -> None:
    values = dict.fromkeys(RESOURCES, MAX_CARD_VALUE)
    route = plan_route(beginner_board(), (0, -3), objective="weighted", values=values)
    assert route.value == 24 * MAX_CARD_VALUE
    json.dumps(route.to_dict(), allow_nan=False)
    tiny = plan_route(beginner_board(), (0, -3), objective="weighted", values={"ore": 1e-300})
    assert tiny.value is not None and tiny.value > 0


def _two_sea_rings() -> Board:
    tiles = dict(beginner_board().tiles)
    tiles.update({h: Tile(Terrain.SEA) for h in ring(4)})
    return Board(tiles)


def test_only_a_rim_start_has_default_goals() -> None:
    """Issue 9, case 11: no goals are invented for a start without a start group."""
    board = beginner_board()
    with pytest.raises(InvalidInput, match=r"^goals: required: the car's start is not a rim start"):
        plan_route(board, (1, -1))
    with pytest.raises(InvalidInput, match="rim start"):
        start_group(board, (1, -1))
    # Sea away from land, and sea off the rim, are not rim starts either.
    wide = _two_sea_rings()
    for start in [(0, -4), (0, -3)]:
        assert not is_rim_start(wide, start)
        with pytest.raises(InvalidInput, match=r"^goals: required"):
            plan_route(wide, start)
    # Named goals, or the start group, are enough.
    assert plan_route(board, (1, -1), goals=[(0, 2)]).end == Hex(0, 2)
    group = [(0, -3), (1, -3), (2, -3), (3, -3)]
    under_way = plan_route(board, (1, -1), group=group)
    assert under_way.goals == tuple(default_goals(board, [Hex(*h) for h in group]))
    assert Hex(0, 0) not in under_way.goals
    with pytest.raises(InvalidInput, match=r"^goals: .* goals or group, not both"):
        plan_route(board, (0, -3), goals=[(0, 2)], group=group)


def test_a_route_that_does_not_exist_has_null_values() -> None:
    """Issue 9, case 13: unreachable is not '0 cards'."""
    islands = Board({(0, 0): Tile(Terrain.FOREST, 3), (2, 0): Tile(Terrain.HILLS, 4)})
    route = plan_route(islands, (0, 0), goals=[(2, 0)])
    assert route.status is Status.UNREACHABLE and not route.reached
    assert route.path is None and route.total_cards is None and route.expected_turns is None
    answer = route.to_dict()
    assert answer["status"] == "unreachable"
    for key in ("path", "steps", "cards", "total_cards", "turns", "expected_turns", "value"):
        assert answer[key] is None, key
    assert answer["end"] is None and answer["distance_to_goal"] is None


def test_unaffordable_and_timed_out_say_what_they_hold() -> None:
    route = plan_route(beginner_board(), (0, -3), budget={"ore": 10, "brick": 6}, time_limit=30)
    answer = route.to_dict()
    assert answer["status"] == "unaffordable" and answer["time_limit"] == 30
    assert answer["end"] == [0, 0] == answer["path"][-1] and answer["distance_to_goal"] == 2
    assert answer["cards"] == {"brick": 6, "ore": 10} and answer["total_cards"] == 16
    assert answer["budget"] == {"lumber": 0, "wool": 0, "grain": 0, "brick": 6, "ore": 10}


@pytest.mark.parametrize("limit", [0, -1, float("nan"), float("inf"), True, "5"])
def test_time_limit_is_a_number_of_seconds(limit: Any) -> None:
    with pytest.raises(InvalidInput, match=r"^time_limit"):
        plan_route(beginner_board(), (0, -3), budget={"ore": 1}, time_limit=limit)


def test_route_dialect() -> None:
    """Hexes [q, r], roads [[q, r], [q, r]], odds and expected turns with their exact text."""
    board = beginner_board()
    route = plan_route(board, (0, 0), goals=[(1, 0)], roads=[((1, 0), (0, 0))])
    answer = route.to_dict()
    assert answer["roads"] == [[[0, 0], [1, 0]]] and answer["path"] == [[0, 0], [1, 0]]
    step = answer["steps"][0]
    assert step["exit_probability"] == 1 / 12 and step["exit_probability_exact"] == "1/12"
    assert step["expected_turns_exact"] == "12/1" and step["halved"] and step["cards"] == 2
    assert answer["expected_turns_exact"] == "12/1" and answer["value_exact"] == "2/1"
    assert json.loads(json.dumps(answer, allow_nan=False)) == answer


def test_cost_field_dialect() -> None:
    board = Board({(0, 0): Tile(Terrain.FOREST, 3), (2, 0): Tile(Terrain.HILLS, 4)})
    field = cost_field(board, (0, 0), "turns")
    answer = field.to_dict()
    assert answer["status"] == "optimal" and answer["objective"] == "turns"
    assert answer["hexes"] == [
        {"hex": [0, 0], "cards": 0, "moves": 0, "previous": None},
        {"hex": [2, 0], "cards": None, "moves": None, "previous": None},
    ]
    assert field.cost((2, 0)) is None
    with pytest.raises(InvalidInput, match="on the board"):
        field.cost((5, 5))
