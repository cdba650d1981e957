"""Lighthouses: the DPs against a plain recursive brute force, and the rules of the model.

Both exact engines are checked: the class DP and greedy sweep of
``isles.solvers.lighthouse`` (``solve``) and the reference tables over every
lighthouse code (``tests.lighthouse.reference``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.lighthouse.reference as reference
from isles.lighthouse import difficulty_table
from isles.models.errors import InvalidInput
from isles.models.lighthouse.kit import BOAT, Kit, default_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.questions import LighthouseTable
from isles.models.lighthouse.rules import (
    Decision,
    Outcome,
    Roll,
    legal_decisions,
    play_turn,
    roll_outcomes,
)
from isles.solvers.lighthouse.advice import advise
from isles.solvers.lighthouse.bounds import forward_greedy, upper_bound_by_disc_count
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.policies import decision_weights
from isles.solvers.lighthouse.simulation import outcome_distribution, simulate
from isles.solvers.lighthouse.solution import LighthouseSolution

ENGINES: dict[str, Callable[..., Any]] = {"classes": solve, "reference": reference.solve}

TRIO = Kit(
    (("red", "blue"), ("blue", "green"), ("green", "red")),
    ((BOAT, "red", "blue", "green"), (BOAT, "red", "blue", "green")),
    2,
)


@cache
def brute_force(kit: Kit, policy: str = "optimal") -> Fraction:
    """Plain memoised recursion over positions, whole decisions from the model (kept per
    kit and policy: each engine is checked against the same answer)."""
    rolls = roll_outcomes(kit)

    @cache
    def value(pos: Position) -> Fraction:
        total = Fraction(0)
        for roll in rolls:
            if policy == "optimal":
                choices = [(d, Fraction(1)) for d in legal_decisions(kit, pos, roll)]
            else:
                choices = decision_weights(kit, pos, roll, policy)
            outcomes = []
            for d, wt in choices:
                res = play_turn(kit, pos, roll, d)
                if res.outcome is Outcome.WON:
                    v = Fraction(1)
                elif res.outcome is Outcome.LOST:
                    v = Fraction(0)
                else:
                    v = value(res.position)
                outcomes.append((v, wt))
            if policy == "optimal":
                total += roll.probability * max(v for v, _ in outcomes)
            else:
                total += roll.probability * sum(v * wt for v, wt in outcomes)
        return total

    return value(Position.start(kit))


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize(
    "kit",
    [default_kit(1, 1), default_kit(1, 3), default_kit(2, 2), TRIO],
    ids=["1x1", "1x3", "2x2", "trio"],
)
@pytest.mark.parametrize("policy", ["optimal", "greedy", "random"])
def test_dp_equals_brute_force_as_fractions(kit: Kit, policy: str, engine: str) -> None:
    sol = ENGINES[engine](kit, policy, exact=True)
    assert sol.exact_win_probability() == brute_force(kit, policy)


colours = st.sampled_from(["red", "blue", "green"])


@st.composite
def tiny_kits(draw: st.DrawFn) -> Kit:
    n = draw(st.integers(1, 2))
    islands = []
    for _ in range(n):
        a, b = draw(st.lists(colours, min_size=2, max_size=2, unique=True))
        islands.append((a, b))
    needed = sorted({c for isl in islands for c in isl})
    dice = []
    for _ in range(2):
        extra = draw(st.lists(st.sampled_from([BOAT, "red", "blue", "green", "black"]), max_size=3))
        dice.append(tuple(draw(st.permutations([BOAT, *needed, *extra]))))
    return Kit(tuple(islands), (dice[0], dice[1]), draw(st.integers(1, 2)))


@settings(max_examples=12)
@given(
    tiny_kits(),
    st.sampled_from(["optimal", "greedy", "random"]),
    st.sampled_from(["classes", "reference"]),
)
def test_dp_equals_brute_force_on_random_kits(kit: Kit, policy: str, engine: str) -> None:
    truth = brute_force(kit, policy)
    exact = ENGINES[engine](kit, policy, exact=True)
    assert exact.exact_win_probability() == truth
    floats = ENGINES[engine](kit, policy)
    assert abs(floats.win_probability() - float(truth)) <= floats.error_bound


@pytest.mark.parametrize("policy", ["optimal", "greedy", "random"])
def test_float_table_within_error_bound_of_exact_table(policy: str) -> None:
    kit = default_kit(2, 3)
    exact = solve(kit, policy, exact=True)
    floats = solve(kit, policy)
    diff = np.abs(exact.values.astype(np.float64) - floats.values)
    assert diff.max() <= floats.error_bound
    assert 0 < floats.error_bound < 1e-10


@pytest.fixture(scope="module")
def four() -> dict[str, LighthouseSolution]:
    kit = default_kit(4, 8)
    return {p: solve(kit, p) for p in ("optimal", "greedy", "random")}


def test_optimal_never_worse_than_greedy_or_random_in_any_position(
    four: dict[str, LighthouseSolution],
) -> None:
    opt = four["optimal"].by_code()
    for pol in ("greedy", "random"):
        other = four[pol].by_code()
        assert (opt >= other - 1e-12).all()
    assert (opt >= -1e-15).all() and (opt <= 1 + 1e-12).all()


def test_more_sea_cards_never_lower_the_optimal_odds(four: dict[str, LighthouseSolution]) -> None:
    sol = four["optimal"]
    odds = [sol.win_probability(k) for k in range(1, 9)]
    assert all(a < b for a, b in itertools.pairwise(odds))
    # Whole table: a boat one card further back is never better.
    table = sol.values[:, :9, :4]
    assert (table[:, :-1] >= table[:, 1:] - 1e-12).all()


def test_fewer_sea_cards_equal_the_boat_further_on() -> None:
    small = solve(default_kit(2, 2), exact=True)
    big = solve(default_kit(2, 5), exact=True)
    assert small.exact_win_probability() == big.exact_win_probability(2)


def test_certified_upper_bound_is_above_optimal() -> None:
    for n, k in ((1, 1), (2, 3), (3, 2)):
        kit = default_kit(n, k)
        assert solve(kit).win_probability() <= float(upper_bound_by_disc_count(kit))


@pytest.mark.parametrize("policy", ["optimal", "greedy", "random"])
def test_monte_carlo_agrees_with_exact_value(
    four: dict[str, LighthouseSolution], policy: str
) -> None:
    kit = default_kit(4, 8)
    sol = four[policy]
    res = simulate(kit, policy, 8000, seed=11, solution=sol)
    exact = sol.win_probability()
    assert res.ci95[0] <= exact <= res.ci95[1]
    assert sum(res.length_won) == res.wins
    assert sum(res.length_won) + sum(res.length_lost) == res.games == sum(res.final_boat)
    assert res.final_boat[-1] == sum(res.length_lost)


def test_advice_best_values_average_to_the_position_value() -> None:
    kit = default_kit(2, 3)
    sol = solve(kit, exact=True)
    for pos in (Position.start(kit), Position((("red",), ("green", "orange")), 2, 1)):
        total = sum(
            (
                r.probability * Fraction(advise(sol, pos, r).win_probability)
                for r in roll_outcomes(kit)
            ),
            Fraction(0),
        )
        assert total == sol.value(pos)


def test_advice_lists_every_alternative_best_first() -> None:
    kit = default_kit(2, 3)
    sol = solve(kit, exact=True)
    pos = Position((("red", "blue", "red"), ("green",)), 1, 1)
    roll = Roll(False, ("blue", "orange"), Fraction(1, 18))
    adv = advise(sol, pos, roll)
    values = [v for _, v in adv.alternatives]
    assert values == sorted(values, reverse=True)
    assert {d for d, _ in adv.alternatives} == set(legal_decisions(kit, pos, roll))


def test_outcome_distribution_is_a_distribution_matching_the_dp() -> None:
    kit = default_kit(2, 2)
    sol = solve(kit, exact=True)
    dist = outcome_distribution(kit, "optimal", sol)
    assert dist.win_probability == sol.exact_win_probability()
    assert sum(dist.won_at) + sum(dist.lost_at) == 1
    assert sum(dist.final_boat) == 1
    assert dist.final_boat[-1] == sum(dist.lost_at)
    greedy = outcome_distribution(kit, "random")
    assert greedy.win_probability == solve(kit, "random", exact=True).exact_win_probability()
    assert greedy.expected_turns > 4  # 8 discs need at least 3 turns, usually more


def test_difficulty_table_uses_one_solve_for_every_sea_card_count() -> None:
    table = difficulty_table((3,), (1, 2, 3), "optimal")
    assert table.status == "optimal" and table.policies == ("optimal",)
    for r in table.rows:
        assert r.status == "optimal" and r.method == "dp" and r.players == ()
        assert r.win_probability == pytest.approx(
            solve(default_kit(3, r.sea_cards)).win_probability(), abs=1e-15
        )
        assert r.win_probability <= r.upper_bound
    assert "win_probability" not in table.to_dict()  # a table has no single value


def test_difficulty_table_by_players_and_policies() -> None:
    table = difficulty_table(sea_cards=(1, 2), policy=("greedy", "random"), players=(3,))
    assert table.status == "exact"
    assert {(r.islands, r.players) for r in table.rows} == {(6, (3,))}
    values = {(r.policy, r.sea_cards): r.win_probability for r in table.rows}
    assert values["greedy", 2] == pytest.approx(
        solve(default_kit(6, 2), "greedy").win_probability(), abs=1e-15
    )
    assert values["random", 1] == pytest.approx(
        solve(default_kit(6, 1), "random").win_probability(), abs=1e-15
    )
    assert [r.method for r in table.rows] == ["dp sweep"] * 2 + ["dp"] * 2


def test_difficulty_table_refuses_bad_input() -> None:
    with pytest.raises(InvalidInput, match="islands"):
        difficulty_table((9,), (1,))
    with pytest.raises(InvalidInput, match="players"):
        difficulty_table(sea_cards=(1,), players=(5,))
    with pytest.raises(InvalidInput, match="players"):
        difficulty_table((8,), (1,), players=(2,))
    # one count or several, as the declaration (and --table --sea-cards N) reads them
    one = difficulty_table(2, 2)
    assert one.to_dict() == difficulty_table((2,), (1, 2)).to_dict()
    with pytest.raises(InvalidInput, match="islands"):
        difficulty_table(9, (1,))
    # every row is exact, nothing simulated: the table takes no games nor seed
    with pytest.raises(TypeError, match="games"):
        difficulty_table((8,), (1,), games=100)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="seed"):
        difficulty_table((8,), (1,), seed=1)  # type: ignore[call-arg]
    with pytest.raises(InvalidInput, match=r"^games: unknown key"):
        LighthouseTable.read({"islands": 8, "sea_cards": 1, "games": 100}, spelling="key")
    with pytest.raises(InvalidInput, match="sea_cards"):
        difficulty_table((2,), ())
    with pytest.raises(InvalidInput, match="policy"):
        difficulty_table((2,), (1,), ("clever",))


def test_exact_solvers_refuse_what_does_not_fit() -> None:
    with pytest.raises(InvalidInput, match="islands"):
        solve(default_kit(8, 8), "greedy")  # every position of greedy play: 7 islands
    with pytest.raises(InvalidInput, match="islands"):
        reference.solve(default_kit(8, 8))
    with pytest.raises(InvalidInput, match="policy"):
        solve(default_kit(1, 1), "clever")
    with pytest.raises(InvalidInput, match="exact"):
        solve(default_kit(5, 1), exact=True)


# --- the model -------------------------------------------------------------------------


def test_roll_outcomes_of_the_default_dice() -> None:
    rolls = roll_outcomes(default_kit())
    assert sum(r.probability for r in rolls) == 1
    assert sum(r.probability for r in rolls if r.boat) == Fraction(11, 36)
    two = next(r for r in rolls if r.colours == ("blue", "red"))
    assert two.probability == Fraction(2, 36) and not two.boat


def test_order_of_discs_matters() -> None:
    kit = default_kit(1)
    pos = Position((("red",),), 0, 0)
    roll = Roll(False, ("blue", "red"), Fraction(1, 18))
    decisions = legal_decisions(kit, pos, roll)
    placed = sorted(sum(i is not None for _, i in d.placements) for d in decisions)
    # blue then red: both placed; red first: red goes back, then blue placed (bonus disc).
    assert placed == [1, 2]
    back = next(d for d in decisions if d.placements[0] == ("red", None))
    assert back.bonus == ("red", 0)
    res = play_turn(kit, pos, roll, back)
    assert res.position.discs == (("red", "blue", "red"),) and res.position.maurice == 0


def test_boat_loss_comes_before_the_last_disc() -> None:
    kit = default_kit(1, 2)
    pos = Position((("red", "blue", "red"),), 2, 0)
    roll = Roll(True, ("blue",), Fraction(1, 18))
    assert play_turn(kit, pos, roll, Decision((("blue", 0),))).outcome is Outcome.LOST
    safe = Position((("red", "blue", "red"),), 1, 0)
    assert play_turn(kit, safe, roll, Decision((("blue", 0),))).outcome is Outcome.WON


def test_maurice_bonus_when_his_walk_reaches_home() -> None:
    kit = default_kit(3)
    pos = Position(((), (), ()), 0, 2)
    roll = Roll(True, ("blue",), Fraction(1, 18))  # blue fits the empty red/blue island
    assert all(d.bonus is None for d in legal_decisions(kit, pos, roll))
    stuck = Position((("blue",), (), ()), 0, 2)  # now no lighthouse takes blue
    decisions = legal_decisions(kit, stuck, roll)
    assert all(d.returned == 1 and d.bonus is not None for d in decisions)
    res = play_turn(kit, stuck, roll, decisions[0])
    assert res.position.maurice == 0 and res.position.discs_laid == 2


def test_illegal_decision_is_rejected() -> None:
    kit = default_kit(1)
    with pytest.raises(InvalidInput, match="decision"):
        play_turn(
            kit, Position.start(kit), Roll(False, ("red",), Fraction(1)), Decision((("red", None),))
        )


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (
            {"islands": [["red", "red"]], "dice": [["boat", "red"], ["red"]], "sea_cards": 2},
            "islands",
        ),
        (
            {"islands": [["red", "blue"]], "dice": [["boat", "red"], ["red"]], "sea_cards": 2},
            "islands",
        ),
        ({"islands": [["red", "blue"]], "dice": [["red", "blue"]], "sea_cards": 2}, "dice"),
        (
            {"islands": [["red", "blue"]], "dice": [["red", "blue"]] * 2, "sea_cards": True},
            "sea_cards",
        ),
        (
            {"islands": [["red", "blue"]], "dice": [["red", "blue"], [1]], "sea_cards": 2},
            r"kit\.dice\[1\]\[0\]",
        ),
        (
            {"islands": [["red", "blue"]], "dice": [["red", "blue"]] * 2, "sea_cards": 2, "x": 1},
            "unknown key 'x'",
        ),
        ({"islands": [["red", "blue"]], "dice": [["red", "blue"], []], "sea_cards": 2}, "dice"),
        ({"islands": [["red", "blue"]], "dice": [["red", "blue"], ["red"]], "sea_cards": 0}, "sea"),
        ({"islands": [], "dice": [["red"], ["red"]], "sea_cards": 2}, "islands"),
        ({"dice": [["red"], ["red"]], "sea_cards": 2}, "kit"),
        ([1, 2], "kit"),
    ],
)
def test_bad_kits_name_the_field(raw: object, field: str) -> None:
    with pytest.raises(InvalidInput, match=field):
        Kit.from_dict(raw)


def test_unusable_die_colour_is_allowed() -> None:
    kit = Kit.from_dict(
        {
            "islands": [["red", "blue"]],
            "dice": [["boat", "red", "blue", "black"]] * 2,
            "sea_cards": 1,
        }
    )
    assert kit.colours == ("red", "blue")
    assert solve(kit, exact=True).exact_win_probability() == brute_force(kit)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"discs": [["red", "red"], []], "boat": 0, "maurice": 0}, "discs"),
        ({"discs": [["green"], []], "boat": 0, "maurice": 0}, "discs"),
        ({"discs": [["red", "blue", "red", "blue", "red"], []], "boat": 0}, "discs"),
        ({"discs": [[]], "boat": 0, "maurice": 0}, "discs"),
        ({"discs": [[], []], "boat": 9, "maurice": 0}, "boat"),
        ({"discs": [[], []], "boat": 0, "maurice": 2}, "maurice"),
        ({"discs": "none"}, "discs"),
    ],
)
def test_bad_positions_name_the_field(raw: object, field: str) -> None:
    with pytest.raises(InvalidInput, match=field):
        Position.from_dict(raw, default_kit(2, 8))


def test_kit_and_position_json_round_trip(tmp_path: object) -> None:
    kit = default_kit(3, 5)
    assert Kit.from_dict(kit.to_dict()) == kit
    pos = Position((("red",), (), ("purple", "red")), 3, 2)
    assert Position.from_dict(pos.to_dict(), kit) == pos


def test_forward_greedy_equals_the_dp_and_brackets_when_dropping() -> None:
    for kit in (default_kit(2, 3), default_kit(3, 2), TRIO):
        exact = solve(kit, "greedy").win_probability()
        ev = forward_greedy(kit)
        assert ev.dropped == 0
        assert ev.low <= exact <= ev.high
        assert abs(ev.win_probability - exact) < 1e-12
        assert sum(ev.won_at) + sum(ev.lost_at) == pytest.approx(1, abs=1e-12)
        assert sum(ev.final_boat) == pytest.approx(1, abs=1e-12)
    kit = default_kit(3, 4)
    rough = forward_greedy(kit, min_mass=1e-5)
    exact = solve(kit, "greedy").win_probability()
    assert rough.dropped > 0 and rough.low <= exact <= rough.high
    # And the exact greedy value bounds the optimum from below.
    assert rough.low <= solve(kit).win_probability()


def test_forward_greedy_length_matches_fraction_distribution() -> None:
    kit = default_kit(2, 2)
    ev = forward_greedy(kit)
    dist = outcome_distribution(kit, "greedy")
    assert len(ev.won_at) == len(dist.won_at)
    for a, b in zip(ev.won_at, dist.won_at, strict=True):
        assert a == pytest.approx(float(b), abs=1e-14)
