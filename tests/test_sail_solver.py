"""Sailing solver against independent oracles: subset brute force, plain value iteration,
Monte Carlo sailing, roll-sequence enumeration (RULES.md section 4)."""

from __future__ import annotations

import itertools
import math
from collections import deque
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.catan import NUMBER_TOKENS, Board, Terrain, Tile, roll_probability
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, edge, hexagon
from isles.models.ships import (
    ROLLS,
    Encounter,
    cargo_after,
    demo_board,
    outcome_rolls,
    parse_settlement,
    pirate_options,
    ship_edges,
    ship_options,
)
from isles.solvers.sailing import (
    Navigation,
    Reach,
    WindGraph,
    arrival_distribution,
    cargo_outlook,
    expected_harvest,
    navigate,
    pirate_reach_probability,
    target_edges,
    wind_graph,
)

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
    assert nav.status == "optimal"
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


def test_trapped_on_a_synthetic_wind_graph() -> None:
    # The rules never trap a ship, so exercise the almost-sure fixpoint on a made-up
    # option table over the line board's five edges.
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
    synthetic = WindGraph(b, g.edges, g.index, arr, False)
    targets = frozenset([e0])
    nav = navigate(synthetic, targets)
    assert [nav.reach(e) for e in g.edges] == [
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
    targets = target_edges(b, settlements=[parse_settlement("0,2:0,3:1,2")])
    nav = navigate(b, targets)
    opts = options_table(b, False)
    # Every demo edge is reachable (all 25 sea hexes carry tokens).
    vi = plain_value_iteration(opts, targets, set(opts))
    for e, v in nav.field().items():
        assert v == pytest.approx(vi[e], rel=1e-7)


# -- arrival distribution and Monte Carlo ---------------------------------------------------


def test_arrival_distribution_mean_and_mass() -> None:
    b = demo_board()
    targets = target_edges(b, settlements=[parse_settlement("0,2:0,3:1,2")])
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
    targets = target_edges(b, settlements=[parse_settlement("0,2:0,3:1,2")])
    nav = navigate(b, targets)
    start = edge((-2, 3), (-1, 2))
    v = nav.expected_rolls(start)
    assert v is not None
    rng = np.random.default_rng(6)
    runs = 3000
    probs = np.array([float(P[n]) for n in ROLLS])
    lengths = []
    for _ in range(runs):
        e, t = start, 0
        while e not in targets:
            roll = int(rng.choice(ROLLS, p=probs))
            e = nav.steer(e, roll)
            t += 1
        lengths.append(t)
    arr = np.array(lengths, dtype=float)
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
        target_edges(demo_board(), settlements=[parse_settlement("0,0:1,0:1,-1")])


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
