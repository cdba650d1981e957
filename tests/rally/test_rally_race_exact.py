"""The exact race (docs/rally.md, "The race"): the joint chain against a plain recursion
and against the Monte Carlo of the same policies."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board
from isles.models.catan import Building, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import vertex
from isles.rally import plan_income, race_cars
from isles.solvers.rally import race_exact as rally_race_exact
from tests.rally.test_rally_race import CARS, two_owners

#: The tiny board: one step from the sea 0,0 into the hills 1,0 (token 4: 4 brick).
ONE_STEP = [{"player": p, "start": (0, 0), "goals": [(1, 0)]} for p in ("red", "blue")]
COST = 4
#: The rolls bringing each car a brick: red's settlement on hills 4 and 6, blue's on 4 and 5.
BRICK_ROLLS = {"red": (4, 6), "blue": (4, 5)}


def ways(roll: int) -> int:
    return 6 - abs(7 - roll)


def plain_first(players: int, turns: int, seats: tuple[str, ...]) -> tuple[Fraction, Fraction]:
    """Each seat's chance of entering 1,0 first, by recursion over (round, seat, bricks).

    No trades and no 7-card rule: a car holds only what it rolled, and moves
    (so wins) at its own turn as soon as it holds the 4 brick.
    """

    @cache
    def win(turn: int, seat: int, held0: int, held1: int) -> tuple[Fraction, Fraction]:
        if turn > turns:
            return Fraction(0), Fraction(0)
        total = [Fraction(0), Fraction(0)]
        for roll in range(2, 13):
            h0 = min(COST, held0 + (roll in BRICK_ROLLS[seats[0]]))
            h1 = min(COST, held1 + (roll in BRICK_ROLLS[seats[1]]))
            p = Fraction(ways(roll), 36)
            if seat == 0 and h0 >= COST:
                total[0] += p
                continue
            if seat == 1 and h1 >= COST:
                total[1] += p
                continue
            nxt = (seat + 1) % players
            later = win(turn + (nxt == 0), nxt, h0, h1)
            total[0] += p * later[0]
            total[1] += p * later[1]
        return total[0], total[1]

    return win(1, 0, 0, 0)


@settings(max_examples=5, deadline=None)
@given(players=st.integers(3, 6), turns=st.integers(1, 12), swap=st.booleans())
def test_the_exact_race_is_the_plain_recursion(players: int, turns: int, swap: bool) -> None:
    cars = ONE_STEP[::-1] if swap else ONE_STEP
    race = race_cars(two_owners(), cars, trade="none", discard="off", players=players, turns=turns)
    assert str(race.status) == "exact" and race.method == "exact" and race.error is not None
    want = plain_first(players, turns, tuple(str(c["player"]) for c in cars))
    for car, p in zip(race.cars, want, strict=True):
        assert car.first is not None and car.interval is not None  # exact: always given
        assert abs(car.first - float(p)) < race.error
        assert car.interval[0] <= car.first <= car.interval[1]
    assert race.no_winner_chance == pytest.approx(float(1 - sum(want)), abs=race.error)


def desert_exit() -> Board:
    """Both cars must leave the desert 1,0 (a gamble) for the hills 2,0 (token 6: 6 brick)."""
    tiles = {
        (0, 0): Tile(Terrain.SEA),
        (1, 0): Tile(Terrain.DESERT),
        (2, 0): Tile(Terrain.HILLS, 6),
        (1, -1): Tile(Terrain.HILLS, 8),
        (2, -1): Tile(Terrain.FIELDS, 5),
        (1, 1): Tile(Terrain.HILLS, 5),
    }
    buildings = {
        vertex((1, 0), (1, -1), (2, -1)): Building("red"),
        vertex((1, 0), (2, 0), (1, 1)): Building("blue"),
    }
    return Board(tiles, buildings=buildings)


@pytest.mark.parametrize(
    ("board", "cars"),
    [
        (two_owners(), CARS),
        (
            desert_exit(),
            [{"player": p, "start": (0, 0), "goals": [(2, 0)]} for p in ("blue", "red")],
        ),
    ],
)
def test_the_monte_carlo_agrees_with_the_exact_race(board: Board, cars: list[Any]) -> None:
    exact = race_cars(board, cars, trade="none", turns=60)
    games = 4000
    mc = race_cars(board, cars, trade="none", turns=60, method="monte_carlo", games=games)
    assert str(exact.status) == "exact" and str(mc.status) == "estimate"
    assert exact.error is not None and exact.joint_states
    for e, m in zip(exact.cars, mc.cars, strict=True):
        assert e.first is not None and m.first is not None
        sigma = math.sqrt(max(e.first * (1 - e.first), 1e-4) / games)
        assert abs(e.first - m.first) < 4 * sigma, (e.first, m.first)
        for t in (5, 20):  # each car's own arrival by round t
            p, q = e.within[t - 1], m.within[t - 1]
            assert p is not None and q is not None
            assert abs(p - q) < 4 * math.sqrt(max(p * (1 - p), 1e-4) / games)
    # the first seat rolls first, as alone: its own chain is its plan's P(arrived within t)
    car = exact.cars[0]
    alone = plan_income(board, car.player, car.start, car.goals, trade="none", within=60)
    assert car.within == pytest.approx(alone.within, abs=1e-9)
    total = sum(c.first or 0 for c in exact.cars) + (exact.no_winner_chance or 0)
    assert total == pytest.approx(1, abs=exact.error)


def test_beyond_the_bound_the_race_is_played_or_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rally_race_exact, "MAX_JOINT_STATES", 50)
    auto = race_cars(two_owners(), CARS, trade="none", games=200)
    assert str(auto.status) == "estimate" and auto.method == "monte_carlo"
    with pytest.raises(InvalidInput, match="method: 'exact' is invalid; expected auto or "):
        race_cars(two_owners(), CARS, trade="none", method="exact")
