"""The fleet solver against independent oracles: a plain recursion over the ships' positions,
the shared roll of two ships that never meet, plain value iteration, Monte Carlo sailing
(docs/ships.md; seed 004_644cf972d8964df4.txt, rules 6 and 11)."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, Terrain, Tile, roll_probability
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, edge, hexagon, neighbours
from isles.models.jsonio import edge_json
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.encounters import Encounter, Outcome, outcome_table
from isles.models.ships.fleet import (
    Rollers,
    check_fleet,
    collision_rollers,
    edge_rollers,
    fleet_options,
    scoring_edges,
    survival_probability,
)
from isles.models.ships.limits import ROLLS
from isles.models.ships.winds import ship_edges, ship_options
from isles.solvers.ships.arrival import arrival_distribution
from isles.solvers.ships.fleet_chance import MAX_EXACT_STATES, fleet_odds
from isles.solvers.ships.fleet_navigation import fleet_navigate
from isles.solvers.ships.graph import wind_graph
from isles.solvers.ships.joint_states import (
    MAX_JOINT_STATES,
    FleetSpace,
    fleet_space,
    joint_state_count,
)
from isles.solvers.ships.navigation import Reach, navigate

P = {n: roll_probability(n) for n in ROLLS}
Fleet = tuple[Edge, ...]

# -- the oracles: the rules read again, in plain Python over the ships' positions ---------


def oracle_capacity(board: Board, e: Edge) -> int:
    """Seed rule 11: two ships on the high sea (both hexes sea), one along a coast."""
    both_sea = board.terrain(e.a) is Terrain.SEA and board.terrain(e.b) is Terrain.SEA
    return 2 if both_sea else 1


def oracle_survival(board: Board, fleet: Fleet, rollers: Rollers) -> Fraction:
    """docs/ships.md: on each crowded edge each ship beyond the capacity (in the variant,
    every ship) rolls 2d6, and a 2 (one chance in 36) sinks it."""
    rolls = 0
    for e, n in Counter(fleet).items():
        cap = oracle_capacity(board, e)
        if n > cap:
            rolls += n if rollers is Rollers.ALL else n - cap
    return Fraction(35, 36) ** rolls


def plain_odds(
    board: Board,
    fleet: Fleet,
    scoring: frozenset[Edge],
    rolls: int,
    may_stay: bool,
    rollers: Rollers = Rollers.EXCESS,
) -> Fraction:
    """Best chance to have every ship on ``scoring`` at once within ``rolls`` rolls: try
    every roll and every choice of every ship, straight from ``ship_options``."""

    @cache
    def value(ships: Fleet, left: int) -> Fraction:
        if all(e in scoring for e in ships):
            return Fraction(1)
        if left == 0:
            return Fraction(0)
        total = Fraction(0)
        for n in ROLLS:
            choices = itertools.product(*(ship_options(board, e, n, may_stay) for e in ships))
            total += P[n] * max(
                oracle_survival(board, dest, rollers) * value(tuple(sorted(dest)), left - 1)
                for dest in choices
            )
        return total

    return value(tuple(sorted(fleet)), rolls)


def plain_joint_options(board: Board, ships: int, may_stay: bool) -> dict[Fleet, list[list[Fleet]]]:
    """Every sorted fleet position and, per roll, the sorted positions the owner may pick."""
    edges = ship_edges(board)
    out = {}
    for fleet in itertools.combinations_with_replacement(edges, ships):
        out[fleet] = [
            sorted(
                {
                    tuple(sorted(d))
                    for d in itertools.product(
                        *(ship_options(board, e, n, may_stay) for e in fleet)
                    )
                }
            )
            for n in ROLLS
        ]
    return out


def plain_sure_set(
    board: Board,
    opts: dict[Fleet, list[list[Fleet]]],
    scoring: frozenset[Edge],
    rollers: Rollers,
) -> tuple[set[Fleet], set[Fleet]]:
    """(positions from which success is possible, positions from which some steering
    succeeds surely), by plain set iteration: a sure steering never risks a collision."""
    goal = {f for f in opts if all(e in scoring for e in f)}
    clear = {f for f in opts if oracle_survival(board, f, rollers) == 1}
    possible = set(goal)
    changed = True
    while changed:
        changed = False
        for f in opts:
            if f not in possible and any(d in possible for row in opts[f] for d in row):
                possible.add(f)
                changed = True
    sure = set(possible)
    while True:
        ok = {
            f
            for f in sure - goal
            if all(any(d in sure and d in clear for d in row) for row in opts[f])
        }
        reached = {f for f in goal if f in clear}
        grown = True
        while grown:
            grown = False
            for f in ok - reached:
                if any(d in reached for row in opts[f] for d in row):
                    reached.add(f)
                    grown = True
        new = (reached & ok) | goal
        if new == sure:
            return possible, sure
        sure = new


def plain_value_iteration(
    board: Board,
    opts: dict[Fleet, list[list[Fleet]]],
    scoring: frozenset[Edge],
    sure: set[Fleet],
    rollers: Rollers,
) -> dict[Fleet, float]:
    """Gauss-Seidel value iteration of the expected rolls on the sure set, from 0 (a lower
    bound that rises to the optimum), clear placements only."""
    goal = {f for f in opts if all(e in scoring for e in f)}
    probs = [float(P[n]) for n in ROLLS]
    allowed = {f for f in sure if oracle_survival(board, f, rollers) == 1}
    rows = {
        f: [(p, [d for d in row if d in allowed]) for p, row in zip(probs, opts[f], strict=True)]
        for f in sure - goal
    }
    v = {f: 0.0 for f in sure}
    for _ in range(100_000):
        delta = 0.0
        for f, choices in rows.items():
            new = 1.0 + sum(p * min(v[d] for d in row) for p, row in choices)
            delta = max(delta, abs(new - v[f]))
            v[f] = new
        if delta < 1e-10 * (1.0 + max(v.values())):
            break
    return v


# -- boards ---------------------------------------------------------------------------------


@st.composite
def small_boards(draw: st.DrawFn, max_hexes: int = 7) -> Board:
    """3..max_hexes hexes of the radius-1 hexagon, mostly sea, random tokens."""
    cells = draw(st.lists(st.sampled_from(hexagon(1)), min_size=3, max_size=max_hexes, unique=True))
    tiles: dict[Hex, Tile] = {}
    for h in cells:
        if draw(st.integers(0, 3)) == 0:
            tiles[h] = Tile(Terrain.FOREST, draw(st.sampled_from(NUMBER_TOKENS)))
        else:
            tiles[h] = Tile(Terrain.SEA, draw(st.none() | st.sampled_from(NUMBER_TOKENS)))
    return Board(tiles)


def island_ring() -> Board:
    """A forest island ringed by six sea hexes: six coast spokes and six high-sea edges."""
    tiles = {Hex(0, 0): Tile(Terrain.FOREST, 8)}
    for h, n in zip(neighbours(Hex(0, 0)), (6, 5, 9, 4, 10, 8), strict=True):
        tiles[h] = Tile(Terrain.SEA, n)
    return Board(tiles)


def two_lagoons(number_a: int, number_b: int) -> Board:
    """Two sea hexes far apart, each ringed by deserts: each has a 6-cycle of coast edges
    that only its own number turns, and no ship can pass from one to the other."""
    tiles: dict[Hex, Tile] = {}
    for centre, number in ((Hex(0, 0), number_a), (Hex(5, 0), number_b)):
        tiles[centre] = Tile(Terrain.SEA, number)
        for h in neighbours(centre):
            tiles[h] = Tile(Terrain.DESERT)
    return Board(tiles)


def spoke(centre: Hex, k: int) -> Edge:
    """The k-th coast edge around ``centre`` (k mod 6, counter-clockwise)."""
    return edge(centre, neighbours(centre)[k % 6])


# -- the model's collision reading ----------------------------------------------------------


def test_edge_rollers_reads_rule_11() -> None:
    # Within the capacity nothing happens; beyond it each ship over the limit rolls (the
    # default), or in the variant every ship on the edge.
    table = {(on, cap): edge_rollers(on, cap) for on in range(4) for cap in (1, 2)}
    assert table == {
        (0, 1): 0, (1, 1): 0, (2, 1): 1, (3, 1): 2,
        (0, 2): 0, (1, 2): 0, (2, 2): 0, (3, 2): 1,
    }  # fmt: skip
    assert [edge_rollers(on, 1, Rollers.ALL) for on in range(4)] == [0, 0, 2, 3]
    assert [edge_rollers(on, 2, Rollers.ALL) for on in range(4)] == [0, 0, 0, 3]
    for bad in ((4, 1), (-1, 1), (2, 3), (True, 1)):
        with pytest.raises(InvalidInput):
            edge_rollers(*bad)


def test_collision_rollers_and_survival_follow_the_seed_table() -> None:
    b = island_ring()
    coast, sea = spoke(Hex(0, 0), 0), edge(neighbours(Hex(0, 0))[0], neighbours(Hex(0, 0))[1])
    assert collision_rollers(b, [coast, coast]) == 1
    assert collision_rollers(b, [coast, coast], Rollers.ALL) == 2
    assert collision_rollers(b, [sea, sea]) == 0
    assert collision_rollers(b, [sea, sea, sea]) == 1
    assert collision_rollers(b, [sea, sea, sea], Rollers.ALL) == 3
    assert collision_rollers(b, [sea, sea, coast]) == 0
    sinks = outcome_table(Encounter.COLLISION)[Outcome.SINKS]
    assert sinks == Fraction(1, 36)
    for m in range(4):
        assert survival_probability(m) == (1 - sinks) ** m
    with pytest.raises(InvalidInput):
        survival_probability(-1)


def test_fleet_options_is_the_product_of_the_ships_options() -> None:
    b = demo_board()
    fleet = [edge((0, 0), (0, 1)), edge((0, 1), (1, 0)), edge((0, 2), (0, 3))]
    for n in ROLLS:
        for stay in (False, True):
            want = list(itertools.product(*(ship_options(b, e, n, stay) for e in fleet)))
            assert list(fleet_options(b, fleet, n, stay)) == want


def test_check_fleet_and_scoring_edges() -> None:
    b = demo_board()
    e = edge((0, 0), (0, 1))
    assert check_fleet(b, [e, e]) == (e, e)
    for bad in ([], [e] * 4):
        with pytest.raises(InvalidInput, match=r"1\.\.3 ships"):
            check_fleet(b, bad)
    with pytest.raises(InvalidInput, match=r"ships\[1\]"):
        check_fleet(b, [e, edge((0, 3), (1, 3))])
    corner = parse_settlement("0,1:0,2:1,1")
    red = scoring_edges(b, "red", {corner: "red"})
    assert red == {edge((0, 1), (0, 2)), edge((0, 1), (1, 1)), edge((0, 2), (1, 1))}
    assert scoring_edges(b, "blue", {corner: "red"}) == frozenset()


# -- the joint table -----------------------------------------------------------------------


def test_joint_states_are_every_multiset_once() -> None:
    b = island_ring()
    for ships in (1, 2, 3):
        space = fleet_space(b, ships)
        n = len(space.graph)
        assert len(space) == joint_state_count(n, ships) == math.comb(n + ships - 1, ships)
        seen = {tuple(int(i) for i in row) for row in space.states}
        assert seen == set(itertools.combinations_with_replacement(range(n), ships))
        for s in range(len(space)):
            assert space.index(space.fleet(s)) == s


@settings(max_examples=25)
@given(board=small_boards(), ships=st.integers(1, 3), may_stay=st.booleans())
def test_joint_successors_match_the_rules(board: Board, ships: int, may_stay: bool) -> None:
    if not ship_edges(board):
        return
    space = fleet_space(board, ships, may_stay)
    opts = plain_joint_options(board, ships, may_stay)
    got: dict[tuple[int, int], set[int]] = {}
    for rows, succ in space.groups:
        for pair, row in zip(rows, succ, strict=True):
            key = (int(space.pair_state[pair]), int(space.pair_roll[pair]))
            assert key not in got
            got[key] = {int(x) for x in row}
            assert len(got[key]) == len(row)  # no repeats
    for fleet, per_roll in opts.items():
        s = space.index(fleet)
        assert space.collision_rolls[s] == collision_rollers(board, fleet)
        for r, row in enumerate(per_roll):
            want = {space.index(d) for d in row}
            assert got.get((s, r), {s}) == want


# -- finite horizon: the joint DP against the plain recursion ------------------------------


def check_odds(
    board: Board,
    fleet: Fleet,
    scoring: frozenset[Edge],
    rolls: int,
    may_stay: bool,
    rollers: Rollers,
) -> None:
    exact = fleet_odds(board, fleet, scoring, rolls, may_stay=may_stay, rollers=rollers, exact=True)
    floats = fleet_odds(board, fleet, scoring, rolls, may_stay=may_stay, rollers=rollers)
    for t in range(rolls + 1):
        want = plain_odds(board, fleet, scoring, t, may_stay, rollers)
        assert exact.within[t] == want, (t, fleet)
        assert abs(float(floats.within[t]) - float(want)) <= floats.error_bound
    # Every value of the float table, not only the start's, is within the stated bound.
    diff = np.abs(floats.values - exact.values.astype(np.float64))
    assert float(diff.max()) <= floats.error_bound
    # The advice attains the maximum of the recursion and says what follows it.
    for a in exact.advice():
        after = [
            oracle_survival(board, tuple(sorted(d)), rollers)
            * plain_odds(board, tuple(sorted(d)), scoring, rolls - 1, may_stay, rollers)
            for d in itertools.product(*(ship_options(board, e, a.roll, may_stay) for e in fleet))
        ]
        dest = tuple(sorted(to for _, to in a.moves))
        assert a.probability == max(after)
        assert a.probability == oracle_survival(board, dest, rollers) * plain_odds(
            board, dest, scoring, rolls - 1, may_stay, rollers
        )
        assert sorted(frm for frm, _ in a.moves) == sorted(fleet)


@settings(max_examples=30)
@given(
    data=st.data(),
    board=small_boards(),
    ships=st.integers(2, 3),
    may_stay=st.booleans(),
    rollers=st.sampled_from(list(Rollers)),
)
def test_joint_dp_matches_plain_recursion(
    data: st.DataObject, board: Board, ships: int, may_stay: bool, rollers: Rollers
) -> None:
    edges = ship_edges(board)
    if not edges:
        return
    fleet = tuple(data.draw(st.lists(st.sampled_from(edges), min_size=ships, max_size=ships)))
    scoring = frozenset(data.draw(st.lists(st.sampled_from(edges), min_size=1, max_size=4)))
    rolls = data.draw(st.integers(0, 3 if ships == 3 else 4))
    check_odds(board, fleet, scoring, rolls, may_stay, rollers)


@settings(max_examples=25)
@given(data=st.data(), board=small_boards(), ships=st.integers(2, 3))
def test_more_freedom_and_fewer_rolls_never_hurt(
    data: st.DataObject, board: Board, ships: int
) -> None:
    # More rolls, the variant's extra choice, fewer collision rolls: never a worse chance.
    edges = ship_edges(board)
    if not edges:
        return
    fleet = data.draw(st.lists(st.sampled_from(edges), min_size=ships, max_size=ships))
    scoring = data.draw(st.lists(st.sampled_from(edges), min_size=1, max_size=3))
    base = fleet_odds(board, fleet, scoring, 4, exact=True)
    stay = fleet_odds(board, fleet, scoring, 4, may_stay=True, exact=True)
    every = fleet_odds(board, fleet, scoring, 4, rollers=Rollers.ALL, exact=True)
    assert np.all(base.values[1:] >= base.values[:-1])
    assert np.all(stay.values >= base.values)
    assert np.all(base.values >= every.values)


def test_collisions_on_the_island_ring_match_plain_recursion() -> None:
    # Six coast spokes (room for one ship) and six high-sea edges (two): three ships
    # crowd easily, and collisions persist while they share an edge.
    b = island_ring()
    c = Hex(0, 0)
    ring = neighbours(c)
    scoring = frozenset({spoke(c, 0), spoke(c, 1), edge(ring[3], ring[4])})
    starts = [
        (spoke(c, 0), spoke(c, 0), spoke(c, 3)),  # two ships already in a collision
        (spoke(c, 2), edge(ring[2], ring[3]), edge(ring[2], ring[3])),
        (edge(ring[0], ring[1]),) * 3,  # three on one high-sea edge
    ]
    for fleet in starts:
        for stay in (False, True):
            check_odds(b, fleet, scoring, 3, stay, Rollers.EXCESS)
    check_odds(b, starts[0], scoring, 3, False, Rollers.ALL)


def test_the_policy_avoids_a_collision_it_can_avoid() -> None:
    b = two_lagoons(6, 9)
    c = Hex(0, 0)
    # Two ships on spokes 0 and 2; a 6 moves both one spoke. Spokes 5 and 1 score, so
    # the clear placement (5, 1) wins outright; (1, 1) would also score, after a collision.
    scoring = frozenset({spoke(c, 5), spoke(c, 1)})
    odds = fleet_odds(b, [spoke(c, 0), spoke(c, 2)], scoring, 1, exact=True)
    moves = sorted(odds.steer(odds.start, 6, 1))
    assert moves == sorted([(spoke(c, 0), spoke(c, 5)), (spoke(c, 2), spoke(c, 1))])
    assert odds.probability() == P[6]
    # The crowded placement (1, 1) was on offer: the survival factor set it aside.
    placements = [m for m, _ in odds.space.moves(odds.space.index(odds.start), 6)]
    assert any(len({to for _, to in m}) == 1 for m in placements)
    # Only spoke 1 scores: both ships must share it along a coast, and the ship over the
    # limit rolls (both roll in the variant).
    alone = fleet_odds(b, [spoke(c, 0), spoke(c, 2)], {spoke(c, 1)}, 1, exact=True)
    assert alone.probability() == P[6] * Fraction(35, 36)
    every = fleet_odds(b, [spoke(c, 0), spoke(c, 2)], {spoke(c, 1)}, 1, rollers=Rollers.ALL,
                       exact=True)  # fmt: skip
    assert every.probability() == P[6] * Fraction(35, 36) ** 2
    assert alone.probability() == plain_odds(
        b, (spoke(c, 0), spoke(c, 2)), frozenset({spoke(c, 1)}), 1, False
    )


# -- two ships that never meet: the shared roll, exactly ----------------------------------


def cycle_distance(k: int) -> int:
    return min(k % 6, -k % 6)


def distance_chain(
    d_a: int, d_b: int, p_a: Fraction, p_b: Fraction, both: Fraction, rolls: int, may_stay: bool
) -> list[Fraction]:
    """P(both ships on their lagoon's target at once within t rolls), t = 0..rolls, from
    the distances on the two 6-cycles. Per roll: with ``p_a`` only ship A's number comes,
    with ``p_b`` only B's, with ``both`` a number that turns both lagoons; each ship then
    steps toward its target (from the target: stays under the variant, else is blown off)."""

    def step(d: int) -> int:
        if d == 0:
            return 0 if may_stay else 1
        return d - 1

    @cache
    def value(a: int, b: int, left: int) -> Fraction:
        if a == 0 and b == 0:
            return Fraction(1)
        if left == 0:
            return Fraction(0)
        rest = 1 - p_a - p_b - both
        return (
            p_a * value(step(a), b, left - 1)
            + p_b * value(a, step(b), left - 1)
            + both * value(step(a), step(b), left - 1)
            + rest * value(a, b, left - 1)
        )

    return [value(d_a, d_b, t) for t in range(rolls + 1)]


def single_chain(d: int, p: Fraction, rolls: int) -> list[Fraction]:
    """P(one ship reaches its target within t rolls): a binomial tail (one step per roll of
    its number, arrival ends the attempt whatever happens next)."""
    return [
        sum(
            (math.comb(t, a) * p**a * (1 - p) ** (t - a) for a in range(d, t + 1)),
            Fraction(0),
        )
        for t in range(rolls + 1)
    ]


@pytest.mark.parametrize("may_stay", [False, True])
@pytest.mark.parametrize(("k_a", "k_b"), [(2, 3), (3, 1), (0, 2)])
def test_separate_lagoons_differ_from_the_product_as_the_shared_roll_dictates(
    may_stay: bool, k_a: int, k_b: int
) -> None:
    rolls = 8
    b = two_lagoons(6, 9)
    ca, cb = Hex(0, 0), Hex(5, 0)
    ship_a, ship_b = spoke(ca, k_a), spoke(cb, k_b)
    scoring = frozenset({spoke(ca, 0), spoke(cb, 0)})
    d_a, d_b = cycle_distance(k_a), cycle_distance(k_b)
    joint = fleet_odds(b, [ship_a, ship_b], scoring, rolls, may_stay=may_stay, exact=True)
    alone_a = fleet_odds(b, [ship_a], scoring, rolls, may_stay=may_stay, exact=True)
    alone_b = fleet_odds(b, [ship_b], scoring, rolls, may_stay=may_stay, exact=True)
    # Each ship alone: the binomial tail of its own number's rolls.
    assert list(alone_a.within) == single_chain(d_a, P[6], rolls)
    assert list(alone_b.within) == single_chain(d_b, P[9], rolls)
    # Together: one roll turns at most one lagoon, so the counts of 6s and 9s compete.
    want = distance_chain(d_a, d_b, P[6], P[9], Fraction(0), rolls, may_stay)
    assert list(joint.within) == want
    if may_stay:
        # A ship on its target stays: success is "at least d_a sixes and d_b nines among
        # the rolls", a trinomial sum, where independent dice would give the product.
        for t in range(rolls + 1):
            trinomial = sum(
                (
                    Fraction(math.factorial(t), math.factorial(x) * math.factorial(y)
                             * math.factorial(t - x - y))
                    * P[6] ** x * P[9] ** y * (1 - P[6] - P[9]) ** (t - x - y)
                    for x in range(d_a, t + 1)
                    for y in range(d_b, t - x + 1)
                ),
                Fraction(0),
            )  # fmt: skip
            assert joint.within[t] == trinomial
    for t in range(rolls + 1):
        product = alone_a.within[t] * alone_b.within[t]
        if d_a and d_b and t >= d_a + d_b:
            # Sixes and nines compete for the same rolls: strictly below the product.
            assert joint.within[t] < product
        elif may_stay and (d_a == 0 or d_b == 0):
            assert joint.within[t] == product  # a ship already home never leaves
    # The same two lagoons turned by one number: the ships move together, above the product.
    same = two_lagoons(6, 6)
    together = fleet_odds(same, [ship_a, spoke(cb, k_b)], {spoke(ca, 0), spoke(cb, 0)}, rolls,
                          may_stay=may_stay, exact=True)  # fmt: skip
    assert list(together.within) == distance_chain(
        d_a, d_b, Fraction(0), Fraction(0), P[6], rolls, may_stay
    )
    if may_stay and d_a and d_b:
        assert (
            together.within[rolls]
            > single_chain(d_a, P[6], rolls)[rolls] * single_chain(d_b, P[6], rolls)[rolls]
        )


# -- expected rolls: the stochastic shortest path against plain value iteration ------------


def check_navigation(
    board: Board, ships: int, scoring: frozenset[Edge], may_stay: bool, rollers: Rollers
) -> None:
    opts = plain_joint_options(board, ships, may_stay)
    possible, sure = plain_sure_set(board, opts, scoring, rollers)
    vi = plain_value_iteration(board, opts, scoring, sure, rollers)
    space = fleet_space(board, ships, may_stay, rollers)
    any_fleet = next(iter(opts))
    nav = fleet_navigate(space, any_fleet, scoring)
    assert nav.bellman_residual < 1e-8
    for fleet in opts:
        if fleet in sure:
            assert nav.reach(fleet) is Reach.REACHABLE, fleet
            got = nav.expected_rolls(fleet)
            assert got is not None
            assert got == pytest.approx(vi[fleet], rel=1e-7, abs=1e-9)
            if all(e in scoring for e in fleet):
                continue
            for n in ROLLS:  # the steering is clear, stays sure and attains the minimum
                dest = tuple(sorted(to for _, to in nav.steer(fleet, n)))
                assert oracle_survival(board, dest, rollers) == 1
                assert dest in sure
                best = min(vi[d] for d in opts[fleet][ROLLS.index(n)] if d in sure
                           and oracle_survival(board, d, rollers) == 1)  # fmt: skip
                assert vi[dest] == pytest.approx(best, rel=1e-7, abs=1e-9)
        else:
            want = Reach.TRAPPED if fleet in possible else Reach.UNREACHABLE
            assert nav.reach(fleet) is want, fleet
            assert nav.expected_rolls(fleet) is None
            with pytest.raises(InvalidInput):
                nav.steer(fleet, 6)


@settings(max_examples=25)
@given(
    data=st.data(),
    board=small_boards(),
    ships=st.integers(2, 3),
    may_stay=st.booleans(),
    rollers=st.sampled_from(list(Rollers)),
)
def test_expected_rolls_match_plain_value_iteration(
    data: st.DataObject, board: Board, ships: int, may_stay: bool, rollers: Rollers
) -> None:
    edges = ship_edges(board)
    if not edges or len(edges) > 9:
        return
    scoring = frozenset(data.draw(st.lists(st.sampled_from(edges), min_size=1, max_size=4)))
    check_navigation(board, ships, scoring, may_stay, rollers)


def test_expected_rolls_on_the_island_ring() -> None:
    b = island_ring()
    ring = neighbours(Hex(0, 0))
    scoring = frozenset({spoke(Hex(0, 0), 0), spoke(Hex(0, 0), 1), edge(ring[3], ring[4])})
    for stay in (False, True):
        check_navigation(b, 2, scoring, stay, Rollers.EXCESS)
    check_navigation(b, 3, scoring, False, Rollers.ALL)


def test_one_ship_fleet_is_the_single_ship_navigator() -> None:
    b = demo_board()
    targets = frozenset({edge((0, 2), (0, 3)), edge((0, 3), (1, 2))})
    for stay in (False, True):
        nav = navigate(b, targets, may_stay=stay)
        space = fleet_space(b, 1, stay)
        fleet_nav = fleet_navigate(space, [nav.graph.edges[0]], targets)
        for e in nav.graph.edges:
            assert fleet_nav.reach([e]) is nav.reach(e)
            want, got = nav.expected_rolls(e), fleet_nav.expected_rolls([e])
            assert (want is None) == (got is None)
            if want is not None and got is not None:
                assert got == pytest.approx(want, rel=1e-9)
        # The best odds within R rolls are at least those of the fewest-rolls steering.
        start = edge((-1, -1), (0, -1))
        odds = fleet_odds(space, [start], targets, 12)
        arrival = arrival_distribution(nav, start)
        for t in range(13):
            assert float(odds.within[t]) >= arrival.within(t) - 1e-12


def test_trapped_when_every_way_home_crowds_a_coast() -> None:
    # Two ships in one lagoon whose only scoring edge is a single coast spoke: they can
    # never both stand on it without a collision, so success is possible but never sure.
    # (One number turns both ships, so the parity of their distance never changes: from
    # spokes 0 and 2 they can meet, from 0 and 3 never.)
    b = two_lagoons(6, 9)
    c = Hex(0, 0)
    nav = fleet_navigate(b, [spoke(c, 0), spoke(c, 2)], {spoke(c, 1)})
    assert nav.status == "optimal"
    assert nav.reach() is Reach.TRAPPED
    assert nav.expected_rolls() is None
    assert nav.to_dict()["expected_rolls"] is None
    odd = fleet_navigate(b, [spoke(c, 0), spoke(c, 3)], {spoke(c, 1)})
    assert odd.status == "unreachable" and odd.reach() is Reach.UNREACHABLE
    # A ship in the other lagoon can never reach a scoring edge of this one.
    far = fleet_navigate(b, [spoke(c, 0), spoke(Hex(5, 0), 0)], {spoke(c, 1), spoke(c, 2)})
    assert far.status == "unreachable" and far.reach() is Reach.UNREACHABLE
    assert far.to_dict()["error_bound"] is None


# -- Monte Carlo sailing of the steering ---------------------------------------------------


def test_monte_carlo_of_the_policy_falls_in_its_interval() -> None:
    b = island_ring()
    c = Hex(0, 0)
    ring = neighbours(c)
    # Two ships start crowded on one coast spoke: the collision rolls repeat until they part.
    scoring = frozenset(spoke(c, k) for k in range(4))
    start = (spoke(c, 0), spoke(c, 0), edge(ring[3], ring[4]))
    rolls = 8
    odds = fleet_odds(b, start, scoring, rolls)
    rng = random.Random(12)
    runs = 2500
    wins = 0
    for _ in range(runs):
        fleet: Sequence[Edge] = start
        for left in range(rolls, 0, -1):
            if all(e in scoring for e in fleet):
                break
            n = rng.randint(1, 6) + rng.randint(1, 6)
            fleet = tuple(sorted(to for _, to in odds.steer(fleet, n, left)))
            crowd = Counter(fleet)
            # Each ship over the limit rolls (the default reading of rule 11).
            rollers = sum(k - oracle_capacity(b, e) for e, k in crowd.items()
                          if k > oracle_capacity(b, e))  # fmt: skip
            if any(rng.randint(1, 6) + rng.randint(1, 6) == 2 for _ in range(rollers)):
                fleet = ()
                break
        wins += bool(fleet) and all(e in scoring for e in fleet)
    p = float(odds.probability())
    assert 0.05 < p < 0.95  # an informative case
    z = 3.2905  # two-sided 99.9%
    half = z * math.sqrt(p * (1 - p) / runs)
    assert abs(wins / runs - p) <= half, (wins / runs, p, half)


# -- results, limits, inputs ---------------------------------------------------------------


def test_to_dict_speaks_the_json_dialect() -> None:
    b = island_ring()
    c = Hex(0, 0)
    scoring = {spoke(c, 0), spoke(c, 3)}
    fleet = [spoke(c, 1), spoke(c, 5)]
    exact = fleet_odds(b, fleet, scoring, 3, exact=True).to_dict()
    floats = fleet_odds(b, fleet, scoring, 3).to_dict()
    json.dumps(exact, allow_nan=False)
    json.dumps(floats, allow_nan=False)
    assert exact["status"] == "optimal"
    assert exact["ships"] == [edge_json(e) for e in sorted(fleet)]
    assert exact["scoring"] == [edge_json(e) for e in sorted(scoring)]
    assert exact["ships"][0] == [[0, 0], [0, 1]]
    assert exact["joint_states"] == joint_state_count(12, 2)
    assert exact["collision_rollers"] == "excess" and exact["may_stay"] is False
    assert len(exact["within"]) == 4 and exact["within"][0]["rolls"] == 0
    p = Fraction(exact["probability_exact"])
    assert p == plain_odds(b, tuple(sorted(fleet)), frozenset(scoring), 3, False)
    assert exact["probability"] == float(p) and exact["error_bound"] == 0.0
    assert floats["probability_exact"] is None and floats["error_bound"] > 0
    assert [a["roll"] for a in exact["advice"]] == list(ROLLS)
    assert exact["advice"][0]["moves"][0].keys() == {"from", "to"}
    nav = fleet_navigate(b, fleet, scoring).to_dict()
    json.dumps(nav, allow_nan=False)
    assert nav["reach"] == "reachable" and nav["expected_rolls"] > 0
    assert nav["error_bound"] is not None and nav["error_bound"] < 1e-6


def test_a_board_too_big_for_the_joint_table_is_refused_with_both_counts() -> None:
    big = Board({h: Tile(Terrain.SEA, 6) for h in hexagon(6)})
    edges = len(wind_graph(big))
    count = joint_state_count(edges, 3)
    assert count > MAX_JOINT_STATES
    fleet = [edge((0, 0), (1, 0))] * 3
    with pytest.raises(InvalidInput) as info:
        fleet_odds(big, fleet, [edge((0, 0), (0, 1))], 5)
    text = str(info.value)
    assert f"{count:,}" in text and f"{MAX_JOINT_STATES:,}" in text
    # Two ships fit.
    assert len(fleet_space(big, 2)) == joint_state_count(edges, 2)


def test_inputs_are_checked() -> None:
    b = demo_board()
    e, f = edge((0, 0), (0, 1)), edge((0, 2), (0, 3))
    with pytest.raises(InvalidInput, match="rolls"):
        fleet_odds(b, [e, f], [f], -1)
    with pytest.raises(InvalidInput, match="scoring"):
        fleet_odds(b, [e, f], [], 3)
    with pytest.raises(InvalidInput, match=r"scoring\[0\]"):
        fleet_odds(b, [e, f], [edge((0, 3), (1, 3))], 3)
    with pytest.raises(InvalidInput, match="exact"):
        fleet_odds(b, [e, f, f], [f], 3, exact=True)
    assert joint_state_count(83, 3) > MAX_EXACT_STATES
    space = fleet_space(b, 2)
    with pytest.raises(InvalidInput, match="ships"):
        fleet_odds(space, [e, f, f], [f], 3)
    with pytest.raises(InvalidInput, match="may_stay"):
        fleet_odds(space, [e, f], [f], 3, may_stay=True)
    with pytest.raises(InvalidInput, match="rollers"):
        fleet_navigate(space, [e, f], [f], rollers=Rollers.ALL)
    odds = fleet_odds(space, [e, f], [f], 3)
    with pytest.raises(InvalidInput, match="rolls_left"):
        odds.steer([e, f], 6, 0)
    with pytest.raises(InvalidInput, match="roll"):
        odds.steer([e, f], 7.0, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="fleet"):
        odds.probability(fleet=[e])
    with pytest.raises(InvalidInput, match="ships"):
        fleet_space(b, 4)
    assert isinstance(space, FleetSpace)


def test_three_ships_on_the_demo_board_fit_the_budget() -> None:
    # The scale: 3 ships, R = 30, on the embedded board (the benchmark times it).
    b = demo_board()
    home = scoring_edges(
        b, "red", {parse_settlement("0,1:0,2:1,1"): "red", parse_settlement("-1,0:0,0:-1,1"): "red"}
    )
    fleet = [edge((0, 0), (0, 1)), edge((1, 1), (1, 2)), edge((2, -2), (2, -1))]
    odds = fleet_odds(b, fleet, home, 30)
    assert odds.joint_states == 98_770
    within = [float(p) for p in odds.within]
    assert all(x <= y + odds.error_bound for x, y in itertools.pairwise(within))
    assert 0.0 < within[-1] < 1.0
