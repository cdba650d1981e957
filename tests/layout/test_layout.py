"""The set-up optimiser against brute force, the independent rule checker, and itself.

Oracles: plain enumeration of land sets, terrains and land tokens on radius 1
and small radius-2 requests; isles.models.layout.checker.rule_violations on every board.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, HarbourKind, Resource, Terrain, Tile, pips
from isles.models.errors import InvalidInput, IslesError
from isles.models.hexgrid import (
    Hex,
    edge,
    edges_between,
    hexagon,
    neighbours,
    ring,
    vertices_between,
)
from isles.models.layout.checker import rule_violations
from isles.models.layout.groups import constraint_groups
from isles.models.layout.objectives import colourfulness, pip_spread
from isles.models.layout.request import DEFAULT_RULES, TILES_PER_PLAYER, Rule, SetupRequest
from isles.models.layout.setup import setup_request
from isles.models.status import Status
from isles.solvers.layout.board import solve_layout
from isles.solvers.layout.feasibility import is_feasible
from isles.solvers.layout.move import next_move
from isles.solvers.layout.results import LayoutResult

LIMIT = 10.0


def solved(request: SetupRequest, **kwargs: object) -> LayoutResult:
    """Solve and run the independent checker on whatever board comes back."""
    result = solve_layout(request, time_limit=LIMIT, **kwargs)  # type: ignore[arg-type]
    if result.board is not None:
        assert rule_violations(request, result.board) == []
        assert result.colourfulness == colourfulness(result.board)
        assert result.pip_spread == pip_spread(result.board)
        assert (
            result.colourfulness_bound is not None
            and result.colourfulness <= result.colourfulness_bound
        )
        if result.status is Status.OPTIMAL:  # "optimal" only with the proof in hand
            assert result.colourfulness == result.colourfulness_bound
            assert result.pip_spread == result.pip_spread_bound
    else:
        assert result.status in (Status.INFEASIBLE, Status.TIMED_OUT)
    return result


# -- the brute force ------------------------------------------------------------------


def _multiset_ok(values: Iterable[object], pool: dict[object, int]) -> bool:
    counts: dict[object, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
        if counts[v] > pool.get(v, 0):
            return False
    return True


def brute_force(request: SetupRequest) -> tuple[int, int] | None:
    """Best (colourfulness, pip spread) by enumeration, or None if no board exists.

    Written apart from isles.models.layout.setup: its own colourfulness, its own rules. Sea
    tokens are checked for existence only (they touch neither objective).
    """
    pos = list(request.positions)
    edges = [(e.a, e.b) for e in edges_between(pos)]
    corners = vertices_between(pos)
    rules = request.rules
    inventory = dict(request.inventory)
    pool: dict[object, int] = {}
    for v in request.land_tokens:
        pool[v] = pool.get(v, 0) + 1
    kinds = sorted(inventory, key=list(Terrain).index)
    best: tuple[int, int] | None = None
    for land in itertools.combinations(pos, request.land):
        land_set = set(land)
        if any(request.fixed[h].terrain.is_land != (h in land_set) for h in request.fixed):
            continue
        if Rule.NO_LAND_TRIANGLE in rules and any(all(h in land_set for h in c) for c in corners):
            continue
        sea = [h for h in pos if h not in land_set]
        if not _sea_tokens_exist(request, sea, edges):
            continue
        for terrains in itertools.product(kinds, repeat=len(land)):
            if not _multiset_ok(terrains, dict(inventory.items())):
                continue
            terrain = dict(zip(land, terrains, strict=True))
            if any(
                request.fixed[h].terrain is not terrain[h] for h in request.fixed if h in terrain
            ):
                continue
            if (
                Rule.TERRAIN_GROUPS in rules
                and request.max_group == 1
                and any(
                    a in terrain and b in terrain and terrain[a] is terrain[b] for a, b in edges
                )
            ):
                continue
            colour = sum(
                1
                for a, b in edges
                if (terrain.get(a, Terrain.SEA) is not terrain.get(b, Terrain.SEA))
            )
            if best is not None and colour < best[0]:
                continue
            spread = _best_spread(request, terrain, edges, pool)
            if spread is None:
                continue
            if best is None or (colour, -spread) > (best[0], -best[1]):
                best = (colour, spread)
    return best


def _sea_tokens_exist(request: SetupRequest, sea: list[Hex], edges: list[tuple[Hex, Hex]]) -> bool:
    numbers = request.sea_numbers
    for tokens in itertools.product(numbers, repeat=len(sea)):
        token = dict(zip(sea, tokens, strict=True))
        if any(request.fixed[h].number not in (None, token[h]) for h in sea if h in request.fixed):
            continue
        if Rule.SEA_APART in request.rules and any(
            a in token and b in token and token[a] == token[b] for a, b in edges
        ):
            continue
        if Rule.SEA_BALANCED in request.rules:
            counts = [tokens.count(v) for v in numbers]
            if max(counts) - min(counts) > 1:
                continue
        return True
    return False


def _best_spread(
    request: SetupRequest,
    terrain: dict[Hex, Terrain],
    edges: list[tuple[Hex, Hex]],
    pool: dict[object, int],
) -> int | None:
    producing = [h for h, t in terrain.items() if t is not Terrain.DESERT]
    values = sorted(set(request.land_tokens))
    best: int | None = None
    for tokens in itertools.product(values, repeat=len(producing)):
        if not _multiset_ok(tokens, pool):
            continue
        token = dict(zip(producing, tokens, strict=True))
        if any(
            request.fixed[h].number not in (None, token.get(h))
            for h in terrain
            if h in request.fixed
        ):
            continue
        ok = True
        for a, b in edges:
            if a in token and b in token:
                if Rule.SIX_EIGHT_APART in request.rules and {token[a], token[b]} <= {6, 8}:
                    ok = False
                if Rule.SAME_NUMBER_APART in request.rules and token[a] == token[b]:
                    ok = False
        if ok and Rule.VERTEX_PIPS in request.rules:
            for h in request.positions:
                for i in range(6):
                    ring = neighbours(h)
                    corner = {h, ring[i], ring[(i + 1) % 6]}
                    total = sum(pips(token[x]) for x in corner if x in token)
                    if total > request.max_pips:
                        ok = False
        if not ok:
            continue
        totals = dict.fromkeys(Resource, 0)
        for h, v in token.items():
            res = terrain[h].resource
            if res is not None:
                totals[res] += pips(v)
        spread = max(totals.values()) - min(totals.values())
        best = spread if best is None else min(best, spread)
    return best


SMALL_LAND = {Terrain.FOREST: 1, Terrain.HILLS: 1, Terrain.FIELDS: 1, Terrain.DESERT: 1}


# -- optimality against brute force --------------------------------------------------


@pytest.mark.parametrize("land", [0, 1, 2, 3, 4])
def test_radius_one_matches_brute_force(land: int) -> None:
    request = SetupRequest.hexagon(
        1, land=land, inventory=SMALL_LAND, land_tokens=(2, 5, 6, 8, 12), sea_numbers=(3, 4, 9)
    )
    expected = brute_force(request)
    result = solved(request)
    if expected is None:
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.OPTIMAL
        assert (result.colourfulness, result.pip_spread) == expected
        assert result.colourfulness_bound == expected[0]


@pytest.mark.parametrize(
    "rules",
    [
        frozenset(),
        DEFAULT_RULES | {Rule.SAME_NUMBER_APART},
        DEFAULT_RULES | {Rule.VERTEX_PIPS},
        frozenset({Rule.TERRAIN_GROUPS, Rule.SIX_EIGHT_APART}),
    ],
    ids=["no-rules", "same-number", "vertex-pips", "groups"],
)
def test_radius_one_rules_match_brute_force(rules: frozenset[Rule]) -> None:
    request = SetupRequest.hexagon(
        1,
        land=3,
        inventory={Terrain.FOREST: 2, Terrain.HILLS: 2},
        land_tokens=(6, 6, 8, 9),
        sea_numbers=(3, 4, 10),
        rules=rules,
        max_pips=9,
        max_group=1,
    )
    expected = brute_force(request)
    result = solved(request)
    assert expected is not None
    assert result.status is Status.OPTIMAL
    assert (result.colourfulness, result.pip_spread) == expected


@settings(max_examples=10)
@given(
    rules=st.frozensets(st.sampled_from(list(Rule))),
    land=st.integers(0, 3),
    tokens=st.lists(st.sampled_from([2, 4, 5, 6, 8, 9]), min_size=0, max_size=4),
    max_pips=st.integers(4, 10),
)
def test_random_rules_match_brute_force(
    rules: frozenset[Rule], land: int, tokens: list[int], max_pips: int
) -> None:
    request = SetupRequest.hexagon(
        1,
        land=land,
        inventory={Terrain.FOREST: 1, Terrain.HILLS: 2, Terrain.DESERT: 1},
        land_tokens=tuple(tokens),
        sea_numbers=(3, 10, 11),
        rules=rules,
        max_pips=max_pips,
        max_group=1,
    )
    expected = brute_force(request)
    result = solved(request)
    if expected is None:
        assert result.status is Status.INFEASIBLE
        assert result.conflict
    else:
        assert result.status is Status.OPTIMAL
        assert (result.colourfulness, result.pip_spread) == expected


@pytest.mark.parametrize("land", [3, 4])
def test_small_radius_two_matches_brute_force(land: int) -> None:
    request = SetupRequest.hexagon(
        2,
        land=land,
        inventory={Terrain.FOREST: 2, Terrain.MOUNTAINS: 2},
        land_tokens=(5, 6, 8, 9),
        sea_numbers=(*tuple(range(2, 7)), 8, 9, 10, 11, 12),
        rules=frozenset({Rule.NO_LAND_TRIANGLE, Rule.SIX_EIGHT_APART}),
    )
    expected = brute_force(request)
    result = solved(request)
    assert expected is not None
    assert result.status is Status.OPTIMAL
    assert (result.colourfulness, result.pip_spread) == expected


def test_default_radius_two_is_optimal_and_legal() -> None:
    result = solved(SetupRequest.hexagon(2))
    assert result.status is Status.OPTIMAL
    assert result.colourfulness == result.colourfulness_bound == 30
    assert result.pip_spread_bound is not None and result.pip_spread == result.pip_spread_bound


# -- fixed tiles, seeds, infeasibility --------------------------------------------------

TILES = st.sampled_from(
    [
        Tile(Terrain.SEA, 5),
        Tile(Terrain.SEA),
        Tile(Terrain.FOREST, 6),
        Tile(Terrain.HILLS, 9),
        Tile(Terrain.DESERT),
        Tile(Terrain.PASTURE, 10),
    ]
)


@settings(max_examples=6)
@given(st.dictionaries(st.sampled_from(hexagon(2)), TILES, min_size=1, max_size=3))
def test_fixed_tiles_are_never_moved(fixed: dict[Hex, Tile]) -> None:
    request = SetupRequest.hexagon(2, fixed=fixed)
    result = solved(request)
    if result.board is not None:
        for h, tile in fixed.items():
            assert result.board[h].terrain is tile.terrain
            if tile.number is not None:
                assert result.board[h].number == tile.number
    else:
        assert result.status is Status.INFEASIBLE
        assert result.conflict


def test_completion_is_as_good_as_brute_force() -> None:
    fixed = {Hex(0, 0): Tile(Terrain.SEA, 3), Hex(1, 0): Tile(Terrain.FOREST, 6)}
    request = SetupRequest.hexagon(
        1,
        land=3,
        inventory={Terrain.FOREST: 2, Terrain.HILLS: 2},
        land_tokens=(6, 6, 8, 9),
        sea_numbers=(3, 4, 10),
        fixed=fixed,
    )
    result = solved(request)
    assert (result.colourfulness, result.pip_spread) == brute_force(request)


def test_same_seed_same_board_and_seeds_differ() -> None:
    request = SetupRequest.hexagon(2)
    first = solved(request, seed=7)
    again = solved(request, seed=7)
    other = solved(request, seed=8)
    assert first.board == again.board
    assert first.board != other.board
    assert (first.colourfulness, first.pip_spread) == (other.colourfulness, other.pip_spread)
    assert other.status is Status.OPTIMAL


def _conflict_is_minimal(request: SetupRequest, conflict: tuple[str, ...]) -> None:
    assert is_feasible(request, conflict, time_limit=LIMIT) is False
    for name in conflict:
        rest = [n for n in conflict if n != name]
        assert is_feasible(request, rest, time_limit=LIMIT) is True, name


def test_too_much_land_names_triangle_rule_and_land_count() -> None:
    request = SetupRequest.hexagon(1, land=7)
    result = solved(request)
    assert result.status is Status.INFEASIBLE
    assert set(result.conflict) == {Rule.NO_LAND_TRIANGLE.value, "land count"}
    assert result.conflict_minimal
    _conflict_is_minimal(request, result.conflict)
    assert brute_force(request) is None
    relaxed = SetupRequest.hexagon(1, land=7, rules=DEFAULT_RULES - {Rule.NO_LAND_TRIANGLE})
    assert solved(relaxed).status is Status.OPTIMAL


def test_fixed_six_next_to_eight_is_explained() -> None:
    fixed = {Hex(0, 0): Tile(Terrain.FOREST, 6), Hex(1, 0): Tile(Terrain.HILLS, 8)}
    request = SetupRequest.hexagon(2, fixed=fixed)
    result = solved(request)
    assert result.status is Status.INFEASIBLE
    assert set(result.conflict) == {"six-eight-apart", "fixed 0,0", "fixed 1,0"}
    _conflict_is_minimal(request, result.conflict)


def test_pip_limit_below_a_single_token_is_explained() -> None:
    request = SetupRequest.hexagon(2, land=6, rules=DEFAULT_RULES | {Rule.VERTEX_PIPS}, max_pips=0)
    result = solved(request)
    assert result.status is Status.INFEASIBLE
    assert Rule.VERTEX_PIPS.value in result.conflict
    assert result.conflict_minimal
    _conflict_is_minimal(request, result.conflict)


def test_too_few_tokens_is_explained() -> None:
    request = SetupRequest.hexagon(1, land=3, land_tokens=(5, 9), inventory={Terrain.FOREST: 4})
    result = solved(request)
    assert result.status is Status.INFEASIBLE
    assert set(result.conflict) == {"land tokens", "land count"}
    _conflict_is_minimal(request, result.conflict)


def test_constraint_groups_name_rules_requirements_and_fixed_tiles() -> None:
    request = SetupRequest.hexagon(1, fixed={Hex(0, 0): Tile(Terrain.SEA)})
    groups = constraint_groups(request)
    assert set(groups) >= {r.value for r in DEFAULT_RULES} | {"land count", "fixed 0,0"}


# -- next move and free shape -------------------------------------------------------------


def test_next_move_keeps_the_best_completion_reachable() -> None:
    fixed = {Hex(0, 0): Tile(Terrain.SEA, 5), Hex(1, 0): Tile(Terrain.FOREST, 9)}
    request = SetupRequest.hexagon(2, fixed=fixed)
    move = next_move(request, (Terrain.HILLS, Terrain.SEA), time_limit=LIMIT)
    assert move.status is Status.OPTIMAL
    assert move.best_after == move.best_overall
    (h1, t1), (h2, t2) = move.placements
    assert (t1, t2) == (Terrain.HILLS, Terrain.SEA)
    assert h1 not in fixed and h2 not in fixed and h1 != h2
    assert any(n in fixed for n in neighbours(h1))
    assert any(n in fixed or n == h1 for n in neighbours(h2))
    assert move.completion is not None
    assert move.completion[h1].terrain is t1 and move.completion[h2].terrain is t2
    assert rule_violations(request, move.completion) == []


def test_next_move_reaches_the_brute_force_optimum() -> None:
    fixed = {Hex(0, 0): Tile(Terrain.SEA, 3)}
    request = SetupRequest.hexagon(
        1,
        land=3,
        inventory={Terrain.FOREST: 2, Terrain.HILLS: 2},
        land_tokens=(6, 6, 8, 9),
        sea_numbers=(3, 4, 10),
        fixed=fixed,
    )
    expected = brute_force(request)
    assert expected is not None
    move = next_move(request, (Terrain.FOREST, Terrain.FOREST), time_limit=LIMIT)
    assert move.best_overall == move.best_after == expected[0]
    assert move.completion is not None
    assert colourfulness(move.completion) == expected[0]
    assert rule_violations(request, move.completion) == []
    (h1, _), (h2, _) = move.placements
    assert move.completion[h1].terrain is move.completion[h2].terrain is Terrain.FOREST


def test_next_move_rejects_a_terrain_outside_the_inventory() -> None:
    request = SetupRequest.hexagon(1, fixed={Hex(0, 0): Tile(Terrain.SEA)})
    with pytest.raises(InvalidInput):
        next_move(request, (Terrain.GOLD, Terrain.SEA), time_limit=LIMIT)


def _connected_sets_with(root: Hex, pos: list[Hex], k: int) -> list[frozenset[Hex]]:
    out = []
    for combo in itertools.combinations([h for h in pos if h != root], k - 1):
        s = {root, *combo}
        seen, stack = {root}, [root]
        while stack:
            for n in neighbours(stack.pop()):
                if n in s and n not in seen:
                    seen.add(n)
                    stack.append(n)
        if seen == s:
            out.append(frozenset(s))
    return out


@pytest.mark.parametrize("size,land", [(4, 1), (5, 2)])
def test_free_shape_matches_brute_force(size: int, land: int) -> None:
    request = SetupRequest(
        tuple(hexagon(2)),
        land,
        inventory=SMALL_LAND,
        land_tokens=(5, 6, 8, 9),
        sea_numbers=(2, 3, 4, 5, 6, 8, 9, 10, 11, 12),
        size=size,
    )
    result = solved(request)
    assert result.board is not None
    best = 0
    for shape in _connected_sets_with(Hex(0, 0), list(hexagon(2)), size):
        sub = SetupRequest(tuple(shape), land, inventory=SMALL_LAND, land_tokens=(5, 6, 8, 9))
        found = brute_force(sub)
        if found is not None:
            best = max(best, found[0])
    assert result.colourfulness == best


def test_request_validation() -> None:
    with pytest.raises(InvalidInput):
        SetupRequest.hexagon(1, land=8)
    with pytest.raises(InvalidInput):
        SetupRequest.hexagon(1, fixed={Hex(5, 5): Tile(Terrain.SEA)})
    with pytest.raises(InvalidInput):
        SetupRequest.hexagon(1, max_group=9)
    with pytest.raises(InvalidInput):
        solve_layout(SetupRequest.hexagon(1), time_limit=0)


def test_checker_catches_each_rule() -> None:
    sea = Terrain.SEA
    board = Board(
        {
            Hex(0, 0): Tile(Terrain.FOREST, 6),
            Hex(1, 0): Tile(Terrain.FOREST, 6),
            Hex(1, -1): Tile(Terrain.HILLS, 5),
            Hex(0, -1): Tile(sea, 4),
            Hex(-1, 0): Tile(sea, 4),
            Hex(-1, 1): Tile(sea, 4),
            Hex(0, 1): Tile(sea, 4),
            **{h: Tile(sea) for h in ring(2)},
        },
        harbours={edge((1, -2), (1, -1)): HarbourKind.BRICK},
    )
    request = SetupRequest.hexagon(
        1,
        land=3,
        rules=frozenset(Rule),
        max_pips=10,
        max_group=1,
        min_corner_pips=15,
        frame=tuple(ring(2)),
        harbour_places=(edge((1, -2), (1, -1)),),
        harbours=(HarbourKind.BRICK,),
    )
    text = "\n".join(rule_violations(request, board))
    for rule in Rule:
        assert rule.value in text, rule


# -- the request with its defaults, hardened inputs -------------------------------------


def test_setup_request_defaults_match_the_docs() -> None:
    default = setup_request()
    assert (len(default.positions), default.land, default.rules) == (37, 12, DEFAULT_RULES)
    free = setup_request(players=3)
    assert free.size == 3 * TILES_PER_PLAYER and free.land == 12
    assert len(free.positions) >= 1.5 * free.size
    shaped = setup_request(positions=hexagon(1), rules={Rule.SEA_APART: False}, max_group=1)
    assert len(shaped.positions) == 7 and shaped.land == 2
    assert Rule.SEA_APART not in shaped.rules and Rule.TERRAIN_GROUPS in shaped.rules


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"radius": 7}, "radius"),
        ({"radius": True}, "radius"),
        ({"radius": 1, "positions": hexagon(1)}, "positions"),
        ({"players": 5}, "players"),
        ({"players": 1, "radius": 1}, "radius"),
        ({"players": 1, "positions": hexagon(2)}, "positions"),
        ({"land": 2.5}, "land"),
        ({"land": True}, "land"),
        ({"rules": {"no-such-rule": True}}, "rules"),
        ({"rules": {"sea-apart": "no"}}, "rules[sea-apart]"),
        ({"rules": {"vertex-pips": False}, "max_pips": 10}, "max_pips"),
        ({"max_pips": -1}, "max_pips"),
        ({"max_group": 9}, "max_group"),
        ({"positions": [(0, 0), "1,0"]}, "positions[1]"),
        ({"positions": hexagon(7)}, "positions"),
    ],
)
def test_setup_request_names_the_parameter(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        setup_request(**kwargs)
    assert info.value.field == field


@pytest.mark.parametrize(
    "kwargs",
    [
        {"inventory": {"lava": 2}},
        {"inventory": {Terrain.SEA: 2}},
        {"inventory": {Terrain.FOREST: 1.5}},
        {"land_tokens": (6.0,)},
        {"sea_numbers": (True,)},
        {"rules": frozenset({"no-such-rule"})},
        {"fixed": {(0, 0): "sea"}},
        {"fixed": {"0,0": Tile(Terrain.SEA)}},
    ],
)
def test_request_refuses_wrong_types_with_invalid_input(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        SetupRequest.hexagon(1, **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"time_limit": float("nan")},
        {"time_limit": float("inf")},
        {"time_limit": True},
        {"workers": 0},
        {"seed": -1},
        {"seed": 2**31},
        {"seed": 1.0},
    ],
)
def test_solver_limits_are_checked(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        solve_layout(SetupRequest.hexagon(0, land=0), **kwargs)


@pytest.mark.parametrize("holding", [("forest",), ("forest", "lava"), "forest,sea", (1, 2)])
def test_next_move_refuses_a_bad_hand(holding: Any) -> None:
    with pytest.raises(InvalidInput):
        next_move(SetupRequest.hexagon(1), holding, time_limit=LIMIT)


# -- one result dialect ------------------------------------------------------------------


def test_result_to_dict_follows_docs_json() -> None:
    fixed = {Hex(0, 0): Tile(Terrain.SEA, 4)}
    request = SetupRequest.hexagon(1, fixed=fixed)
    answer = solve_layout(request, time_limit=LIMIT).to_dict()
    assert answer["status"] == "optimal"
    assert Board.from_dict(answer["board"])[Hex(0, 0)] == Tile(Terrain.SEA, 4)
    assert answer["fixed"] == [[0, 0]]
    assert answer["colourfulness"] == answer["colourfulness_bound"]
    assert set(answer["resource_pips"]) == {r.value for r in Resource}
    assert answer["conflict"] is None and answer["conflict_minimal"] is None
    json.dumps(answer, allow_nan=False)

    infeasible = solve_layout(SetupRequest.hexagon(1, land=7), time_limit=LIMIT).to_dict()
    assert infeasible["status"] == "infeasible"
    assert infeasible["board"] is None and infeasible["colourfulness"] is None
    assert infeasible["resource_pips"] is None
    assert sorted(infeasible["conflict"]) == ["land count", "no-land-triangle"]
    assert infeasible["conflict_minimal"] is True


def test_next_move_to_dict_follows_docs_json() -> None:
    request = SetupRequest.hexagon(1, fixed={Hex(0, 0): Tile(Terrain.SEA, 4)})
    answer = next_move(request, (Terrain.FOREST, Terrain.SEA), time_limit=LIMIT).to_dict()
    assert answer["status"] == "optimal"
    assert [p["terrain"] for p in answer["placements"]] == ["forest", "sea"]
    for placement in answer["placements"]:
        assert set(placement) == {"hex", "terrain"} and len(placement["hex"]) == 2
    assert Board.from_dict(answer["completion"])[Hex(0, 0)] == Tile(Terrain.SEA, 4)
    assert answer["fixed"] == [[0, 0]] and answer["conflict"] is None


def test_timed_out_is_the_status_of_no_answer_in_time() -> None:
    result = LayoutResult(Status.TIMED_OUT)
    assert not result.status.answered
    assert result.to_dict()["board"] is None


# -- fuzz: the fixed tiles file ----------------------------------------------------------

VALID_FIXED: dict[str, Any] = {
    "hexes": [
        {"hex": [0, 0], "terrain": "sea", "number": 4},
        {"hex": [1, 0], "terrain": "forest", "number": 6},
        {"hex": [0, 1], "terrain": "desert"},
    ]
}
_KEYS = st.sampled_from(["hexes", "hex", "terrain", "number", "Hex", "q", "r", ""])
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 13)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([t.value for t in Terrain] + ["Sea", "lava", ""])
    | st.text(max_size=6)
)
JSON_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(_KEYS | st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


#: Values a fixed tile may hold, valid or nearly: the edits that reach the solver.
_NEAR_VALUES = st.integers(-2, 13) | st.sampled_from([t.value for t in Terrain]) | st.none()


@st.composite
def fixed_documents(draw: st.DrawFn) -> object:
    """Valid-looking fixed tiles on the radius-1 hexagon, then zero to two edits."""
    entries = []
    for h in draw(st.lists(st.sampled_from(hexagon(1)), min_size=1, max_size=4, unique=True)):
        terrain = draw(st.sampled_from([t.value for t in Terrain]))
        entry: dict[str, object] = {"hex": [h.q, h.r], "terrain": terrain}
        if terrain != "desert" and (terrain != "sea" or draw(st.booleans())):
            entry["number"] = draw(st.sampled_from(NUMBER_TOKENS))
        entries.append(entry)
    doc: object = {"hexes": entries}
    for _ in range(draw(st.integers(0, 2))):
        doc = _mutate_once(draw, doc)
    return doc


@st.composite
def mutated(draw: st.DrawFn, doc: object) -> object:
    """``doc`` after one to three random edits: drop, add or retype a key, nest, ..."""
    value = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        value = _mutate_once(draw, value)
    return value


def _mutate_once(draw: st.DrawFn, value: object) -> object:
    children: list[object] = (
        (list(value) if isinstance(value, dict) else list(range(len(value))))
        if isinstance(value, dict | list)
        else []
    )
    if children and draw(st.integers(0, 3)) > 0:  # edit deep inside more often than the top
        at = draw(st.sampled_from(children))
        value[at] = _mutate_once(draw, value[at])  # type: ignore[index]
        return value
    edit = draw(st.sampled_from(["tweak", "replace", "wrap", "nest", "drop", "add", "duplicate"]))
    if edit == "tweak":
        return draw(_NEAR_VALUES)
    if edit == "replace":
        return draw(JSON_VALUES)
    if edit == "wrap":
        return [value]
    if edit == "nest":
        return {draw(_KEYS): value}
    if isinstance(value, dict):
        if edit == "drop" and value:
            del value[draw(st.sampled_from(list(value)))]
        elif edit in ("add", "duplicate"):
            value[draw(_KEYS)] = draw(JSON_VALUES)
    elif isinstance(value, list):
        if edit == "drop" and value:
            del value[draw(st.integers(0, len(value) - 1))]
        elif edit == "duplicate" and value:
            value.append(copy.deepcopy(value[draw(st.integers(0, len(value) - 1))]))
        elif edit == "add":
            value.append(draw(JSON_VALUES))
    return value


@functools.cache
def _answer(text: str) -> Status | None:
    """The status for a fixed-tiles document, or None when it is refused as IslesError."""
    try:
        fixed = Board.from_dict(json.loads(text), "fixed")
        request = setup_request(radius=1, fixed=fixed)
        result = solve_layout(request, time_limit=1.0)
    except IslesError:
        return None
    if result.board is not None:
        assert rule_violations(request, result.board) == []
    json.dumps(result.to_dict(), allow_nan=False)
    return result.status


def test_valid_fixed_tiles_are_answered() -> None:
    assert _answer(json.dumps(VALID_FIXED)) is Status.OPTIMAL


@settings(max_examples=120)  # about 20 reach the solver, 0.1-0.3 s each
@given(JSON_VALUES | mutated(VALID_FIXED) | fixed_documents())
def test_fixed_tiles_fuzz_answer_or_isles_error(doc: object) -> None:
    _answer(json.dumps(doc))
