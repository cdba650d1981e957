"""Sailing solver against independent oracles: subset brute force, plain value iteration,
exact rational solves, Monte Carlo sailing, roll-sequence enumeration (docs/ships.md)."""

from __future__ import annotations

import itertools
import json
import math
from collections import deque
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, Terrain, Tile, roll_probability
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, edge, hexagon
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.encounters import Encounter, cargo_after, outcome_rolls
from isles.models.ships.limits import ROLLS
from isles.models.ships.winds import pirate_options, ship_edges, ship_options
from isles.models.status import Status
from isles.ships import risk, sail
from isles.solvers.ships.arrival import arrival_distribution, arrival_odds
from isles.solvers.ships.graph import WindGraph, target_edges, wind_graph
from isles.solvers.ships.harvest import expected_harvest
from isles.solvers.ships.navigation import Navigation, Reach, navigate
from isles.solvers.ships.risk import cargo_outlook, pirate_reach_probability

P = {n: roll_probability(n) for n in ROLLS}

# -- oracles -----------------------------------------------------------------------------


def options_table(board: Board, may_stay: bool) -> dict[Edge, list[tuple[Edge, ...]]]:
    return {e: [ship_options(board, e, n, may_stay) for n in ROLLS] for e in ship_edges(board)}


def winning_set_brute_force(
    opts: dict[Edge, list[tuple[Edge, ...]]], targets: frozenset[Edge]
) -> set[Edge]:
    """Union of every edge set S (targets excluded) such that from each edge of S every
    roll has an option in S or a target, and some path of options inside S reaches a
    target: by definition the edges with a policy that surely arrives."""
    others = [e for e in opts if e not in targets]
    union: set[Edge] = set()
    for k in range(1, len(others) + 1):
        for subset in itertools.combinations(others, k):
            s = set(subset)
            ok_rolls = all(
                any(o in s or o in targets for o in opts[e][r])
                for e in s
                for r in range(len(ROLLS))
            )
            if not ok_rolls:
                continue
            reached = set(targets)
            changed = True
            while changed:
                changed = False
                for e in s - reached:
                    if any(o in reached for r in opts[e] for o in r):
                        reached.add(e)
                        changed = True
            if s <= reached:
                union |= s
    return union | set(targets)


def possible_brute_force(
    opts: dict[Edge, list[tuple[Edge, ...]]], targets: frozenset[Edge]
) -> set[Edge]:
    """Edges with some sequence of rolls and choices that reaches a target (BFS)."""
    out = set()
    for start in opts:
        seen, todo = {start}, deque([start])
        while todo:
            e = todo.popleft()
            if e in targets:
                out.add(start)
                break
            for r in opts[e]:
                for o in r:
                    if o not in seen:
                        seen.add(o)
                        todo.append(o)
    return out


def plain_value_iteration(
    opts: dict[Edge, list[tuple[Edge, ...]]], targets: frozenset[Edge], winning: set[Edge]
) -> dict[Edge, float]:
    """Jacobi value iteration on the Bellman equation, edges outside ``winning`` = inf."""
    probs = [float(P[n]) for n in ROLLS]
    v = {e: (0.0 if e in winning else math.inf) for e in opts}
    for _ in range(200_000):
        new = {}
        for e in opts:
            if e in targets or e not in winning:
                new[e] = v[e]
                continue
            new[e] = 1.0 + sum(
                p * min(v[o] for o in r) for p, r in zip(probs, opts[e], strict=True)
            )
        delta = max((abs(new[e] - v[e]) for e in winning), default=0.0)
        v = new
        if delta < 1e-12:
            break
    return v


# -- strategies --------------------------------------------------------------------------


@st.composite
def small_boards(draw: st.DrawFn, max_hexes: int = 6) -> Board:
    """3..max_hexes hexes of the radius-1 hexagon, mostly sea, random tokens."""
    cells = draw(st.lists(st.sampled_from(hexagon(1)), min_size=3, max_size=max_hexes, unique=True))
    tiles: dict[Hex, Tile] = {}
    for h in cells:
        if draw(st.integers(0, 3)) == 0:
            tiles[h] = Tile(Terrain.FOREST, draw(st.sampled_from(NUMBER_TOKENS)))
        else:
            tiles[h] = Tile(Terrain.SEA, draw(st.none() | st.sampled_from(NUMBER_TOKENS)))
    return Board(tiles)


def line_board() -> Board:
    """Four sea hexes in a strip, with tokens 6, 8, 5, none."""
    return Board(
        {
            Hex(0, 0): Tile(Terrain.SEA, 6),
            Hex(1, 0): Tile(Terrain.SEA, 8),
            Hex(1, -1): Tile(Terrain.SEA, 5),
            Hex(2, -1): Tile(Terrain.SEA),
        }
    )


# -- the graph matches the rules ------------------------------------------------------------


@settings(max_examples=40)
@given(board=small_boards(max_hexes=7), may_stay=st.booleans())
def test_wind_graph_matches_ship_options(board: Board, may_stay: bool) -> None:
    if not ship_edges(board):
        with pytest.raises(InvalidInput):
            wind_graph(board, may_stay)
        return
    g = wind_graph(board, may_stay)
    assert list(g.edges) == ship_edges(board)
    for i, e in enumerate(g.edges):
        for r, n in enumerate(ROLLS):
            got = {g.edges[j] for j in g.options[i, r]}
            assert got == set(ship_options(board, e, n, may_stay))
    pirate = wind_graph(board, may_stay, pirate=True)
    for i, e in enumerate(pirate.edges):
        for r, n in enumerate(ROLLS):
            got = {pirate.edges[j] for j in pirate.options[i, r]}
            assert got == set(pirate_options(board, e, n, may_stay))


# -- navigation vs brute force and value iteration -------------------------------------------


def check_against_oracles(board: Board, targets: frozenset[Edge], may_stay: bool) -> None:
    nav = navigate(board, targets, may_stay=may_stay)
    check_navigation(nav, options_table(board, may_stay), targets)


def check_navigation(
    nav: Navigation, opts: dict[Edge, list[tuple[Edge, ...]]], targets: frozenset[Edge]
) -> None:
    winning = winning_set_brute_force(opts, targets)
    possible = possible_brute_force(opts, targets)
    vi = plain_value_iteration(opts, targets, winning)
    assert nav.status is Status.OPTIMAL
    assert nav.bellman_residual < 1e-8
    for e in opts:
        if e in winning:
            assert nav.reach(e) is Reach.REACHABLE, e
        elif e in possible:
            assert nav.reach(e) is Reach.TRAPPED, e
        else:
            assert nav.reach(e) is Reach.UNREACHABLE, e
        got = nav.expected_rolls(e)
        if e in winning:
            assert got is not None
            assert got == pytest.approx(vi[e], rel=1e-7, abs=1e-9)
            if e not in targets:  # the steering attains the minimum of the Bellman equation
                for r, n in enumerate(ROLLS):
                    assert vi[nav.steer(e, n)] == pytest.approx(
                        min(vi[o] for o in opts[e][r]), rel=1e-7, abs=1e-9
                    )
        else:
            assert got is None


@settings(max_examples=60)
@given(data=st.data(), board=small_boards(), may_stay=st.booleans())
def test_navigation_matches_brute_force_and_value_iteration(
    data: st.DataObject, board: Board, may_stay: bool
) -> None:
    edges = ship_edges(board)
    if not edges:
        return
    targets = frozenset(
        data.draw(st.lists(st.sampled_from(edges), min_size=1, max_size=2, unique=True))
    )
    check_against_oracles(board, targets, may_stay)


def test_line_board_against_oracles() -> None:
    b = line_board()
    for target in ship_edges(b):
        for stay in (False, True):
            check_against_oracles(b, frozenset([target]), stay)


@settings(max_examples=30)
@given(data=st.data(), board=small_boards(max_hexes=7))
def test_rules_never_trap_and_may_stay_never_helps(data: st.DataObject, board: Board) -> None:
    # Every wind move can be undone by the same number (docs/ships.md), so an edge that
    # can reach the target at all reaches it surely; and a coast edge has a single sea
    # hex, so staying there only wastes rolls: the variant leaves the values unchanged.
    edges = ship_edges(board)
    if not edges:
        return
    targets = [data.draw(st.sampled_from(edges))]
    forced, stay = navigate(board, targets), navigate(board, targets, may_stay=True)
    for e in edges:
        assert forced.reach(e) is not Reach.TRAPPED
        a, b = forced.expected_rolls(e), stay.expected_rolls(e)
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a == pytest.approx(b, rel=1e-9, abs=1e-12)


def trap_graph() -> tuple[WindGraph, dict[Edge, list[tuple[Edge, ...]]]]:
    """A made-up option table over the line board's five edges that traps ships
    (the rules never do): edges e1 and e4 may reach e0 but not surely."""
    b = line_board()
    g = wind_graph(b)
    e0, e1, e2, e3, e4 = g.edges
    table: dict[Edge, dict[int, tuple[Edge, ...]]] = {
        e0: {},
        e1: {6: (e0, e2), 8: (e3,)},  # an 8 forces the ship to e3, which never moves
        e2: {6: (e0,)},
        e3: {},
        e4: {5: (e1,), 9: (e2,)},  # a 5 forces it to e1: trapped one step further
    }
    opts = {e: [table[e].get(n, (e,)) for n in ROLLS] for e in g.edges}
    width = max(len(o) for rows in opts.values() for o in rows)
    arr = np.array(
        [[[g.index[o[min(k, len(o) - 1)]] for k in range(width)] for o in opts[e]] for e in g.edges]
    )
    return WindGraph(b, g.edges, g.index, arr, False), opts


def test_trapped_on_a_synthetic_wind_graph() -> None:
    synthetic, opts = trap_graph()
    e0, e1, e2, _, e4 = synthetic.edges
    targets = frozenset([e0])
    nav = navigate(synthetic, targets)
    assert [nav.reach(e) for e in synthetic.edges] == [
        Reach.REACHABLE,
        Reach.TRAPPED,
        Reach.REACHABLE,
        Reach.UNREACHABLE,
        Reach.TRAPPED,
    ]
    assert nav.expected_rolls(e2) == pytest.approx(36 / 5)
    assert nav.expected_rolls(e1) is None and nav.expected_rolls(e4) is None
    assert not arrival_distribution(nav, e1).reachable
    with pytest.raises(InvalidInput):
        nav.steer(e1, 6)
    check_navigation(nav, opts, targets)


def test_demo_board_against_value_iteration() -> None:
    b = demo_board()
    targets = target_edges(b, near=[parse_settlement("0,2:0,3:1,2")])
    nav = navigate(b, targets)
    opts = options_table(b, False)
    # Every demo edge is reachable (all 25 sea hexes carry tokens).
    vi = plain_value_iteration(opts, targets, set(opts))
    for e, v in nav.field().items():
        assert v == pytest.approx(vi[e], rel=1e-7)


# -- arrival distribution and Monte Carlo ---------------------------------------------------


def test_arrival_distribution_mean_and_mass() -> None:
    b = demo_board()
    targets = target_edges(b, near=[parse_settlement("0,2:0,3:1,2")])
    nav = navigate(b, targets)
    for text in ("0,2:1,2", "-2,3:-1,2", "2,-3:2,-2"):
        s = Edge(*sorted(Hex(*map(int, h.split(","))) for h in text.split(":")))
        arr = arrival_distribution(nav, s)
        assert arr.reachable and arr.tail < 1e-11
        assert sum(arr.pmf) == pytest.approx(1.0, abs=1e-10)
        v = nav.expected_rolls(s)
        assert v is not None and arr.mean() == pytest.approx(v, rel=1e-8)
    t = next(iter(targets))
    assert arrival_distribution(nav, t).pmf == (1.0,)


def test_arrival_first_rolls_geometric() -> None:
    b = Board(
        {
            Hex(0, 0): Tile(Terrain.SEA, 6),
            Hex(1, 0): Tile(Terrain.SEA),
            Hex(1, -1): Tile(Terrain.SEA),
        }
    )
    nav = navigate(b, [edge((0, 0), (1, -1))])
    arr = arrival_distribution(nav, edge((0, 0), (1, 0)))
    q = 5 / 36
    for t in range(1, 30):
        assert arr.pmf[t] == pytest.approx(q * (1 - q) ** (t - 1), rel=1e-12)
    assert arr.within(10) == pytest.approx(1 - (1 - q) ** 10)


def test_monte_carlo_sailing_of_the_policy() -> None:
    b = demo_board()
    targets = target_edges(b, near=[parse_settlement("0,2:0,3:1,2")])
    nav = navigate(b, targets)
    start = edge((-2, 3), (-1, 2))
    v = nav.expected_rolls(start)
    assert v is not None
    # Sail all runs at once, one roll per step, by the public steering of every edge.
    edges = [e for e in ship_edges(b) if nav.reach(e) is Reach.REACHABLE]
    number = {e: k for k, e in enumerate(edges)}
    steer = np.array([[number[nav.steer(e, n)] for n in ROLLS] for e in edges])
    arrived = np.array([e in targets for e in edges])
    rng = np.random.default_rng(6)
    runs = 3000
    probs = np.array([float(P[n]) for n in ROLLS])
    where = np.full(runs, number[start])
    lengths = np.zeros(runs)
    sailing = ~arrived[where]
    while sailing.any():
        rolls = rng.choice(len(ROLLS), size=int(sailing.sum()), p=probs)
        where[sailing] = steer[where[sailing], rolls]
        lengths[sailing] += 1
        sailing = ~arrived[where]
    arr = lengths
    half_width = 4.0 * arr.std(ddof=1) / math.sqrt(runs)
    assert abs(arr.mean() - v) < half_width
    # And the arrival distribution: P(within 20 rolls), binomial 4-sigma interval.
    p20 = arrival_distribution(nav, start).within(20)
    emp = float(np.mean(arr <= 20))
    assert abs(emp - p20) < 4.0 * math.sqrt(p20 * (1 - p20) / runs) + 1e-9


def test_bad_targets_raise() -> None:
    b = line_board()
    with pytest.raises(InvalidInput):
        navigate(b, [])
    with pytest.raises(InvalidInput):
        navigate(b, [edge((5, 5), (5, 6))])
    nav = navigate(b, [edge((0, 0), (1, 0))])
    with pytest.raises(InvalidInput):
        nav.expected_rolls(edge((7, 7), (7, 8)))
    with pytest.raises(InvalidInput):
        nav.steer(edge((0, 0), (1, 0)), 13)
    with pytest.raises(InvalidInput):
        target_edges(b)
    with pytest.raises(InvalidInput):
        target_edges(demo_board(), near=[parse_settlement("0,0:1,0:1,-1")])


# -- risk ------------------------------------------------------------------------------------


@pytest.mark.parametrize("encounter", list(Encounter))
@pytest.mark.parametrize("cargo", [0, 1, 2, 3])
@pytest.mark.parametrize("encounters", [0, 1, 2])
def test_cargo_outlook_by_enumerating_dice(
    encounter: Encounter, cargo: int, encounters: int
) -> None:
    by_roll = {n: o for o, ns in outcome_rolls(encounter).items() for n in ns}
    sunk = Fraction(0)
    left = [Fraction(0)] * 4
    faces = range(1, 7)
    for dice in itertools.product(faces, repeat=2 * encounters):
        c: int | None = cargo
        for k in range(encounters):
            if c is None:
                break
            c = cargo_after(by_roll[dice[2 * k] + dice[2 * k + 1]], c)
        w = Fraction(1, 36**encounters)
        if c is None:
            sunk += w
        else:
            left[c] += w
    out = cargo_outlook(encounter, cargo, encounters)
    assert out.sunk == sunk and list(out.cargo) == left
    assert out.sunk + sum(out.cargo) == 1
    assert out.expected_cargo == sum(c * p for c, p in enumerate(left))


def test_cargo_outlook_rejects_bad_input() -> None:
    for args in ((Encounter.PIRATE, 4, 1), (Encounter.PIRATE, 1, -1), (Encounter.COLLISION, -1, 0)):
        with pytest.raises(InvalidInput):
            cargo_outlook(*args)


def pirate_by_recursion(board: Board, e: Edge, target: Edge, rolls: int, toward: bool) -> Fraction:
    """Plain recursion over every roll sequence (11^rolls leaves)."""
    if e == target:
        return Fraction(1)
    if rolls == 0:
        return Fraction(0)
    pick = max if toward else min
    return sum(
        (
            P[n] * pick(pirate_by_recursion(board, o, target, rolls - 1, toward) for o in opts)
            for n in ROLLS
            for opts in [pirate_options(board, e, n)]
        ),
        Fraction(0),
    )


@settings(max_examples=25)
@given(data=st.data(), board=small_boards(max_hexes=5), rolls=st.integers(0, 3))
def test_pirate_reach_matches_recursion(data: st.DataObject, board: Board, rolls: int) -> None:
    edges = ship_edges(board)
    if not edges:
        return
    a = data.draw(st.sampled_from(edges))
    b = data.draw(st.sampled_from(edges))
    toward = pirate_reach_probability(board, a, b, rolls, "toward")
    away = pirate_reach_probability(board, a, b, rolls, "away")
    assert toward == pirate_by_recursion(board, a, b, rolls, True)
    assert away == pirate_by_recursion(board, a, b, rolls, False)
    assert 0 <= away <= toward <= 1


def test_pirate_moves_on_a_seven() -> None:
    # No tokens at all: only 7s move the pirate (1/6 per roll), here to a single neighbour.
    b = Board(
        {
            Hex(0, 0): Tile(Terrain.SEA),
            Hex(1, 0): Tile(Terrain.SEA),
            Hex(1, -1): Tile(Terrain.FOREST, 3),
        }
    )
    a, t = edge((0, 0), (1, 0)), edge((0, 0), (1, -1))
    # 7 from {0,0 ; 1,0}: along 0,0 -> {0,0 ; 1,-1}; along 1,0 -> {1,0 ; 1,-1}.
    assert pirate_reach_probability(b, a, t, 1, "toward") == Fraction(1, 6)
    assert pirate_reach_probability(b, a, t, 1, "away") == 0
    with pytest.raises(InvalidInput):
        pirate_reach_probability(b, a, t, -1)


# -- harvest ----------------------------------------------------------------------------------


def test_expected_harvest_conditions() -> None:
    b = demo_board()
    coast = edge((0, 2), (0, 3))  # sea 10 / hills 5
    corner = parse_settlement("0,2:0,3:1,2")
    other = parse_settlement("-1,3:0,3:0,2")
    assert expected_harvest(b, coast, "red") == Fraction(4, 36)
    assert expected_harvest(b, coast, "red", {corner: "red"}) == Fraction(4, 36)
    assert expected_harvest(b, coast, "red", {corner: "blue"}) == 0
    assert expected_harvest(b, coast, "red", {corner: "red", other: "red"}) == 0
    assert expected_harvest(b, coast, "red", {}, {coast: "blue"}) == 0
    assert expected_harvest(b, coast, "red", {}, {coast: "red"}) == Fraction(4, 36)
    assert expected_harvest(b, edge((0, 2), (1, 2)), "red") == 0  # high sea


# -- exact oracles for the error bound and the arrival odds -----------------------------------


def exact_policy_values(
    nav: Navigation, opts: dict[Edge, list[tuple[Edge, ...]]], targets: frozenset[Edge]
) -> dict[Edge, Fraction]:
    """The expected rolls of nav's steering, solved exactly in Fractions (Gauss-Jordan)."""
    states = [e for e in opts if nav.reach(e) is Reach.REACHABLE and e not in targets]
    col = {e: k for k, e in enumerate(states)}
    n = len(states)
    rows = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for k, e in enumerate(states):
        rows[k][k] += 1
        rows[k][n] = Fraction(1)
        for roll in ROLLS:
            nxt = nav.steer(e, roll)
            if nxt in col:
                rows[k][col[nxt]] -= P[roll]
    for k in range(n):
        pivot = next(i for i in range(k, n) if rows[i][k] != 0)
        rows[k], rows[pivot] = rows[pivot], rows[k]
        lead = rows[k][k]
        rows[k] = [x / lead for x in rows[k]]
        for i in range(n):
            if i != k and rows[i][k] != 0:
                factor = rows[i][k]
                rows[i] = [a - factor * b for a, b in zip(rows[i], rows[k], strict=True)]
    return {e: rows[col[e]][n] for e in states} | {t: Fraction(0) for t in targets}


@settings(max_examples=30)
@given(data=st.data(), board=small_boards(max_hexes=7), may_stay=st.booleans())
def test_error_bound_holds_against_the_exact_solution(
    data: st.DataObject, board: Board, may_stay: bool
) -> None:
    edges = ship_edges(board)
    if not edges:
        return
    targets = frozenset([data.draw(st.sampled_from(edges))])
    nav = navigate(board, targets, may_stay=may_stay)
    exact = exact_policy_values(nav, options_table(board, may_stay), targets)
    for e, value in exact.items():
        got = nav.expected_rolls(e)
        assert got is not None
        assert abs(Fraction(got) - value) <= Fraction(nav.relative_error) * Fraction(got)
        assert abs(Fraction(got) - value) <= Fraction(nav.error_bound)


def within_by_recursion(
    opts: dict[Edge, list[tuple[Edge, ...]]],
    targets: frozenset[Edge],
    e: Edge,
    rolls: int,
    steer: object = None,
) -> Fraction:
    """P(arrive within ``rolls``) over every roll sequence: under ``steer`` (a Navigation)
    or, without one, the best option on every roll (the finite-horizon optimum)."""
    if e in targets:
        return Fraction(1)
    if rolls == 0:
        return Fraction(0)
    total = Fraction(0)
    for r, n in enumerate(ROLLS):
        if isinstance(steer, Navigation):
            total += P[n] * within_by_recursion(opts, targets, steer.steer(e, n), rolls - 1, steer)
        else:
            total += P[n] * max(
                within_by_recursion(opts, targets, o, rolls - 1) for o in opts[e][r]
            )
    return total


@settings(max_examples=25)
@given(data=st.data(), board=small_boards(max_hexes=5), rolls=st.integers(0, 3))
def test_arrival_odds_by_enumerating_rolls(data: st.DataObject, board: Board, rolls: int) -> None:
    edges = ship_edges(board)
    if not edges:
        return
    target, start = data.draw(st.sampled_from(edges)), data.draw(st.sampled_from(edges))
    nav = navigate(board, [target])
    opts = options_table(board, False)
    got = arrival_odds(nav, start, [rolls])[rolls]
    reach = nav.reach(start)
    if reach is Reach.UNREACHABLE:
        assert got == 0
    else:
        assert reach is Reach.REACHABLE
        assert got == within_by_recursion(opts, frozenset([target]), start, rolls, nav)


def test_arrival_odds_agree_with_the_float_distribution() -> None:
    b = demo_board()
    nav = navigate(b, target_edges(b, near=[parse_settlement("0,2:0,3:1,2")]))
    start = edge((-2, 3), (-1, 2))
    arr = arrival_distribution(nav, start)
    odds = arrival_odds(nav, start, [0, 1, 7, 20, 100])
    assert list(odds) == [0, 1, 7, 20, 100]
    for k, p in odds.items():
        assert float(p) == pytest.approx(arr.within(k), abs=1e-12)


def test_sail_on_a_trap_is_infeasible_with_the_best_odds() -> None:
    # Trapped: arrival possible, never sure. Status infeasible, no expected rolls, no
    # steering; the odds are the best chance any steering has within k rolls.
    graph, opts = trap_graph()
    e0, e1, _, e3, e4 = graph.edges
    for start in (e1, e4):
        voyage = sail(graph, start, [e0], within=[1, 2, 3])
        assert voyage.status is Status.INFEASIBLE and not voyage.status.answered
        assert voyage.reach is Reach.TRAPPED
        assert voyage.expected_rolls is None and voyage.error_bound is None
        assert voyage.steering == ()
        for k, p in voyage.arrival_within:
            assert p == within_by_recursion(opts, frozenset([e0]), start, k)
        assert voyage.arrival_within[-1][1] > 0
        answer = voyage.to_dict()
        assert answer["expected_rolls"] is None and answer["expected_rounds"] is None
        json.dumps(answer, allow_nan=False)
    voyage = sail(graph, e3, [e0])
    assert voyage.status is Status.UNREACHABLE and voyage.reach is Reach.UNREACHABLE
    assert all(p == 0 for _, p in voyage.arrival_within)
    assert voyage.to_dict()["arrival_within"][0]["probability_exact"] == "0/1"


# -- sail() and risk(): one call each -----------------------------------------------------------


def test_sail_assembles_the_answer() -> None:
    b = demo_board()
    corner = parse_settlement("0,2:0,3:1,2")
    start = edge((-2, 3), (-1, 2))
    voyage = sail(b, start, near=[corner], players=3)
    nav = navigate(b, target_edges(b, near=[corner]))
    assert voyage.status is Status.OPTIMAL and voyage.reach is Reach.REACHABLE
    assert voyage.expected_rolls == nav.expected_rolls(start)
    assert voyage.expected_rolls is not None
    assert voyage.expected_rounds == pytest.approx(voyage.expected_rolls / 3)
    assert voyage.error_bound is not None and 0 < voyage.error_bound < 1e-9
    assert [k for k, _ in voyage.arrival_within] == [5, 10, 20]
    assert voyage.targets == tuple(sorted(target_edges(b, near=[corner])))
    for s in voyage.steering:
        assert len(s.options) > 1 and s.go_to == nav.steer(start, s.roll)
        assert s.expected_rolls_there == nav.expected_rolls(s.go_to)
    answer = voyage.to_dict()
    assert answer["from"] == [[-2, 3], [-1, 2]] and answer["near"] == [[[0, 2], [0, 3], [1, 2]]]
    assert answer["status"] == "optimal" and answer["at_target"] is False
    json.dumps(answer, allow_nan=False)
    # Edges and corners may be given as plain pairs in any order.
    same = sail(b, [[-1, 2], [-2, 3]], near=[[[1, 2], [0, 3], [0, 2]]], players=3)
    assert same.to_dict() == answer


def test_sail_already_there() -> None:
    b = demo_board()
    spot = edge((0, 2), (0, 3))
    voyage = sail(b, spot, [spot])
    assert voyage.status is Status.OPTIMAL and voyage.at_target
    assert voyage.expected_rolls == 0.0 and voyage.error_bound == 0.0
    assert voyage.steering == ()
    assert all(p == 1 for _, p in voyage.arrival_within)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"players": 2}, "players"),
        ({"players": True}, "players"),
        ({"within": [5, 101]}, "within[1]"),
        ({"within": 5}, "within"),
        ({"start": ((0, 0), (2, 0))}, "start"),
        ({"start": ((9, 9), (9, 10))}, "start"),
        ({"targets": [((0, 2), (0, 3)), ((3, -2), (3, -1))]}, "targets[1]"),
        ({"targets": [], "near": [((0, 0), (1, 0), (1, -1))]}, "near[0]"),
        ({"targets": [], "near": [((0, 0), (1, 0), (2, 2))]}, "near[0]"),
        ({"targets": []}, "targets"),
    ],
)
def test_sail_refuses_naming_the_parameter(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"start": ((0, 0), (1, 0)), "targets": [((0, 2), (0, 3))]} | kwargs
    start, targets = args.pop("start"), args.pop("targets")
    with pytest.raises(InvalidInput) as info:
        sail(demo_board(), start, targets, **args)  # type: ignore[arg-type]
    assert info.value.field == field


def test_sail_keeps_a_graphs_own_variant() -> None:
    b = demo_board()
    with pytest.raises(InvalidInput, match="may_stay"):
        sail(wind_graph(b), edge((0, 0), (1, 0)), [edge((0, 2), (0, 3))], may_stay=True)
    with pytest.raises(InvalidInput, match="board"):
        sail(wind_graph(b, pirate=True), edge((0, 0), (1, 0)), [edge((0, 2), (0, 3))])
    assert sail(wind_graph(b, True), edge((0, 0), (1, 0)), [edge((0, 2), (0, 3))]).may_stay


def test_risk_assembles_the_answer() -> None:
    b = demo_board()
    pirate, spot = edge((0, 0), (1, 0)), edge((0, 2), (0, 3))
    report = risk(2, 3, board=b, pirate=pirate, edge=spot, rolls=4)
    assert report.status is Status.EXACT
    assert report.outlook[Encounter.PIRATE] == cargo_outlook(Encounter.PIRATE, 2, 3)
    reach = report.pirate_reach
    assert reach is not None and reach.rolls == 4
    assert reach.toward == pirate_reach_probability(b, pirate, spot, 4, "toward")
    assert reach.away == pirate_reach_probability(b, pirate, spot, 4, "away")
    answer = report.to_dict()
    assert (
        answer["pirate_reach"]["toward_exact"]
        == f"{reach.toward.numerator}/{reach.toward.denominator}"
    )
    assert answer["cargo_outlook"]["pirate"]["start_cargo"] == 2
    json.dumps(answer, allow_nan=False)
    assert risk().pirate_reach is None and risk().to_dict()["pirate_reach"] is None


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"cargo": 4}, "cargo"),
        ({"encounters": 101}, "encounters"),
        ({"rolls": 3}, "rolls"),
        ({"board": "demo"}, "board"),
        ({"may_stay": True}, "may_stay"),
        ({"pirate": ((0, 0), (1, 0)), "board": "demo"}, "edge"),
        # One rule for both front ends (the declaration Risk): edge only with pirate.
        ({"edge": ((0, 0), (1, 0)), "board": "demo"}, "edge"),
        ({"pirate": ((0, 0), (1, 0)), "edge": ((0, 2), (0, 3))}, "board"),
        (
            {"pirate": ((0, 0), (1, 0)), "edge": ((0, 2), (0, 3)), "board": "demo", "rolls": 201},
            "rolls",
        ),
        ({"pirate": ((3, -2), (3, -1)), "edge": ((0, 2), (0, 3)), "board": "demo"}, "pirate"),
    ],
)
def test_risk_refuses_naming_the_parameter(kwargs: dict[str, object], field: str) -> None:
    if kwargs.get("board") == "demo":
        kwargs = kwargs | {"board": demo_board()}
    with pytest.raises(InvalidInput) as info:
        risk(**kwargs)  # type: ignore[arg-type]
    assert info.value.field == field


def test_navigation_and_arrival_to_dict() -> None:
    graph, _ = trap_graph()
    nav = navigate(graph, [graph.edges[0]])
    answer = nav.to_dict()
    json.dumps(answer, allow_nan=False)
    assert answer["status"] == "optimal" and len(answer["edges"]) == 5
    assert [row["reach"] for row in answer["edges"]] == [
        r.value for r in map(nav.reach, graph.edges)
    ]
    assert answer["edges"][3]["expected_rolls"] is None
    assert arrival_distribution(nav, graph.edges[1]).to_dict()["status"] == "infeasible"
    assert arrival_distribution(nav, graph.edges[3]).to_dict()["status"] == "unreachable"
    done = arrival_distribution(nav, graph.edges[2]).to_dict()
    assert done["status"] == "exact" and done["pmf"][1] == pytest.approx(5 / 36)
    assert done["tail"] < 1e-11
