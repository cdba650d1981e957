"""Tests of the competitive variant's exact solve (solvers/lighthouse/competitive.py) and its rules.

Checks docs/lighthouse.md, "Competitive variant": the solve against a plain
recursion written here (every reachable position of models/lighthouse/competitive.py,
value iteration with NumPy), against the older sparse solve of small kits,
against simulations, the compiled kernels against the plain-Python ones, and
the policies against the cooperative game's.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.lighthouse import competitive_odds
from isles.models.errors import InvalidInput
from isles.models.lighthouse.competitive import (
    CompetitivePosition,
    competitive_decisions,
    competitive_kit,
    play_competitive_turn,
    removal_weights,
    seat_islands,
)
from isles.models.lighthouse.kit import BOAT, Kit, default_kit
from isles.models.lighthouse.rules import Roll, roll_outcomes
from isles.models.status import Status
from isles.solvers.lighthouse.competitive import (
    MAX_COMPETITIVE_BYTES,
    competitive_memory_bytes,
    solve_competitive,
)
from isles.solvers.lighthouse.competitive_simulation import simulate_competitive
from isles.solvers.lighthouse.competitive_tables import policy_decisions

Z999 = 3.2905267314919255
"""The normal quantile of a two-sided 99.9% interval."""


def plain_chances(kit: Kit, seats: int, policies: tuple[str, ...]) -> tuple[float, ...]:
    """Each seat's chance by brute force: every reachable position, then value iteration.

    Independent of the solver's codes, tables and sweeps: positions are
    CompetitivePosition objects, turns are play_competitive_turn, decisions come
    from policy_decisions (fixed seats, weighted) or competitive_decisions
    (optimising seats, 2 seats: seat 0 maximises its chance, seat 1 minimises it).
    Rows are (position, roll, decision); values are iterated (Jacobi) until
    nothing changes.
    """
    rolls = roll_outcomes(kit)
    start = CompetitivePosition.start(kit)
    index = {start: 0}
    queue = [start]
    # one row per (position, roll, decision): its group (position, roll), weight, successor
    group_of: list[int] = []
    weight: list[float] = []
    succ: list[int] = []  # >= 0 a position; -1 - s: seat s won
    group_pos: list[int] = []
    group_prob: list[float] = []
    group_choose: list[float] = []  # 0 averaged, +1 max, -1 min
    head = 0
    while head < len(queue):
        pos = queue[head]
        here = head
        head += 1
        policy = policies[pos.seat]
        for roll in rolls:
            g = len(group_pos)
            group_pos.append(here)
            group_prob.append(float(roll.probability))
            if policy == "optimal":
                options = [(d, Fraction(1)) for d in competitive_decisions(kit, seats, pos, roll)]
                group_choose.append(1.0 if pos.seat == 0 else -1.0)
            else:
                options = list(policy_decisions(kit, seats, pos, roll, policy))
                group_choose.append(0.0)
            for decision, w in options:
                turn = play_competitive_turn(kit, seats, pos, roll, decision, check=False)
                if turn.winner is not None:
                    target = -1 - turn.winner
                else:
                    if turn.position not in index:
                        index[turn.position] = len(queue)
                        queue.append(turn.position)
                    target = index[turn.position]
                group_of.append(g)
                weight.append(float(w))
                succ.append(target)
    size = len(queue)
    s = np.array(succ)
    gi = np.array(group_of)
    wt = np.array(weight)
    gp = np.array(group_pos)
    prob = np.array(group_prob)
    choose = np.array(group_choose)
    optimising = bool((choose != 0).any())
    comps = 1 if optimising else seats  # with an optimising seat (2 seats): seat 0's chance
    values = np.zeros((size + seats, comps))
    for seat in range(seats):  # row size + seats - 1 - seat: "seat won"
        if optimising:
            values[size + seats - 1 - seat, 0] = 1.0 if seat == 0 else 0.0
        else:
            values[size + seats - 1 - seat, seat] = 1.0
    nxt = np.where(s >= 0, s, size + seats + s)
    starts = np.flatnonzero(np.r_[True, gi[1:] != gi[:-1]])
    for _ in range(20_000):
        got = values[nxt]
        averaged = np.zeros((len(prob), comps))
        np.add.at(averaged, gi, wt[:, None] * got)
        if optimising:
            best = np.maximum.reduceat(got[:, 0] * choose[gi], starts) * choose
            averaged[:, 0] = np.where(choose != 0, best, averaged[:, 0])
        new = np.zeros((size, comps))
        np.add.at(new, gp, prob[:, None] * averaged)
        change = float(np.abs(new - values[:size]).max())
        values[:size] = new
        if change < 1e-15:
            break
    if optimising:
        return (float(values[0, 0]), 1.0 - float(values[0, 0]))
    return tuple(float(v) for v in values[0])


def close(a: tuple[float, ...], b: tuple[float, ...], tol: float) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(
    ("islands", "sea_cards", "seats", "policies"),
    [
        (2, 3, 2, ("greedy", "greedy")),
        (2, 2, 2, ("random", "greedy")),
        (2, 3, 2, ("optimal", "optimal")),
        (2, 1, 2, ("greedy", "optimal")),
    ],
)
def test_one_island_per_seat_equals_plain_recursion(
    islands: int, sea_cards: int, seats: int, policies: tuple[str, ...]
) -> None:
    kit = default_kit(islands, sea_cards)
    res = solve_competitive(kit, seats, policies)
    assert res.error_bound < 1e-9
    assert close(res.win_probability, plain_chances(kit, seats, policies), 1e-12)
    assert math.isclose(sum(res.win_probability), 1.0, abs_tol=1e-12)


def test_compiled_equals_plain_python_kernels() -> None:
    kit = default_kit(2, 2)
    for policies in (("greedy", "random"), ("optimal", "optimal")):
        a = solve_competitive(kit, 2, policies, backend="python")
        b = solve_competitive(kit, 2, policies, backend="numba")
        assert a.win_probability == b.win_probability
        assert (a.sweeps, a.reachable) == (b.sweeps, b.reachable)


@pytest.mark.parametrize(
    ("islands", "seats", "policy"),
    [(4, 2, "greedy"), (3, 3, "random")],
)
def test_exact_inside_simulation_interval(islands: int, seats: int, policy: str) -> None:
    kit = default_kit(islands, 2)
    exact = solve_competitive(kit, seats, policy)
    sim = simulate_competitive(kit, seats, policy, 1000, seed=7)
    assert sim.unfinished == 0
    for p, wins in zip(exact.win_probability, sim.wins, strict=True):
        # Wilson's 99.9% interval around the simulated share
        n, phat, z2 = sim.games, wins / sim.games, Z999**2
        centre = (phat + z2 / (2 * n)) / (1 + z2 / n)
        half = Z999 * math.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        assert centre - half <= p <= centre + half


def test_optimal_play_sanity() -> None:
    kit = default_kit(2, 3)
    greedy = solve_competitive(kit, 2, "greedy")
    first = solve_competitive(kit, 2, ("optimal", "greedy"))
    second = solve_competitive(kit, 2, ("greedy", "optimal"))
    both = solve_competitive(kit, 2, "optimal")
    eps = max(r.error_bound for r in (greedy, first, second, both))
    assert eps < 1e-9
    assert both.status is Status.OPTIMAL and first.status is Status.OPTIMAL
    # each seat does at least as well optimising against greedy as playing greedy
    assert first.win_probability[0] >= greedy.win_probability[0] - eps
    assert second.win_probability[1] >= greedy.win_probability[1] - eps
    # the value of the game lies between the two one-sided optima
    assert second.win_probability[0] - eps <= both.win_probability[0]
    assert both.win_probability[0] <= first.win_probability[0] + eps
    assert both.residual <= 1e-13 and both.turns_bound > 1


def test_policy_decisions_are_legal_and_sum_to_one() -> None:
    kit = competitive_kit(2)
    pos = CompetitivePosition(
        (("red",), (), ("purple", "red"), ("green",), ("orange", "purple"), ()), 3, 5, 0
    )
    for roll in roll_outcomes(kit):
        legal = set(competitive_decisions(kit, 2, pos, roll))
        for policy in ("greedy", "random"):
            options = policy_decisions(kit, 2, pos, roll, policy)
            assert sum(w for _, w in options) == 1
            assert {d for d, _ in options} <= legal
            if policy == "greedy":
                assert len(options) == 1


def test_policies_are_the_cooperative_ones() -> None:
    # A seat's discs follow the cooperative greedy rule on its own islands:
    # the disc that can be laid first, on the lighthouse with most discs.
    kit = competitive_kit(2)
    pos = CompetitivePosition(((),) * 3 + (("green",), ("orange", "purple", "orange"), ()), 0, 0, 1)
    roll = Roll.from_faces(kit, ("blue", "purple"))
    ((decision, _),) = policy_decisions(kit, 2, pos, roll, "greedy")
    assert decision.placements == (("blue", 3), ("purple", 4))
    # the bonus only when Maurice's walk around all six islands reaches his own
    # (red on top of island 5, so seat 2 sends red back and Maurice walks one island)
    roll = Roll.from_faces(kit, ("red", BOAT))
    far = CompetitivePosition(((),) * 5 + (("red",),), 0, 3, 1)
    near = CompetitivePosition(((),) * 5 + (("red",),), 0, 5, 1)
    assert policy_decisions(kit, 2, far, roll, "greedy")[0][0].bonus is None
    assert policy_decisions(kit, 2, near, roll, "greedy")[0][0].bonus == ("green", 5)


def test_landing_removal() -> None:
    kit = competitive_kit(2)
    done = ("blue", "green", "blue", "green")
    pos = CompetitivePosition(((),) * 3 + (done, ("orange",), ("red", "green")), 3, 0, 0)
    landing = Roll(True, (), Fraction(1, 36))
    assert removal_weights(kit, 2, pos, landing, "greedy") == ((5, Fraction(1)),)
    after = play_competitive_turn(
        kit, 2, pos, landing, competitive_decisions(kit, 2, pos, landing)[0]
    ).position
    assert after.boat == 2 and after.discs[3] == done


def test_answers_say_exact_or_estimate() -> None:
    exact = competitive_odds(default_kit(2, 3), 2, "random")
    assert exact.status is Status.EXACT
    d = exact.to_dict()
    assert d["status"] == "exact" and d["error_bound"] < 1e-9
    assert [s["seat"] for s in d["by_seat"]] == [1, 2]
    assert d["by_seat"][0]["win_probability_exact"] is None
    assert competitive_memory_bytes(competitive_kit(4), 4) > MAX_COMPETITIVE_BYTES
    sim = competitive_odds(competitive_kit(4), 4, "greedy", games=20, seed=1)
    assert sim.status is Status.ESTIMATE and sim.to_dict()["method"] == "monte carlo"


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: competitive_odds(default_kit(3, 3), 3, "optimal"), "policy"),
        (lambda: competitive_odds(default_kit(3, 3), 2), "seats"),
        (lambda: competitive_odds(default_kit(2, 3), 2, ("greedy",)), "policy"),
        (lambda: competitive_odds(default_kit(2, 3), 2, games=10), "games"),
        (lambda: competitive_odds(competitive_kit(4), 4, "optimal"), "policy"),
        (lambda: competitive_odds(competitive_kit(4), 4, time_limit=1.0), "time_limit"),
        (lambda: solve_competitive(competitive_kit(4), 4), "kit"),
        (lambda: solve_competitive(default_kit(2, 3), 2, tolerance=0), "tolerance"),
        (lambda: solve_competitive(default_kit(2, 3), 2, backend="gpu"), "backend"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_names_the_field(call: object, field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        call()  # type: ignore[operator]
    assert err.value.field == field


COLOURS = ("red", "blue", "green")


@st.composite
def small_kits(draw: st.DrawFn) -> tuple[Kit, tuple[str, ...]]:
    pairs = [draw(st.permutations(COLOURS)) for _ in range(2)]
    islands = tuple((p[0], p[1]) for p in pairs)
    used = tuple(sorted({c for isl in islands for c in isl}))
    faces = st.lists(st.sampled_from((BOAT, *COLOURS)), min_size=0, max_size=2)
    dice = ((*draw(faces), *used), (*draw(faces), BOAT))
    kit = Kit(islands, dice, draw(st.integers(1, 2)))
    policies = tuple(draw(st.sampled_from(("greedy", "random", "optimal"))) for _ in range(2))
    return kit, policies


@settings(max_examples=6, deadline=None)
@given(small_kits())
def test_hypothesis_small_kits_equal_plain_recursion(case: tuple[Kit, tuple[str, ...]]) -> None:
    kit, policies = case
    res = solve_competitive(kit, 2, policies)
    assert close(res.win_probability, plain_chances(kit, 2, policies), 1e-10)
    assert res.error_bound < 1e-8


@st.composite
def positions(draw: st.DrawFn) -> tuple[Kit, int, CompetitivePosition]:
    seats = draw(st.sampled_from((2, 3, 4)))
    kit = competitive_kit(seats)
    discs = []
    for island in kit.islands:
        count, top = draw(st.integers(0, 4)), draw(st.integers(0, 1))
        discs.append(tuple(island[(top + count - 1 - i) % 2] for i in range(count)))
    n = len(kit.islands)
    pos = CompetitivePosition(
        tuple(discs),
        draw(st.integers(0, kit.sea_cards)),
        draw(st.integers(0, n - 1)),
        draw(st.integers(0, seats - 1)),
    )
    return kit, seats, pos


@settings(max_examples=40, deadline=None)
@given(positions(), st.sampled_from(("greedy", "random")))
def test_each_turn_is_a_distribution_over_legal_turns(
    case: tuple[Kit, int, CompetitivePosition], policy: str
) -> None:
    """A policy's decisions weigh 1 for every roll; a turn lays only on the mover's
    islands and takes at most one disc from another seat's (the landing)."""
    kit, seats, pos = case
    mine = set(seat_islands(kit, seats, pos.seat))
    for roll in roll_outcomes(kit):
        weighted = policy_decisions(kit, seats, pos, roll, policy)
        assert sum(w for _, w in weighted) == 1
        for decision, _ in weighted:
            after = play_competitive_turn(kit, seats, pos, roll, decision).position
            for i, (before, now) in enumerate(zip(pos.discs, after.discs, strict=True)):
                if i in mine:
                    assert len(now) >= len(before)
                else:
                    assert len(before) - 1 <= len(now) <= len(before)
